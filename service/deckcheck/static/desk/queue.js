// The queue of checks and assessments made, newest first, kept in this browser (the service keeps nothing), and its
// export as a CSV file for the event's records, named by the event day. Each entry keeps what the records need: the
// event (day, format, list), the player, the verdict and penalty, each violation's message and cards as the service
// worded them, and the deck as a ydke link. What was found is shown by the catalogue's summaries, never by codes.

import {$, KEYS, element, localDateTime, timeWords} from "./common.js";
import {summaryOf} from "./catalogue.js";
import {eventNames} from "./settings.js";
import {penaltyWords, t} from "./words.js";

const MAX_QUEUE = 1000; // rows kept; the oldest go first
const BY_DUEL = new Set(["current_duel", "next_duel"]); // what a penalty applies to that the page has words for

const readQueue = () => JSON.parse(localStorage.getItem(KEYS.queue) || "[]");
const keepQueue = (entries) => localStorage.setItem(KEYS.queue, JSON.stringify(entries.slice(0, MAX_QUEUE)));

function add(entry) {
  keepQueue([entry, ...readQueue()]);
  renderQueue();
}

/** Record a check made (its `report` from POST /v1/validate); the entry's id, for `attachDeck`. */
export function record(check) {
  const {report} = check;
  const worst = report.violations.find((v) => v.penalty === report.penalty);
  const id = `${check.time}-${Math.random().toString(36).slice(2)}`;
  add({
    id,
    time: check.time,
    player: check.player,
    kind: check.kind,
    state: report.legal ? "legal" : "illegal",
    penalty: report.penalty,
    applies_to: worst?.penalty_applies_to ?? null,
    codes: [...new Set(report.violations.map((v) => v.code))],
    event: {date: report.date, format: check.body.format.toUpperCase(), banlist: report.banlist?.name ?? "—"},
    violations: report.violations.map((v) => ({code: v.code, message: v.message,
      cards: v.cards.map((card) => `${card.name} ×${card.count}`)})),
    deck: check.body.ydke ?? null,
  });
  return id;
}

/** Record an assessment of POST /v1/penalties/assess, under the player and event of the moment. */
export function recordAssessment(found) {
  const time = new Date().toISOString();
  add({
    id: `${time}-${Math.random().toString(36).slice(2)}`,
    time,
    player: $("player").value.trim(),
    kind: "assessment",
    state: "assessed",
    penalty: found.penalty,
    applies_to: BY_DUEL.has(found.applies_to) ? found.applies_to : null,
    codes: [found.code],
    event: eventNames(),
    violations: [{code: found.code, message: `${found.summary} ${found.applies_to_text}`, cards: []}],
    deck: null,
  });
}

/** Give the entry `id` its deck as a ydke link, once the service has written it. */
export function attachDeck(id, link) {
  keepQueue(readQueue().map((entry) => (entry.id === id ? {...entry, deck: link} : entry)));
}

/** What was found, in words: the catalogue's summary of each code, else the service's messages (the catalogue not
 * loaded), never a code. */
function found(entry) {
  const summaries = entry.codes.map(summaryOf);
  if (summaries.every(Boolean)) return summaries.join(t("list_sep"));
  return (entry.violations ?? []).map((v) => v.message).join(" ");
}

const penaltyOf = (entry) => (entry.penalty ? penaltyWords(entry.penalty, entry.applies_to) : "—");

/** One row's cells on the screen: the time of day (and the date when it is not today's). */
const queueCells = (entry) => [timeWords(entry.time), entry.player, t(entry.state), penaltyOf(entry), found(entry)];

export function renderQueue() {
  const rows = readQueue().map((entry) => {
    const row = element("tr", entry.state);
    row.append(...queueCells(entry).map((cell) => element("td", "", cell)));
    return row;
  });
  $("queue").tBodies[0].replaceChildren(...rows);
}

const CSV_COLUMNS = ["col_time", "col_date", "col_format", "col_banlist", "col_player", "col_kind", "col_verdict",
  "col_penalty", "col_codes", "col_messages", "col_cards", "col_deck"];

/** One row of the CSV file: the full local date and time with its offset from UTC, the event, the player, the
 * verdict and penalty, what was found, each violation's message and its cards (one line each), and the deck. */
function csvCells(entry) {
  const event = entry.event ?? {};
  const violations = entry.violations ?? [];
  return [localDateTime(entry.time), event.date ?? "", event.format ?? "", event.banlist ?? "", entry.player,
    t(`kind_${entry.kind}`), t(entry.state), penaltyOf(entry), found(entry),
    violations.map((v) => v.message).join("\n"), violations.map((v) => v.cards.join(t("list_sep"))).join("\n"),
    entry.deck ?? ""];
}

/** A CSV cell: quoted where needed; a cell a spreadsheet would take for a formula (a typed player name such as
 * "=1+1") is kept as text by a leading apostrophe. */
function csvCell(value) {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function exportQueue() {
  const rows = [CSV_COLUMNS.map((key) => t(key)), ...readQueue().map(csvCells)];
  const csv = rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
  // UTF-8 with a byte order mark: without it, spreadsheet software in Japan reads the file as Shift_JIS.
  const file = new Blob(["\ufeff", csv], {type: "text/csv;charset=utf-8"});
  const name = `deckcheck-${eventNames().date}.csv`;
  const link = Object.assign(element("a"), {href: URL.createObjectURL(file), download: name});
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

export function clearQueue() {
  if (!confirm(t("queue_confirm"))) return;
  localStorage.removeItem(KEYS.queue);
  renderQueue();
}
