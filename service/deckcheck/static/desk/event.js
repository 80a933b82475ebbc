// The desk in event mode: connected to an event of the service with a staff token (from the organiser's link
// /desk#event=…&token=…, or typed), the desk registers each checked deck at the event (PUT …/players/{player}), lists
// every desk's registrations (polled every few seconds), and a judge's or organiser's token makes deck checks
// (PR 3.B) against the registered deck (deckcheck.js holds the judge's panel). The event's day, format and list
// come from the event and cannot be changed here.
//
// A registration the service cannot take now (no network, 503) is kept in this browser's outbox and sent again
// until it gets an answer: never lost. It is sent with the precondition it was made under (If-None-Match: * for a
// new player, If-Match for one registered again), so an answer lost on the way cannot register it twice: sent again,
// it gets 412, and a current registration that is this one (same deck, name and token label) is taken as its own.

import {$, DeskError, KEYS, element, timeWords} from "./common.js";
import {lang, t} from "./words.js";

const POLL_MS = 3000; // how often the list of players is read again: every desk's registrations within seconds
const RETRY_MS = 5000; // how often the outbox is sent again while it holds registrations
const PAGE = 200; // players listed at once; the search finds the rest
const PLAYER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const EVENT = /^ev-[0-9a-f]{10}$/;

let held = JSON.parse(localStorage.getItem(KEYS.event) || "null"); // {event, token}
let info = null; // GET /v1/events/{event}: the event and who the token is
let replacing = null; // {player, version}: the registration the next check of that player replaces
let sending = false;
let notice = ""; // what the last sending of the outbox has to say: a registration another desk made first
let onPick = () => {};
let onConnected = () => {};

export const connected = () => info !== null;
export const role = () => info?.you.role ?? null;
export const mayRegister = () => ["desk", "organiser"].includes(role());
export const mayCheck = () => ["judge", "organiser"].includes(role());
export const eventInfo = () => info;

/** A request to the event's `path` (under /v1/events/{event}) with the token; a DeskError when nothing answers. */
export async function call(method, path, {body, headers = {}, signal} = {}) {
  const url = new URL(`/v1/events/${held.event}${path}`, location.href);
  try {
    return await fetch(url, {
      method,
      signal,
      headers: {Authorization: `Bearer ${held.token}`, "Accept-Language": lang, ...headers,
        ...(body ? {"Content-Type": "application/json"} : {})},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new DeskError(t("unreachable", url.href));
  }
}

/** A refusal's words: its detail and each field error. */
export async function refusal(answer) {
  const json = await answer.json().catch(() => null);
  const details = [json?.detail, ...(json?.errors ?? []).map((e) => e.msg)].filter(Boolean);
  return new DeskError(t("refused", answer.status), [...new Set(details)]);
}

/** Connect with the token of the organiser's link, if the page was opened with one (the link leaves the address
 * bar: the token is not bookmarked or shown), else with the one this browser kept; `picked` is told of a player
 * chosen in the list. */
export async function startEvent(picked, connectedNow) {
  onPick = picked;
  onConnected = connectedNow;
  addEventListener("hashchange", () => linked() && connect(held)); // a link opened on the desk already open
  $("event-connect").addEventListener("click", () => connect({event: $("event-id").value.trim(),
    token: $("event-token").value.trim()}));
  $("event-leave").addEventListener("click", leave);
  $("players-q").addEventListener("input", () => listPlayers());
  $("players-status").addEventListener("change", () => listPlayers());
  addEventListener("online", flush);
  setInterval(() => document.visibilityState === "visible" && connected() && listPlayers(), POLL_MS);
  setInterval(flush, RETRY_MS);
  linked();
  if (held) await connect(held);
  else drawEvent();
}

/** Take the event and token of the organiser's link, if the address holds one, and take them out of the address
 * bar (the token is not bookmarked or shown); whether it held one. */
function linked() {
  const given = new URLSearchParams(location.hash.slice(1));
  if (!given.get("event") || !given.get("token")) return false;
  held = {event: given.get("event"), token: given.get("token")};
  history.replaceState(null, "", location.pathname + location.search);
  return true;
}

async function connect(given) {
  $("event-status").textContent = "";
  if (!EVENT.test(given.event) || !given.token) {
    $("event-status").textContent = t("event_give");
    return;
  }
  held = given;
  try {
    const answer = await call("GET", "");
    if (!answer.ok) throw await refusal(answer);
    info = await answer.json();
    localStorage.setItem(KEYS.event, JSON.stringify(held));
  } catch (error) {
    info = null;
    $("event-status").textContent = [t("event_failed"), error.message, ...(error.details ?? [])].join(" ");
    $("settings").open = true; // where the event is connected to, and why it was not
  }
  drawEvent();
  if (info) {
    await Promise.all([listPlayers(), onConnected()]);
    flush();
  }
}

function leave() {
  held = info = null;
  localStorage.removeItem(KEYS.event);
  drawEvent();
}

/** Show the event, who the token is, and the parts of the page its role uses; the settings follow the event. */
export function drawEvent() {
  const on = connected();
  document.body.dataset.role = on ? role() : "";
  $("event").hidden = !on;
  $("event-form").hidden = on;
  $("players").hidden = !on;
  $("player-name-box").hidden = !(on && mayRegister());
  for (const id of ["event-date", "event-format", "event-banlist"]) $(id).disabled = on;
  if (!on) return;
  $("event-date").value = info.date;
  $("event-format").value = info.format;
  $("event-name").textContent = t("event_named", info.name, info.date, info.format.toUpperCase());
  $("event-you").textContent = t("event_you", t(`role_${role()}`), info.you.label);
  drawOutbox();
}

/** The event's settings as the checks send them, or null when not connected. */
export const eventSettings = () =>
  info && {date: info.date, format: info.format, banlist: info.banlist ?? undefined};

// The list of players.

let listing = 0; // the number of the latest read, so that an earlier answer arriving late is dropped

export async function listPlayers() {
  if (!connected()) return;
  const query = new URLSearchParams({limit: String(PAGE)});
  if ($("players-q").value.trim()) query.set("q", $("players-q").value.trim());
  if ($("players-status").value) query.set("status", $("players-status").value);
  const mine = ++listing;
  try {
    const answer = await call("GET", `/players?${query}`);
    if (!answer.ok || mine !== listing) return;
    const page = await answer.json();
    $("players-count").textContent = t("players_count", page.total, page.players.length);
    $("players-table").tBodies[0].replaceChildren(...page.players.map(playerRow));
  } catch {
    // unreachable: the list stays as it was, and the outbox says what waits
  }
}

function playerRow(player) {
  const row = element("tr", player.status);
  const cells = [player.player, player.name, t(`status_${player.status}`), String(player.version),
    timeWords(player.updated_at)];
  row.append(...cells.map((cell) => element("td", "", cell)));
  if (mayCheck()) {
    row.tabIndex = 0;
    row.addEventListener("click", () => onPick(player.player));
    row.addEventListener("keydown", (event) => event.key === "Enter" && onPick(player.player));
  }
  return row;
}

// Registering.

const readOutbox = () => JSON.parse(localStorage.getItem(KEYS.outbox) || "[]");
const keepOutbox = (items) => localStorage.setItem(KEYS.outbox, JSON.stringify(items));
const unkeep = (id) => keepOutbox(readOutbox().filter((item) => item.id !== id));

function drawOutbox() {
  const waiting = readOutbox().filter((item) => item.event === held?.event).length;
  $("event-outbox").textContent = [waiting ? t("event_outbox", waiting) : "", notice].filter(Boolean).join(" ");
}

/** Register the deck of a check (its request `body`) for the player in #player: the event's answer, whose
 * `verdict` is /v1/validate's. A registration the service cannot take now is kept and sent later (a DeskError says
 * so); one another desk made first is shown with both decks. */
export async function register(check, deck, signal) {
  const player = check.player;
  const name = $("player-name").value.trim();
  if (!player) throw new DeskError(t("event_number_needed"));
  if (!PLAYER.test(player)) throw new DeskError(t("event_player_id", player));
  if (!name) throw new DeskError(t("event_name_needed"));
  const version = replacing?.player === player ? replacing.version : 0;
  replacing = null;
  const item = {id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, event: held.event, player, name,
    deck, how: check.how ?? "typed", label: info.you.label, version};
  keepOutbox([...readOutbox(), item]); // kept before it is sent: a page closed meanwhile loses nothing
  const outcome = await send(item, signal);
  if (outcome.kept) throw new DeskError(t("event_kept"), [t("event_kept_detail")]);
  return outcome.answer;
}

/** Send one registration of the outbox: {answer} when the event has it, {kept} when it must wait; a DeskError for
 * a refusal (it leaves the outbox: sending it again would be refused again). */
async function send(item, signal) {
  let answer;
  const precondition = item.version ? {"If-Match": `"v${item.version}"`} : {"If-None-Match": "*"};
  const body = {name: item.name, deck: item.deck, source: item.how ?? "typed"};
  try {
    answer = await call("PUT", `/players/${encodeURIComponent(item.player)}`, {body, headers: precondition, signal});
  } catch (error) {
    if (signal?.aborted) unkeep(item.id);
    if (signal?.aborted || !(error instanceof DeskError)) throw error;
    drawOutbox();
    return {kept: true};
  }
  if (answer.status === 503 || answer.status === 502 || answer.status === 504) return {kept: true};
  unkeep(item.id);
  drawOutbox();
  if (answer.ok) {
    listPlayers();
    return {answer: await answer.json()};
  }
  if (answer.status !== 412) throw await refusal(answer);
  const current = (await answer.json().catch(() => null))?.current;
  if (current && isThis(current, item)) return {answer: current}; // its first answer was lost on the way
  throw taken(item, current);
}

/** Whether a registration the event holds is `item`, sent before and answered where the desk did not hear it. */
function isThis(current, item) {
  return current.name === item.name && current.registered_by === item.label && same(current.deck, item.deck);
}

const canonical = (value) =>
  Array.isArray(value) ? value.map(canonical)
    : value && typeof value === "object" ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]))
      : value;
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The registration another desk made first: both decks shown (this one as checked, the event's as registered),
 * and the next check of the player replaces it. */
function taken(item, current) {
  if (!current) return new DeskError(t("refused", 412));
  replacing = {player: item.player, version: current.version};
  const error = new DeskError(t("event_taken", item.player, current.registered_by, current.version),
    [t("event_taken_again")]);
  error.registered = deckText(current.deck);
  error.conflict = current.registered_by;
  return error;
}

/** A registered deck as staff read it: its link or text, or its JSON. */
export const deckText = (deck) => deck.ydke ?? deck.ydk ?? deck.text ?? JSON.stringify(deck, null, 1);

/** Send what the outbox holds, oldest first, one at a time; stop at the first that must wait again. */
async function flush() {
  if (sending || !connected()) return;
  sending = true;
  try {
    for (const item of readOutbox()) {
      if (item.event !== held.event) continue; // another event's, sent when the desk is connected to it again
      try {
        if ((await send(item)).kept) break;
      } catch (error) {
        notice = error.conflict ? t("event_conflict", item.player, error.conflict) : error.message;
      }
    }
  } finally {
    sending = false;
    drawOutbox();
  }
}
