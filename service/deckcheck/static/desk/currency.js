// How current the desk's data are, for the event chosen: the list applied on its date with the day it took effect
// (qualified when a newer one may be in force), the newest list of its format the service holds, the data version,
// and a warning in words, in the header and never folded, when a newer list may be in force on the event date or
// cards printed by then may be missing. GET /healthz gives the newest lists, the day the next list of each is due
// and the day the printings are complete until; it weighs them for today, and the desk weighs them for the event
// date the way the service does (deckcheck.data.freshness, and the note list_may_be_outdated of a check's answer):
// a list picked by the date, the newest held, may be outdated on and after the day the next list is due; cards may
// be missing on a day after the printings are complete. /healthz is asked again every minute, and at once when an
// answer names another data version.

import {$, element, timeWords} from "./common.js";
import {t} from "./words.js";

const REFRESH_EVERY = 60_000; // ms

let health = null; // the last answer of GET /healthz, or null before one came
let refresher = null; // what brings the page up to new data (their version changed)

/** Ask GET /healthz again: whether its answer differs from the last. What the page shows stays as it was when the
 * service does not answer. */
export async function loadHealth() {
  try {
    const answer = await fetch(new URL("/healthz", location.href), {cache: "no-store"});
    const json = answer.ok ? await answer.json() : null;
    if (typeof json?.data_version !== "string" || JSON.stringify(json) === JSON.stringify(health)) return false;
    health = json;
    return true;
  } catch {
    return false; // unreachable now: the page keeps what it knew, and asks again in a minute
  }
}

export const dataVersion = () => health?.data_version ?? null;

/** Call `refresh` every minute and whenever an answer names a data version other than the one shown. */
export function keepCurrent(refresh) {
  refresher = refresh;
  setInterval(refresh, REFRESH_EVERY);
}

/** An answer of the service named data version `version` (its Deckcheck-Data-Version header). */
export function answeredWith(version) {
  if (version && health && version !== health.data_version) refresher?.();
}

/** The newest list of `format` the service holds, as /healthz gives it (with next_list_due), or null. */
const newestOf = (format) => health?.newest_lists?.find((list) => list.format === format) ?? null;

/** Whether on `date` a newer list than `list` (picked by the date) may be in force: it is the newest of `format`
 * held, it runs on with no end, and the day the next list was due has come. */
export function mayBeOutdated(list, date, format) {
  const newest = newestOf(format);
  return Boolean(list && newest?.next_list_due && list.id === newest.id && !list.effective_until &&
    date >= newest.next_list_due);
}

/** Whether cards printed by `date` may be missing: it is after the day the printings are complete until. */
const printingsMissing = (date) => Boolean(health?.printings_complete_until && date > health.printings_complete_until);

const listWords = (list) => (list.effective_from ? t("cur_list", list.name, list.effective_from) : list.name);

const MARK = "\u241f"; // where the list goes in the words around it

/** The words `key` around `list`, as parts of a line: [text, kept on one line]. The words may wrap; the list's name
 * and start are never split. */
function around(key, list) {
  if (!list) return [[t(key, "—"), false]];
  const [before, after] = t(key, MARK).split(MARK);
  return [[before, false], [listWords(list) + after, true]].filter(([text]) => text);
}

/** The list applied in words: the one chosen, else the one in force on the date, qualified when it may be
 * outdated. */
function appliedWords({date, format, chosen, inForce}) {
  if (!chosen && !inForce) return [[t("no_list_in_force"), false]];
  const key = chosen ? "chosen_named" : mayBeOutdated(inForce, date, format) ? "in_force_stale" : "in_force_named";
  return around(key, chosen ?? inForce);
}

/** Show `parts` ([text, kept on one line]) in the element `id`, a line breaking between them; nothing changes when
 * they read the same (a live region is not told the same words again). */
function setParts(id, parts) {
  if ($(id).textContent === parts.map(([text]) => text).join("")) return;
  $(id).replaceChildren(...parts.flatMap(([text, keep], i) =>
    [...(i ? [element("wbr")] : []), element("span", keep ? "keep" : "", text)]));
}

/** Show how current the data are for `event` ({date, format, chosen: the list chosen or null, inForce: the list in
 * force on the date or null}) in the header and in the settings. */
export function drawCurrency(event) {
  const {date, format, inForce} = event;
  const newest = newestOf(format);
  const version = health?.data_version ?? "—";
  setParts("event-summary", [[`${date} · `, true], [`${format.toUpperCase()} · `, true], ...appliedWords(event)]);
  setParts("data-summary", [...around("newest_named", newest), [" · ", false], [t("version_named", version), true]]);
  const warnings = [];
  if (!event.chosen && mayBeOutdated(inForce, date, format)) {
    warnings.push(["outdated", t("warn_outdated", date, inForce.name, newest.next_list_due)]);
  }
  if (printingsMissing(date)) warnings.push(["printings", t("warn_printings", health.printings_complete_until)]);
  const shown = $("currency-warnings");
  const now = warnings.map(([kind, words]) => Object.assign(element("p", "", words), {id: `warn-${kind}`}));
  // The live region's text changes only when the warnings do, so that screen readers say them once.
  if (shown.textContent !== now.map((p) => p.textContent).join("")) shown.replaceChildren(...now);
  drawSettings(event, newest, version);
}

/** The same, in the settings: each fact under its name. */
function drawSettings({date, format, inForce}, newest, version) {
  const stale = mayBeOutdated(inForce, date, format);
  const held = newest && (newest.next_list_due ? t("cur_newest", newest.name, newest.effective_from,
    newest.next_list_due) : listWords(newest));
  const facts = [
    ["in_force", inForce ? t(stale ? "cur_list_stale" : "cur_list", inForce.name, inForce.effective_from)
      : t("no_list_in_force"), stale],
    ["cur_newest_label", held ?? "—", false],
    ["cur_printings_label", health?.printings_complete_until ? t("cur_printings", health.printings_complete_until)
      : "—", printingsMissing(date)],
    ["cur_version_label", health ? t("cur_version", version, timeWords(health.loaded)) : "—", false],
  ];
  $("currency").replaceChildren(...facts.flatMap(([label, words, warn]) =>
    [element("dt", "", t(label)), element("dd", warn ? "warn" : "", words)]));
}
