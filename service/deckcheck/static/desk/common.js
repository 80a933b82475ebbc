// What every part of the desk page stands on: its elements, the names of what it keeps in this browser's
// localStorage, the error it shows in words, and dates and times as the desk writes them.

export const KEYS = {
  settings: "deckcheck.desk.settings", queue: "deckcheck.desk.queue", lang: "deckcheck.desk.lang",
  clock: "deckcheck.desk.clock", event: "deckcheck.desk.event", outbox: "deckcheck.desk.outbox",
};

export const $ = (id) => document.getElementById(id);

/** An element with a class and text, for building lists. */
export function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/** POST `body` of media type `type` to `path` of the service in `language`: the answer when it is a success, else
 * an Error in the page's words (`unreachable`, `refused` with the service's own reason where it gives one,
 * `bad_answer`), carrying the answer's status, a refusal's detail and field errors (`problems`); `words` is t(). */
export async function post(path, body, type, language, words) {
  const url = new URL(path, location.href);
  let answer;
  try {
    answer = await fetch(url, {method: "POST", headers: {"Content-Type": type, "Accept-Language": language}, body});
  } catch {
    throw new Error(words("unreachable", url.href));
  }
  if (answer.ok) return answer;
  const json = await answer.json().catch(() => null);
  const reason = json?.errors?.map((error) => error.msg).join("; ") || json?.detail;
  const error = new Error(reason ? `${words("refused", answer.status)} ${reason}` : words("bad_answer", answer.status));
  error.status = answer.status;
  error.detail = json?.detail; // a refusal's own words, and each field error, for a caller that shows them apart
  error.problems = json?.errors ?? [];
  throw error;
}

/** POST `body` as JSON to `path` (as `post` does): the answer's JSON. */
export async function postJson(path, body, language, words) {
  const answer = await post(path, JSON.stringify(body), "application/json", language, words);
  const json = await answer.json().catch(() => null);
  if (json) return json;
  throw new Error(words("bad_answer", answer.status));
}

/** An error of `post` as a DeskError: `message`, else the page's words for a refusal (or the error's own, when no
 * answer came), over the refusal's detail and each field error, with its line where it has one. */
export function refusalOf(error, words, message) {
  const each = (error.problems ?? []).map((problem) =>
    problem.line ? words("at_line", problem.line, problem.msg) : problem.msg);
  const details = !error.detail || each.includes(error.detail) ? each : [error.detail, ...each];
  return new DeskError(message ?? (error.status ? words("refused", error.status) : error.message), details);
}

/** What went wrong with a check, in the page's words, shown over the page. */
export class DeskError extends Error {
  constructor(message, details = [], lines = [], rosterLines = []) {
    super(message);
    this.details = details; // more lines of words
    this.lines = lines; // lines of the deck checked (presented, in a roster check) the error is about
    this.rosterLines = rosterLines; // lines of the registered list (the Deck Roster Sheet) it is about
  }
}

const pad = (number) => String(number).padStart(2, "0");
export const today = () => localDate(new Date());
export const localDate = (when) => `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;

/** An ISO timestamp as the local date and time with its offset from UTC, to the second (ISO 8601):
 * 2008-06-01T10:15:00+09:00. A record read on another day, or in another time zone, still says when. */
export function localDateTime(iso) {
  const when = new Date(iso);
  const east = -when.getTimezoneOffset(); // minutes ahead of UTC
  const zone = `${east < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(east) / 60))}:${pad(Math.abs(east) % 60)}`;
  const time = `${pad(when.getHours())}:${pad(when.getMinutes())}:${pad(when.getSeconds())}`;
  return `${localDate(when)}T${time}${zone}`;
}

/** The local time of an ISO timestamp, with its date when it is not today's. */
export function timeWords(iso) {
  const when = new Date(iso);
  const time = when.toLocaleTimeString("en-GB", {hour12: false});
  return localDate(when) === today() ? time : `${localDate(when)} ${time}`;
}
