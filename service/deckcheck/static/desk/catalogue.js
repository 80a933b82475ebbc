// The infraction catalogue of GET /v1/infractions in the page's language: every deck rule (PR 3) and every other
// infraction (PR 4–10) by its code, with its summary. Staff read summaries, never codes: the queue and the assessor
// name what was found by these words.

import {lang} from "./words.js";

let items = []; // the catalogue, in the page's language
let loadedIn = null; // the language it was loaded in

/** Load the catalogue in the page's language (once per language); false when the service cannot give it. */
export async function loadCatalogue() {
  if (loadedIn === lang) return true;
  try {
    const answer = await fetch(new URL("/v1/infractions", location.href), {headers: {"Accept-Language": lang}});
    if (!answer.ok) throw new Error(String(answer.status));
    items = await answer.json();
    loadedIn = lang;
    return true;
  } catch {
    return false;
  }
}

/** Every infraction of the catalogue, in its order. */
export const infractions = () => items;

/** What `code` is, in the page's language, without its full stop; null before the catalogue is loaded. */
export function summaryOf(code) {
  const item = items.find((candidate) => candidate.code === code);
  return item ? item.summary.replace(/[。.]$/, "") : null;
}
