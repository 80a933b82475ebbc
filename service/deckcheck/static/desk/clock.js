// The round clock: 40 minutes a match (TR 2.C), an interval of at most 3 minutes between duels, and, when time is up,
// the time-limit ruling of POST /v1/matches/time-limit, step by step (判定1–3). The clock's deadline is kept in this
// browser, so a reload does not lose the round.

import {$, KEYS, element, postJson} from "./common.js";
import {lang, t} from "./words.js";

const MATCH_MS = 40 * 60 * 1000;
const INTERVAL_MS = 3 * 60 * 1000;
// The time-limit form's life-point fields: the request part and key each pair fills.
const PAIRS = [["duel", "life_points", "tl-lp"], ["duel", "sudden_death", "tl-sd"],
  ["extra_duel", "life_points", "tl-xlp"], ["extra_duel", "sudden_death", "tl-xsd"]];

/** The clock as this browser kept it (what is left, or the deadline while it runs, and the interval's deadline),
 * or a fresh one where nothing readable was kept. */
function kept() {
  try {
    const read = JSON.parse(localStorage.getItem(KEYS.clock) || "null");
    if (Number.isFinite(read?.left) && (read.deadline === null || Number.isFinite(read.deadline))) return read;
  } catch {
    // an unreadable value: start afresh
  }
  return {left: MATCH_MS, deadline: null, interval: null};
}

let clock = kept();

const minutes = (ms) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
};
const left = () => (clock.deadline === null ? clock.left : clock.deadline - Date.now());
const keep = () => localStorage.setItem(KEYS.clock, JSON.stringify(clock));
const interval = () => (Number.isFinite(clock.interval) ? clock.interval : null); // its deadline, while one runs

/** Draw the clock, the interval and, once time is up, the ruling form. */
export function drawClock() {
  const remaining = left();
  $("clock").textContent = minutes(remaining);
  $("clock-start").textContent = t(clock.deadline === null ? "clock_start" : "clock_pause");
  const over = remaining <= 0;
  $("clock").classList.toggle("over", over);
  $("clock-over").hidden = !over;
  if (over) $("time-limit").hidden = false;
  const rest = interval() === null ? null : interval() - Date.now();
  $("interval").hidden = rest === null;
  if (rest !== null) $("interval").textContent = rest > 0 ? t("interval_left", minutes(rest)) : t("interval_over");
}

function startOrPause() {
  const running = clock.deadline === null ? {left: 0, deadline: Date.now() + clock.left} : {left: left(), deadline: null};
  clock = {...running, interval: interval()};
  keep();
  drawClock();
}

function reset() {
  clock = {left: MATCH_MS, deadline: null, interval: null};
  keep();
  $("time-limit").hidden = true;
  drawClock();
}

/** The number typed in a field, or null when it is empty. */
const number = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));

/** The request the form gives: the duels won, whether a duel was in progress, and each pair of life points given;
 * an Error for a pair given for one player only. */
function timeLimitBody() {
  const body = {wins: [Number($("tl-wins-1").value), Number($("tl-wins-2").value)], in_duel: $("tl-in-duel").checked,
    duel: {}, extra_duel: {}};
  if (body.in_duel && $("tl-turn-winner").value) body.duel.turn_winner = Number($("tl-turn-winner").value);
  for (const [part, key, id] of PAIRS) {
    const pair = [number(`${id}-1`), number(`${id}-2`)];
    if ((pair[0] === null) !== (pair[1] === null)) throw new Error(t("tl_pair"));
    if (pair[0] !== null) body[part][key] = pair;
  }
  if (!body.in_duel) delete body.duel;
  return body;
}

/** Ask the service for the ruling and show its steps, the next step and the winner. */
async function rule() {
  const steps = $("tl-steps");
  steps.replaceChildren();
  $("tl-next").textContent = "";
  try {
    const body = timeLimitBody();
    const ruling = await postJson("/v1/matches/time-limit", body, lang, t);
    for (const step of ruling.steps) steps.append(element("li", `step ${step.code}`, step.text));
    $("tl-next").textContent = ruling.decided ? t("tl_decided", ruling.match_winner)
      : t("tl_next", ruling.next_step.text);
    $("tl-next").dataset.step = ruling.decided ? "decided" : ruling.next_step.code;
  } catch (error) {
    $("tl-next").textContent = error.message;
    $("tl-next").dataset.step = "error";
  }
}

/** Wire the clock's buttons and the ruling form, and keep the clock drawn. */
export function startClock() {
  $("clock-start").addEventListener("click", startOrPause);
  $("clock-reset").addEventListener("click", reset);
  $("clock-interval").addEventListener("click", () => {
    clock.interval = Date.now() + INTERVAL_MS;
    keep();
    drawClock();
  });
  $("clock-call").addEventListener("click", () => {
    $("time-limit").hidden = false;
    $("tl-wins-1").focus();
  });
  $("tl-rule").addEventListener("click", rule);
  setInterval(drawClock, 250);
  drawClock();
}
