// A paper deck list as the service read it (POST /v1/decks/read): the picture with each line's box and a form's
// table cells drawn over it (picture.js), beside the deck grouped by section, each line as its count, card and
// section (paperline.js). A line the reader is unsure of is marked with the reason, in words, and its strip of the
// picture, and is corrected in place (count, card name, the names suggested, its section) and confirmed or removed;
// a line whose section no heading told is listed apart until staff choose one; a line staff move to another section
// is confirmed there. The deck goes to the check only once every such line is. A line and its box are highlighted
// together.

import {$, element} from "./common.js";
import {t} from "./words.js";
import {checkPaper} from "./checks.js";
import {drawBoxes, drawCells, showPicture} from "./picture.js";
import {disagreeing, showTotals} from "./totals.js";
import {MAX_COUNT, SECTIONS, UNKNOWN, action, doubtful, groupOf, guessed, lineItem, nameOf, toReview}
  from "./paperline.js";

// What the summary says of where the lines were read from, by the answer's source.
const SOURCES = {qr: "paper_from_qr", text: "paper_from_text", ocr: "paper_from_ocr"};

let read = null; // the answer shown, or null
let rows = []; // for each of its lines: {line, section (null: none told), count, name, confirmed, removed}
let picked = -1; // the line highlighted, or -1
let totalsChecked = false; // staff compared the totals printed that disagree with the sheet

const unresolved = () => rows.filter((row) => toReview(row) && !row.confirmed && !row.removed);

/** Show `answer`, over the picture at `imageUrl` (null for a PDF: the list alone). */
export function showRead(answer, imageUrl) {
  read = answer;
  // A line whose section no heading told is in none until staff choose it: never in the reader's guess unseen.
  // A line of no card, or of a card only guessed, starts with no name: staff give it one.
  rows = answer.lines.map((line) => ({line, count: line.count,
    name: line.passcode === null || guessed(line) ? "" : nameOf(line),
    section: line.reasons?.includes("section_unclear") ? null : line.section, confirmed: false, removed: false}));
  picked = -1;
  totalsChecked = false;
  showPicture(imageUrl);
  drawCells(answer);
  $("paper-review").hidden = false;
  drawRead();
  firstField().focus({preventScroll: true});
  $("paper-review").scrollIntoView({block: "start"});
}

/** Forget the list read. */
export function clearRead() {
  read = null;
  rows = [];
  $("paper-review").hidden = true;
  showPicture(null);
}

/** Draw the list read again, in the language now chosen (what staff typed stays). */
export function redrawRead() {
  if (read) drawRead();
}

function drawRead() {
  const review = rows.filter((row) => doubtful(row.line)).length; // as read: what is left is said under the list
  const said = [t(SOURCES[read.source] ?? "paper_from_ocr")];
  if (read.pages_in_file > read.pages.length) said.push(t("paper_pages_read", read.pages_in_file, read.pages.length));
  said.push(review ? t("paper_to_review", review) : t("paper_all_read"));
  $("paper-summary").textContent = said.join(" ");
  // The lines of no section first, to choose theirs; then each section's.
  $("paper-sections").replaceChildren(...[UNKNOWN, ...SECTIONS].filter((s) => rows.some((row) => groupOf(row) === s))
    .map((section) => {
      const box = element("section", "paper-section");
      box.dataset.section = section;
      const items = rows.map((row, i) => (groupOf(row) === section ? lineItem(read, row, i) : null)).filter(Boolean);
      const list = element("ol");
      list.replaceChildren(...items);
      box.append(element("h4"), list);
      if (section !== UNKNOWN) box.append(action("add", t("paper_add_line"), {section}));
      return box;
    }));
  $("paper-sections").append(...ignoredText());
  drawBoxes(read);
  update();
}

/** What the reader read but took for no card line (the sheet's headings and fields, or a line it could not make
 * out), folded under the deck: a card left out of the deck shows here. */
function ignoredText() {
  const ignored = read.ignored ?? [];
  if (!ignored.length) return [];
  const box = element("details", "paper-ignored");
  const list = element("ul");
  list.replaceChildren(...ignored.map((line) => element("li", "", line.text)));
  box.append(element("summary", "", t("paper_ignored", ignored.length)), list);
  return [box];
}

const itemOf = (i) => $("paper-sections").querySelector(`li[data-index="${i}"]`);
/** Where staff go on: the first line left to review as the list shows it (its section where it has none yet, else
 * its count), or the button that checks the deck. */
function firstField() {
  const item = $("paper-sections").querySelector('li.paper-line[data-state="review"]');
  return item?.querySelector('select:has(option[value=""]:checked)') ?? item?.querySelector("input") ?? $("paper-check");
}

/** Mark each line and box as it stands, total each section, and let the deck be checked only when no line is left
 * to review. */
function update() {
  rows.forEach((row, i) => {
    const state = !toReview(row) ? "" : row.removed ? "removed" : row.confirmed ? "confirmed" : "review";
    for (const drawn of [itemOf(i), $("paper-boxes").querySelector(`[data-index="${i}"]`)]) {
      if (!drawn) continue;
      drawn.dataset.state = state;
      drawn.classList.toggle("picked", i === picked);
    }
    const badge = itemOf(i)?.querySelector(".paper-badge");
    if (badge) badge.textContent = state ? t(`paper_${state === "review" ? "needs_review" : state}`) : "";
  });
  for (const box of $("paper-sections").querySelectorAll(".paper-section")) {
    const {section} = box.dataset;
    const cards = rows.filter((row) => groupOf(row) === section && !row.removed)
      .reduce((sum, row) => sum + (Number(row.count) || 0), 0);
    box.querySelector("h4").textContent = t("paper_section", t(`section_${section}`), cards);
  }
  const left = unresolved().length;
  const wrong = disagreeing(read, rows);
  showTotals($("paper-sections"), wrong, totalsChecked);
  const totals = wrong.length > 0 && !totalsChecked;
  $("paper-check").disabled = left > 0 || totals || rows.every((row) => row.removed);
  $("paper-left").textContent = left ? t("paper_left", left) : totals ? t("paper_totals_left") : "";
}

/** Highlight line `i` and its box, each brought into view. */
function pick(i) {
  picked = i;
  update();
  itemOf(i)?.scrollIntoView({block: "nearest"});
  $("paper-boxes").querySelector(`[data-index="${i}"]`)?.scrollIntoView({block: "nearest"});
}

/** Confirm line `i` as its fields give it; a count, name or section missing is said, and its field focused. */
function confirmRow(i) {
  const row = rows[i];
  const count = Number(row.count);
  const wrong = !Number.isInteger(count) || count < 1 || count > MAX_COUNT ? "count" : !row.name.trim() ? "name"
    : !row.section ? "section" : "";
  const item = itemOf(i);
  for (const field of item.querySelectorAll("[data-field]")) {
    field.setAttribute("aria-invalid", field.dataset.field === wrong);
  }
  item.querySelector(".paper-invalid").textContent =
    !wrong ? "" : t(wrong === "section" ? "paper_section_invalid" : "paper_line_invalid");
  if (wrong) {
    item.querySelector(`[data-field="${wrong}"]`).focus();
    return;
  }
  row.confirmed = true;
  redrawLine(i);
  firstField().focus();
}

/** Remove line `i` from the deck, or put it back (to review again). */
function toggleRemoved(i) {
  rows[i].removed = !rows[i].removed;
  rows[i].confirmed = false;
  redrawLine(i);
  itemOf(i).querySelector('[data-act="remove"]').focus();
}

/** Give a line's `field` (count or name) the `value` staff typed or chose: the line is to be confirmed again. */
function edit(item, field, value) {
  const row = rows[Number(item.dataset.index)];
  Object.assign(row, {[field]: value, confirmed: false});
  item.querySelector(".paper-count").textContent = row.count || "?";
  item.querySelector(".paper-card").textContent = row.name || t("paper_unknown_card");
  update();
}

function redrawLine(i) {
  itemOf(i).replaceWith(lineItem(read, rows[i], i));
  update();
}

/** The deck as confirmed: each line kept, by its card where the reader or a suggestion names one, else by the name
 * typed; the text shown for it on the verdict, section by section; and the line of that text each entry is (by
 * section, as the request lists them), so that the verdict marks the lines a violation names by its entries. */
function confirmedDeck() {
  const fields = {main: [], extra: [], side: []};
  const lines = {main: [], extra: [], side: []};
  const text = [];
  for (const section of SECTIONS) {
    const kept = rows.filter((row) => row.section === section && !row.removed);
    if (!kept.length) continue;
    text.push(t(`section_${section}`));
    for (const row of kept) {
      const {line, count, name} = row;
      const typed = name.trim();
      const named = (card) => card.passcode !== null && [card.name_ja, card.name_en].includes(typed);
      const card = toReview(row) ? [line, ...(line.suggestions ?? [])].find(named) : line;
      const copies = Number(count);
      fields[section].push(card ? {passcode: card.passcode, count: copies} : {name: typed, count: copies});
      text.push(`${copies} ${card ? nameOf(card) : typed}`);
      lines[section].push(text.length);
    }
  }
  return {fields, source: text.join("\n"), lines};
}

/** Move line `i` to `section` (to be confirmed there; a line read for sure, moved back, is as read), the lists drawn
 * anew. */
function moveLine(i, section) {
  Object.assign(rows[i], {section, confirmed: false});
  drawRead();
  itemOf(i).querySelector('select[data-field="section"]').focus();
}

/** A line the reader lost, added by staff to `section`: blank, to fill in and confirm like any line to review. */
function addLine(section) {
  const line = {page: 1, box: null, text: "", confidence: 0, section, count: null, passcode: null, name_ja: null,
    name_en: null, needs_review: true, reasons: [], message: t("paper_added"), suggestions: []};
  rows.push({line, section, count: null, name: "", confirmed: false, removed: false});
  drawRead();
  itemOf(rows.length - 1).querySelector("input").focus();
}

$("paper-sections").addEventListener("change", (event) => {
  if (event.target.dataset.field === "section") {
    moveLine(Number(event.target.closest("li.paper-line").dataset.index), event.target.value);
  } else if (event.target.dataset.act === "totals") {
    totalsChecked = event.target.checked;
    update();
  }
});
$("paper-sections").addEventListener("click", (event) => {
  const added = event.target.closest('button[data-act="add"]');
  if (added) {
    addLine(added.dataset.section);
    return;
  }
  const item = event.target.closest("li.paper-line");
  if (!item) return;
  const i = Number(item.dataset.index);
  const {act, name} = event.target.closest("button")?.dataset ?? {};
  if (act === "confirm") confirmRow(i);
  else if (act === "remove") toggleRemoved(i);
  else if (act === "suggest") {
    item.querySelector('input[data-field="name"]').value = name;
    edit(item, "name", name);
  } else if (!event.target.closest("label, select, .actions, .paper-suggestions")) pick(i);
});
$("paper-sections").addEventListener("input", (event) => {
  const {field} = event.target.dataset;
  if (field === "count" || field === "name") edit(event.target.closest("li.paper-line"), field, event.target.value);
});
$("paper-boxes").addEventListener("click", (event) => {
  const drawn = event.target.closest(".paper-box");
  if (!drawn) return;
  pick(Number(drawn.dataset.index));
  itemOf(drawn.dataset.index).querySelector(".paper-pick").focus({preventScroll: true});
});
$("paper-check").addEventListener("click", () => {
  if (!unresolved().length) checkPaper(confirmedDeck(), $("paper-use").value === "registered");
});
