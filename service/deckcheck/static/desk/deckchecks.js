// The judge's deck check at an event (PR 3.B), on the desk in event mode with a judge's or organiser's token: a
// player chosen in the list of players, the deck they registered, and the deck they present (typed or pasted, or its
// QR code photographed) checked against it as its Deck Roster Sheet (TR 2.B) by POST …/players/{player}/deck-checks.
// The event records the check with the round and the judge's token label; the verdict is shown as any other, each
// difference a roster_mismatch with its penalty and the duel it costs.

import {$, DeskError, timeWords} from "./common.js";
import {t} from "./words.js";
import {deckOnly, readDeck, readQrPicture} from "./reading.js";
import {render, returnFocusTo, showChecking, showError} from "./verdict.js";
import {call, deckText, refusal} from "./event.js";

let chosen = null; // the registration of the player chosen: GET …/players/{player}

/** Show the registration of `player`, chosen in the list, for a deck check. */
export async function pickPlayer(player) {
  try {
    const answer = await call("GET", `/players/${encodeURIComponent(player)}`);
    if (!answer.ok) throw await refusal(answer);
    chosen = await answer.json();
  } catch (error) {
    chosen = null;
    showError(error.message, error.details ?? []);
    return;
  }
  drawChosen();
  $("dc-presented").focus();
  $("deck-check").scrollIntoView({block: "start"});
}

/** The chosen player and their registered deck, in the page's language. */
export function drawChosen() {
  $("dc-player").textContent = chosen ? `${chosen.player} ${chosen.name}` : t("dc_pick");
  $("dc-meta").textContent = chosen
    ? t("dc_registered", chosen.version, chosen.registered_by, timeWords(chosen.registered_at)) : "";
  $("dc-registered").textContent = chosen ? deckText(chosen.deck) : "";
  $("dc-check").disabled = !chosen;
}

/** Check the deck in #dc-presented against the chosen player's registration, and show the verdict. */
export async function checkDeck() {
  if (!chosen) return;
  returnFocusTo($("dc-presented"));
  const phase = $("dc-phase").value;
  const check = {kind: "roster", player: `${chosen.player} ${chosen.name}`, body: {duel: 1, phase},
    rosterSource: deckText(chosen.deck)};
  try {
    const presented = readDeck($("dc-presented").value);
    check.source = presented.source;
    showChecking(check);
    const round = Number($("dc-round").value) || 1;
    const body = {deck: deckOnly(presented.fields), round, phase};
    const answer = await call("POST", `/players/${encodeURIComponent(chosen.player)}/deck-checks`, {body});
    if (!answer.ok) throw await refusal(answer);
    const made = await answer.json();
    // The event judged the deck against the registration current when it was sent: another desk may have registered
    // the player again since they were picked. The verdict shows that one, whose lines it marks.
    const registered = await judgedAgainst(made.registration_version);
    render({...check, rosterSource: registered ? deckText(registered.deck) : undefined, report: made.verdict,
      time: made.checked_at});
  } catch (error) {
    const problem = error instanceof DeskError ? error : new DeskError(t("page_error"), [String(error)]);
    showError(problem.message, problem.details, {source: check.source, rosterSource: check.rosterSource,
      player: check.player});
  }
}

/** The chosen player's registration at `version`, read and shown as the chosen one when it is another (the verdict
 * covers the page meanwhile: no other player can be picked); null when it cannot be read, so that no other deck
 * stands for it. */
async function judgedAgainst(version) {
  if (chosen.version === version) return chosen;
  try {
    const answer = await call("GET", `/players/${encodeURIComponent(chosen.player)}?version=${version}`);
    if (!answer.ok) return null;
    chosen = await answer.json();
    drawChosen();
    return chosen;
  } catch {
    return null;
  }
}

/** Read the QR code of a photo into #dc-presented. */
export async function photographedCode(file) {
  $("dc-presented").value = await readQrPicture(file);
}
