// Checks: a submitted deck, or a presented deck against its Deck Roster Sheet (either may be one read from paper),
// sent to POST /v1/validate with the event's settings; one at a time, everything a check sends (the player too)
// read when it starts; the verdict shown (or the error, in words) and recorded in the queue, with the deck as a
// ydke link.

import {$, DeskError, postJson} from "./common.js";
import {lang, t} from "./words.js";
import {eventFields} from "./settings.js";
import {DECK_FIELDS, deckOnly, fileKind, isDeckLink, readDeck, readFile, readQrPicture} from "./reading.js";
import {closeVerdict, render, returnFocusTo, showChecking, showError, showNotice, verdictOpen} from "./verdict.js";
import {attachDeck, record} from "./queue.js";
import {answeredWith} from "./currency.js";
import {connected, eventSettings, mayRegister, register} from "./event.js";

const MAX_CODE_WORDS = 80; // characters of a code that holds no deck shown to staff

let running = null; // the AbortController of the check in flight, or null
let refused = null; // a check asked for while another ran: its deck is kept in its field, and Enter runs it

/** Which list a field error of the request is about, by its loc: the registered list of a roster check
 * (["body", "roster", …]), the deck checked (["body", "text" | "ydk" | "ydke" | "main" …]) or neither (a setting). */
function listOf(loc) {
  if (loc?.[1] === "roster") return "registered";
  return DECK_FIELDS.includes(loc?.[1]) ? "deck" : null;
}

/** The API's report on the request `body`; no answer, a refusal or an unreadable one as a DeskError, with each
 * error's line routed to the list it is in. */
async function validate(body, signal) {
  const url = new URL("/v1/validate", location.href);
  let answer;
  try {
    answer = await fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept-Language": lang},
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new DeskError(t("unreachable", url.href));
  }
  answeredWith(answer.headers.get("Deckcheck-Data-Version")); // new data: the header says how current they are
  const json = await answer.json().catch(() => null);
  if (answer.ok && Array.isArray(json?.violations)) return json; // a report, not a page or a value a proxy sent
  if (json?.detail) {
    // A problem+json refusal: its detail, then each field error, with its line where it has one. With two lists
    // (a roster check), each error names the list it is in, and its line is marked on that list alone.
    const errors = json.errors ?? [];
    const each = errors.map((e) => {
      const words = e.line ? t("at_line", e.line, e.msg) : e.msg;
      const list = body.roster ? listOf(e.loc) : null;
      return list ? t("in_list", t(list === "registered" ? "in_registered" : "in_presented"), words) : words;
    });
    const details = errors.some((e) => e.msg === json.detail) ? each : [json.detail, ...each]; // often one error
    const lines = (list) => errors.filter((e) => e.line && listOf(e.loc) === list).map((e) => e.line);
    throw new DeskError(t("refused", answer.status), details, lines("deck"), lines("registered"));
  }
  throw new DeskError(t("bad_answer", answer.status));
}

/** Check the deck in #scan or #submission, of the `kind` of file it came from (see readDeck). From #scan only a
 * ydke link is a deck: a code that is anything else (a web address, a player's ID) is said to hold none, and nothing
 * is sent. */
export async function checkSubmission(from, kind = null) {
  const input = from === "scan" ? $("scan") : $("submission");
  await run(input, () => {
    if (from === "scan" && input.value.trim() && !isDeckLink(input.value)) throw noDeck(input.value);
    return submitted(readDeck(input.value, kind), from === "scan" ? "qr" : "typed");
  });
}

/** The check of a submitted deck (its request fields, the text shown for it and, for a deck read from paper, the line
 * of that text each entry is), and how the desk took it (`how`: typed, qr or paper, which an event keeps as the
 * registration's source). The event's settings win over a JSON request's own date, list, language or protectors:
 * the desk judges its event. */
const submitted = (deck, how) =>
  ({kind: "submission", body: {...deck.fields, ...settings()}, source: deck.source, entryLines: deck.lines, how});

/** The settings every check sends: the event's day, format and list when the desk is connected to one. */
const settings = () => ({...eventFields(), ...eventSettings()});

/** Compare the deck in #roster-presented with its Deck Roster Sheet: the list in #roster-registered, or `sheet`
 * (a deck's request fields and text) read from the paper itself. */
export async function checkRoster(sheet = null) {
  await run($("roster-presented"), () => {
    const registered = sheet ?? rosterDeck($("roster-registered"));
    const presented = rosterDeck($("roster-presented"));
    const body = {
      ...presented.fields,
      ...settings(),
      roster: deckOnly(registered.fields),
      duel: Number($("roster-duel").value),
      phase: $("roster-phase").value,
    };
    return {kind: "roster", body, source: presented.source, rosterSource: registered.source};
  });
}

/** The deck in a roster field, of the `kind` of file it came from (see readDeck); what is wrong with it is said
 * of its list. */
function rosterDeck(field, kind = null) {
  try {
    return readDeck(field.value, kind);
  } catch (error) {
    if (!(error instanceof DeskError)) throw error;
    const list = t(field === $("roster-registered") ? "in_registered" : "in_presented");
    throw new DeskError(t("in_list", list, error.message), error.details);
  }
}

/** Check a deck read from a paper list (its request fields and the text shown for it) as the submitted deck, or,
 * `asRegistered`, as the Deck Roster Sheet the deck in #roster-presented is compared with. */
export async function checkPaper(deck, asRegistered) {
  if (asRegistered) await checkRoster(deck);
  else await run($("scan"), () => submitted(deck, "paper"));
}

const noDeck = (code) => new DeskError(t("no_deck"), [t("code_holds", code.trim().slice(0, MAX_CODE_WORDS))]);

/** Make the request `prepare` describes, show the verdict (or the error) and record it. One check runs at a time:
 * one asked for meanwhile is refused in words, its deck left in its field for Enter to check once the verdict is
 * shown, so that a verdict never stands over a deck submitted after it. Whatever fails, from reading the deck to
 * drawing the verdict, is shown in words, and the page is ready for the next check. */
async function run(input, prepare) {
  if (running) {
    refused = () => run(input, prepare);
    showNotice(t("busy_kept"));
    return;
  }
  refused = null;
  returnFocusTo(input);
  // Everything the check stands on is read now, the player with the rest: a name typed while the request is in
  // flight is the next player's.
  const check = {player: $("player").value.trim()};
  const controller = new AbortController();
  running = controller;
  $("status").textContent = t("checking");
  try {
    Object.assign(check, prepare());
    showChecking(check);
    check.report = await verdictOf(check, controller.signal);
    check.time = new Date().toISOString();
    const entry = record(check);
    // The player stays for their next duels (a roster check before duel 2 is theirs too) until staff clear it.
    render(check);
    if (!check.body.ydke) keepDeckLink(entry, check.body);
  } catch (error) {
    if (controller.signal.aborted) closeVerdict(); // stopped by staff: nothing shown, nothing recorded
    else show(error, check);
  } finally {
    running = null;
    $("status").textContent = "";
  }
  if (refused && verdictOpen()) showNotice(t("kept_waiting"));
}

/** The verdict on a check: of the event, where the desk registers the deck (the event's answer holds /v1/validate's),
 * else of POST /v1/validate. */
async function verdictOf(check, signal) {
  if (check.kind !== "submission" || !connected() || !mayRegister()) return validate(check.body, signal);
  const registered = await register(check, deckOnly(check.body), signal);
  return registered.verdict;
}

/** Record the deck checked as a ydke link, written by POST /v1/decks/convert, in the queue's entry `entry`: the
 * records then hold the deck itself, whatever form it came in. A deck the service cannot write stays without. */
async function keepDeckLink(entry, body) {
  try {
    const written = await postJson("/v1/decks/convert", {...deckOnly(body), to: "ydke"}, lang, t);
    attachDeck(entry, written.content);
  } catch {
    // the verdict stands; the record keeps the verdict and its messages without the link
  }
}

/** Show what went wrong with `check`, with the lines it names in each list; an error the page did not foresee (a
 * fault of its own) in its words, over the error's own. */
function show(error, check) {
  const problem = error instanceof DeskError ? error : new DeskError(t("page_error"), [String(error)]);
  const {source, rosterSource, player} = check;
  // A player another desk registered first: both decks shown, the event's as the registered one.
  showError(problem.message, problem.details, {source, lines: problem.lines, rosterSource: problem.registered ??
    rosterSource, rosterLines: problem.rosterLines, player});
}

/** Run the check refused while another ran; false when there is none. */
export function checkRefused() {
  const again = refused;
  refused = null;
  again?.();
  return again !== null;
}

/** Close the verdict; while a check runs, stop it instead (nothing is shown or recorded of it). */
export function closeCheck() {
  refused = null;
  if (running) running.abort();
  else closeVerdict();
}

/** Check the text of a QR code from a picture or the camera, through #scan, if it is a deck. */
export async function checkScanned(code) {
  $("scan").value = "";
  if (!isDeckLink(code)) throw noDeck(code);
  $("scan").value = code.trim();
  await checkSubmission("scan");
}

/** Read the QR code in a picture into #scan and check it. #scan is emptied first: after a picture that cannot be
 * read, Enter must not check the link an earlier player's code left there. */
export async function scanPicture(file) {
  $("scan").value = "";
  returnFocusTo($("scan"));
  await checkScanned(await readQrPicture(file));
}

/** A picture is read for its QR code; a list goes into `target`, and is checked if that is #submission. A list
 * dropped on a roster field is checked only with the roster, but what is wrong with its shape is said at once. */
export async function openFile(file, target) {
  if (file.type.startsWith("image/")) return scanPicture(file);
  target.value = await readFile(file);
  if (target === $("submission")) await checkSubmission("submission", fileKind(file));
  else rosterDeck(target, fileKind(file));
}

/** Run `task`; an error it throws is shown in words, and closing it gives the focus to `input`. */
export async function guard(task, input) {
  try {
    await task();
  } catch (error) {
    returnFocusTo(input);
    show(error, {});
  }
}
