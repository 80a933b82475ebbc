// The event's settings (date, format, list, card language, sleeves), kept in this browser, and the lists of the
// chosen format as the API gives them; how current they are for the event is drawn by currency.js.

import {$, KEYS, element, today} from "./common.js";
import {t} from "./words.js";
import {showError} from "./verdict.js";
import {drawCurrency, mayBeOutdated} from "./currency.js";

let banlists = []; // GET /v1/banlists?format=… for the chosen format

/** Fill the settings' fields from what this browser kept; the list chosen is returned, to be set once the lists
 * are loaded. */
export function readSettings() {
  const kept = JSON.parse(localStorage.getItem(KEYS.settings) || "{}");
  $("event-date").value = kept.date || today();
  $("event-format").value = kept.format === "tcg" ? "tcg" : "ocg";
  $("default-language").value = kept.default_language || ($("event-format").value === "tcg" ? "en" : "ja");
  $("protectors-used").checked = kept.protectors?.used ?? false;
  $("protectors-opaque").checked = kept.protectors?.opaque_back ?? false;
  $("protectors-uniform").checked = kept.protectors?.uniform ?? true;
  return kept.banlist || "";
}

/** The request fields the event settings give every check. */
export function eventFields() {
  return {
    date: $("event-date").value || today(),
    format: $("event-format").value,
    banlist: $("event-banlist").value || undefined, // undefined: left out of the JSON, so the list in force
    default_language: $("default-language").value,
    protectors: {
      used: $("protectors-used").checked,
      opaque_back: $("protectors-opaque").checked,
      uniform: $("protectors-uniform").checked,
    },
  };
}

export function saveSettings() {
  localStorage.setItem(KEYS.settings, JSON.stringify({...eventFields(), banlist: $("event-banlist").value}));
  fillBanlists();
}

/** The list in force on the event date, of those loaded. */
function inForce() {
  const date = $("event-date").value || today();
  return banlists.find((b) => b.effective_from <= date && (!b.effective_until || date < b.effective_until));
}

/** Fill the list select (newest first) keeping the choice, and name the list in force in its first option (never
 * plainly "in force" when a newer one may be); then show how current the data are for the event. */
export function fillBanlists(chosen = $("event-banlist").value) {
  const select = $("event-banlist");
  const current = inForce();
  const date = $("event-date").value || today();
  const format = $("event-format").value;
  const named = mayBeOutdated(current, date, format) ? "option_stale" : "in_force_named"; // its name first
  const first = element("option", "", current ? t(named, current.name) : t("in_force"));
  first.value = "";
  const options = [...banlists].reverse().map((b) => Object.assign(element("option", "", b.name), {value: b.id}));
  select.replaceChildren(first, ...options);
  select.value = banlists.some((b) => b.id === chosen) ? chosen : "";
  drawCurrency({date, format, chosen: banlists.find((b) => b.id === select.value) ?? null, inForce: current ?? null});
}

/** The event as staff name it: its date, format and the name of its list (the one chosen, else the one in force). */
export function eventNames() {
  const select = $("event-banlist");
  const banlist = select.value ? select.selectedOptions[0].textContent : inForce()?.name ?? "—";
  return {date: $("event-date").value || today(), format: $("event-format").value.toUpperCase(), banlist};
}

export async function loadBanlists(chosen) {
  const url = new URL(`/v1/banlists?format=${$("event-format").value}`, location.href);
  try {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(String(answer.status));
    banlists = await answer.json();
  } catch {
    banlists = [];
    showError(t("lists_failed"), [t("unreachable", url.href)]);
  }
  fillBanlists(chosen);
}
