// The deck registration sheet: the deck in #submission, with the player and the event's date and format, drawn by
// the service as a PDF (POST /v1/decks/convert, to: sheet) in the page's language, and opened in a new tab to print;
// a link to it stays beside the button, for when the browser opens none.

import {$, DeskError, post, refusalOf} from "./common.js";
import {lang, t} from "./words.js";
import {eventFields} from "./settings.js";
import {deckOnly, readDeck} from "./reading.js";

let sheet = null; // the blob: URL of the last sheet made, or null

export async function printSheet() {
  const deck = readDeck($("submission").value);
  const {date, format} = eventFields();
  const player = $("player").value.trim();
  // What is left out (the event's name, a player not given) is printed blank, to fill in by hand.
  const fields = {...(player ? {player_name: player} : {}), date, format, paper: "a4"};
  const body = {...deckOnly(deck.fields), to: "sheet", names: lang, sheet: fields};
  $("sheet-status").textContent = t("sheet_making");
  let answer;
  try {
    answer = await post("/v1/decks/convert", JSON.stringify(body), "application/json", lang, t);
  } catch (error) {
    throw refusalOf(error, t);
  } finally {
    $("sheet-status").textContent = "";
  }
  const pdf = await answer.blob();
  if (!pdf.type.startsWith("application/pdf")) throw new DeskError(t("bad_answer", answer.status));
  if (sheet) URL.revokeObjectURL(sheet);
  sheet = URL.createObjectURL(pdf);
  $("sheet-link").href = sheet;
  $("sheet-link").hidden = false;
  const opened = window.open(sheet, "_blank");
  $("sheet-status").textContent = t(opened ? "sheet_opened" : "sheet_blocked");
}
