// The queue of checks made, newest first, kept in this browser (the service keeps nothing), and its export as a
// CSV file for the event's records.

import {$, KEYS, element, localDateTime, timeWords, today} from "./common.js";
import {penaltyWords, t} from "./words.js";

const MAX_QUEUE = 1000; // rows kept; the oldest go first

const readQueue = () => JSON.parse(localStorage.getItem(KEYS.queue) || "[]");

export function record(check) {
  const {report} = check;
  const worst = report.violations.find((v) => v.penalty === report.penalty);
  const entry = {
    time: check.time,
    player: check.player,
    kind: check.kind,
    state: report.legal ? "legal" : "illegal",
    penalty: report.penalty,
    applies_to: worst?.penalty_applies_to ?? null,
    codes: [...new Set(report.violations.map((v) => v.code))],
  };
  localStorage.setItem(KEYS.queue, JSON.stringify([entry, ...readQueue()].slice(0, MAX_QUEUE)));
  renderQueue();
}

/** One row's cells, the same on the screen and in the CSV file but for the time: the screen gives the time of day
 * (and the date when it is not today's), the file the full local date and time with its offset from UTC. */
function queueCells(entry, time = timeWords) {
  const penalty = entry.penalty ? penaltyWords(entry.penalty, entry.applies_to) : "—";
  return [time(entry.time), entry.player, t(entry.state), penalty, entry.codes.join(" ")];
}

export function renderQueue() {
  const rows = readQueue().map((entry) => {
    const row = element("tr", entry.state);
    row.append(...queueCells(entry).map((cell) => element("td", "", cell)));
    return row;
  });
  $("queue").tBodies[0].replaceChildren(...rows);
}

/** A CSV cell: quoted where needed; a cell a spreadsheet would take for a formula (a typed player name such as
 * "=1+1") is kept as text by a leading apostrophe. */
function csvCell(value) {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function exportQueue() {
  const header = ["col_time", "col_player", "col_verdict", "col_penalty", "col_codes"].map((key) => t(key));
  const rows = [header, ...readQueue().map((entry) => queueCells(entry, localDateTime))];
  const csv = rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
  // UTF-8 with a byte order mark: without it, spreadsheet software in Japan reads the file as Shift_JIS.
  const file = new Blob(["\ufeff", csv], {type: "text/csv;charset=utf-8"});
  const link = Object.assign(element("a"), {href: URL.createObjectURL(file), download: `deckcheck-queue-${today()}.csv`});
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

export function clearQueue() {
  if (!confirm(t("queue_confirm"))) return;
  localStorage.removeItem(KEYS.queue);
  renderQueue();
}
