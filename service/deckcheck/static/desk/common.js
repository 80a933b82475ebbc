// What every part of the desk page stands on: its elements, the names of what it keeps in this browser's
// localStorage, the error it shows in words, and dates and times as the desk writes them.

export const KEYS = {settings: "deckcheck.desk.settings", queue: "deckcheck.desk.queue", lang: "deckcheck.desk.lang"};

export const $ = (id) => document.getElementById(id);

/** An element with a class and text, for building lists. */
export function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/** What went wrong with a check, in the page's words, shown over the page. */
export class DeskError extends Error {
  constructor(message, details = [], lines = []) {
    super(message);
    this.details = details; // more lines of words
    this.lines = lines; // source lines the error is about
  }
}

export const today = () => localDate(new Date());
export const localDate = (when) =>
  `${when.getFullYear()}-${String(when.getMonth() + 1).padStart(2, "0")}-${String(when.getDate()).padStart(2, "0")}`;

/** The local time of an ISO timestamp, with its date when it is not today's. */
export function timeWords(iso) {
  const when = new Date(iso);
  const time = when.toLocaleTimeString("en-GB", {hour12: false});
  return localDate(when) === today() ? time : `${localDate(when)} ${time}`;
}
