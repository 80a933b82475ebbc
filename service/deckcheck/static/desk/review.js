// A paper deck list as the service read it (POST /v1/decks/read): the picture with each line's box drawn over it
// (picture.js), beside the deck by section, each line as its count and card. A line the reader is unsure of is
// marked with the reason, in words, and its strip of the picture, and is corrected in place (count, card name, the
// names suggested) and confirmed or removed; the deck goes to the check only once every such line is. A line and its
// box are highlighted together.

import {$, element} from "./common.js";
import {lang, t} from "./words.js";
import {checkPaper} from "./checks.js";
import {drawBoxes, lineStrip, showPicture} from "./picture.js";
import {disagreeing, showTotals} from "./totals.js";

const SECTIONS = ["main", "extra", "side"];
const MAX_COUNT = 99; // copies one line may give (the service's limit)

let read = null; // the answer shown, or null
let rows = []; // for each of its lines: {line, count, name, confirmed, removed}
let picked = -1; // the line highlighted, or -1
let totalsChecked = false; // staff compared the totals printed that disagree with the sheet

/** Whether the reader is unsure of a line: staff review it, and nothing of it is checked until they confirm it. */
const doubtful = (line) => line.needs_review || line.passcode === null || line.count === null;
const unresolved = () => rows.filter((row) => doubtful(row.line) && !row.confirmed && !row.removed);
/** A card's name in the page's language, else in the other. */
const nameOf = (card) => (lang === "ja" ? card.name_ja ?? card.name_en : card.name_en ?? card.name_ja) ?? "";

/** Show `answer`, over the picture at `imageUrl` (null for a PDF: the list alone). */
export function showRead(answer, imageUrl) {
  read = answer;
  rows = answer.lines.map((line) => ({line, section: line.section, count: line.count,
    name: line.passcode === null ? "" : nameOf(line), confirmed: false, removed: false}));
  picked = -1;
  totalsChecked = false;
  showPicture(imageUrl);
  $("paper-review").hidden = false;
  drawRead();
  (firstOpen()?.querySelector("input") ?? $("paper-check")).focus({preventScroll: true});
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
  const said = [t(read.source === "qr" ? "paper_from_qr" : "paper_from_ocr")];
  if (read.pages_in_file > read.pages.length) said.push(t("paper_pages_read", read.pages_in_file, read.pages.length));
  said.push(review ? t("paper_to_review", review) : t("paper_all_read"));
  $("paper-summary").textContent = said.join(" ");
  $("paper-sections").replaceChildren(...SECTIONS.filter((s) => rows.some((row) => row.section === s)).map(
    (section) => {
      const box = element("section", "paper-section");
      box.dataset.section = section;
      const items = rows.map((row, i) => (row.section === section ? lineItem(i) : null)).filter(Boolean);
      const list = element("ol");
      list.replaceChildren(...items);
      box.append(element("h4"), list, action("add", t("paper_add_line"), {section}));
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

/** One line of the list: its count and card, which highlights it; for a line to review, the reason and its fields. */
function lineItem(i) {
  const {line, count, name} = rows[i];
  const item = element("li", "paper-line");
  item.dataset.index = String(i);
  const pick = element("button", "paper-pick");
  pick.type = "button";
  pick.append(element("span", "paper-count", count ?? "?"), element("span", "paper-card",
    (doubtful(line) ? name : nameOf(line)) || t("paper_unknown_card")), element("span", "paper-badge"));
  item.append(pick);
  if (!doubtful(line)) return item;
  item.append(element("p", "paper-why", line.message ?? t("paper_needs_review")), ...lineStrip(read, line),
    element("p", "paper-text", t("paper_read_as", line.text)));
  const countField = Object.assign(element("input"), {type: "number", min: 1, max: MAX_COUNT, value: count ?? ""});
  countField.dataset.field = "count";
  const nameField = Object.assign(element("input"), {value: name, autocomplete: "off", spellcheck: false});
  nameField.dataset.field = "name";
  // Its section too: a line read under a heading whose count it passes may belong under one the reader lost.
  const sectionField = element("select");
  sectionField.dataset.field = "section";
  sectionField.append(...SECTIONS.map((s) => Object.assign(element("option", "", t(`section_${s}`)),
    {value: s, selected: s === rows[i].section})));
  const fields = element("div", "paper-fields");
  fields.append(labelled("paper_count", countField), labelled("paper_name", nameField),
    labelled("paper_line_section", sectionField));
  item.append(fields);
  const names = [...new Set((line.suggestions ?? []).map(nameOf).filter(Boolean))];
  if (names.length) {
    const offered = element("p", "paper-suggestions", t("paper_suggestions"));
    offered.append(...names.map((suggested) => action("suggest", suggested, {name: suggested})));
    item.append(offered);
  }
  const actions = element("div", "actions");
  actions.append(action("confirm", t("paper_confirm_line")),
    action("remove", t(rows[i].removed ? "paper_restore_line" : "paper_remove_line")));
  item.append(actions, element("p", "paper-invalid"));
  return item;
}

function labelled(key, field) {
  const label = element("label");
  label.append(element("span", "", t(key)), field);
  return label;
}

function action(act, words, data = {}) {
  const button = Object.assign(element("button", "", words), {type: "button"});
  Object.assign(button.dataset, {act, ...data});
  return button;
}

const itemOf = (i) => $("paper-sections").querySelector(`li[data-index="${i}"]`);
const firstOpen = () => itemOf(rows.indexOf(unresolved()[0]));

/** Mark each line and box as it stands, total each section, and let the deck be checked only when no line is left
 * to review. */
function update() {
  rows.forEach((row, i) => {
    const state = !doubtful(row.line) ? "" : row.removed ? "removed" : row.confirmed ? "confirmed" : "review";
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
    const cards = rows.filter((row) => row.section === section && !row.removed)
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

/** Confirm line `i` as its fields give it; a count or name missing is said, and its field focused. */
function confirmRow(i) {
  const row = rows[i];
  const count = Number(row.count);
  const wrong = !Number.isInteger(count) || count < 1 || count > MAX_COUNT ? "count" : !row.name.trim() ? "name" : "";
  const item = itemOf(i);
  for (const field of item.querySelectorAll("input")) field.setAttribute("aria-invalid", field.dataset.field === wrong);
  item.querySelector(".paper-invalid").textContent = wrong ? t("paper_line_invalid") : "";
  if (wrong) {
    item.querySelector(`input[data-field="${wrong}"]`).focus();
    return;
  }
  row.confirmed = true;
  redrawLine(i);
  (firstOpen()?.querySelector("input") ?? $("paper-check")).focus();
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
  itemOf(i).replaceWith(lineItem(i));
  update();
}

/** The deck as confirmed: each line kept, by its card where the reader or a suggestion names one, else by the name
 * typed; and the text shown for it on the verdict, section by section. */
function confirmedDeck() {
  const fields = {main: [], extra: [], side: []};
  const text = [];
  for (const section of SECTIONS) {
    const kept = rows.filter((row) => row.section === section && !row.removed);
    if (!kept.length) continue;
    text.push(t(`section_${section}`));
    for (const {line, count, name} of kept) {
      const typed = name.trim();
      const named = (card) => card.passcode !== null && [card.name_ja, card.name_en].includes(typed);
      const card = doubtful(line) ? [line, ...(line.suggestions ?? [])].find(named) : line;
      const copies = Number(count);
      fields[section].push(card ? {passcode: card.passcode, count: copies} : {name: typed, count: copies});
      text.push(`${copies} ${card ? nameOf(card) : typed}`);
    }
  }
  return {fields, source: text.join("\n")};
}

/** Move line `i` to `section` (to be confirmed again there), its section's list drawn anew. */
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
  } else if (!event.target.closest("label, .actions, .paper-suggestions")) pick(i);
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
