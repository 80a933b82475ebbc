// Checks: a submitted deck, or a presented deck against its Deck Roster Sheet, sent to POST /v1/validate with the
// event's settings; the verdict shown (or the error, in words), recorded in the queue, and the focus given back.

import {$, DeskError} from "./common.js";
import {lang, t} from "./words.js";
import {eventFields} from "./settings.js";
import {deckOnly, readDeck, readFile, readQrPicture} from "./reading.js";
import {giveFocusBack, render, returnFocusTo, showError} from "./verdict.js";
import {record} from "./queue.js";

let busy = false;

/** The API's report on the request `body`; no answer, a refusal or an unreadable one as a DeskError. */
async function validate(body) {
  const url = new URL("/v1/validate", location.href);
  let answer;
  try {
    answer = await fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept-Language": lang},
      body: JSON.stringify(body),
    });
  } catch {
    throw new DeskError(t("unreachable", url.href));
  }
  const json = await answer.json().catch(() => null);
  if (answer.ok && json) return json;
  if (json?.detail) {
    // A problem+json refusal: its detail, then each field error, with its line where it has one.
    const errors = json.errors ?? [];
    const each = errors.map((e) => (e.line ? t("at_line", e.line, e.msg) : e.msg));
    const details = errors.some((e) => e.msg === json.detail) ? each : [json.detail, ...each]; // often one error
    throw new DeskError(t("refused", answer.status), details, errors.map((e) => e.line).filter(Boolean));
  }
  throw new DeskError(t("bad_answer", answer.status));
}

/** Check the deck in #scan or #submission. */
export async function checkSubmission(from) {
  const input = from === "scan" ? $("scan") : $("submission");
  await run(input, () => {
    const deck = readDeck(input.value);
    // The event's settings win over a JSON request's own date, list, language or protectors: the desk judges its
    // event.
    return {kind: "submission", body: {...deck.fields, ...eventFields()}, source: deck.source};
  });
}

export async function checkRoster() {
  await run($("roster-presented"), () => {
    const registered = readDeck($("roster-registered").value);
    const presented = readDeck($("roster-presented").value);
    const body = {
      ...presented.fields,
      ...eventFields(),
      roster: deckOnly(registered.fields),
      duel: Number($("roster-duel").value),
      phase: $("roster-phase").value,
    };
    return {kind: "roster", body, source: presented.source, rosterSource: registered.source};
  });
}

/** Make the request `prepare` describes, show the verdict (or the error), record it and give the focus back. */
async function run(input, prepare) {
  if (busy) return;
  busy = true;
  returnFocusTo(input);
  $("status").textContent = t("checking");
  let check;
  try {
    check = prepare();
    check.report = await validate(check.body);
    check.player = $("player").value.trim();
    check.time = new Date().toISOString();
    render(check);
    record(check);
  } catch (error) {
    const problem = error instanceof DeskError ? error : new DeskError(String(error));
    showError(problem.message, problem.details, {source: check?.source, lines: problem.lines});
  } finally {
    busy = false;
    $("status").textContent = "";
    giveFocusBack();
  }
}

/** Put the text of a QR code, from a picture or the camera, into #scan and check it. */
export async function checkScanned(text) {
  $("scan").value = text;
  await checkSubmission("scan");
}

/** Read the QR code in a picture into #scan and check it. */
export async function scanPicture(file) {
  await checkScanned(await readQrPicture(file));
}

/** A picture is read for its QR code; a list goes into `target`, and is checked if that is #submission. */
export async function openFile(file, target) {
  if (file.type.startsWith("image/")) return scanPicture(file);
  target.value = await readFile(file);
  if (target === $("submission")) await checkSubmission("submission");
}

/** Run `task`; an error it throws is shown in words and the focus goes back to `input`. */
export async function guard(task, input) {
  try {
    await task();
  } catch (error) {
    returnFocusTo(input);
    showError(error instanceof DeskError ? error.message : String(error));
    giveFocusBack();
  }
}
