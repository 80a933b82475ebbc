// One line of a paper list read, as the review (review.js) shows it: its count and card, which highlights it and its
// box; the section it is in, which staff may change; and for a line to review, the reason in words, its strip of the
// picture, its fields (count, card name, section), the names suggested and the buttons that confirm or remove it.

import {element} from "./common.js";
import {lang, t} from "./words.js";
import {lineStrip} from "./picture.js";

export const SECTIONS = ["main", "extra", "side"];
export const UNKNOWN = "unknown"; // the group of the lines whose section no heading on the page told
export const MAX_COUNT = 99; // copies one line may give (the service's limit)

/** Whether the reader is unsure of a line: staff review it, and nothing of it is checked until they confirm it. */
export const doubtful = (line) => line.needs_review || line.passcode === null || line.count === null;
/** Whether staff review a row ({line, section, …}): the reader is unsure of its line, or staff moved a line read for
 * sure out of the section it was read in. */
export const toReview = (row) => doubtful(row.line) || row.section !== row.line.section;
/** A line whose card the reader could not tell: its card is only the best of the names it offers, never filled in
 * as if read, so that staff choose among them (or type the card) with the sheet in hand. */
export const guessed = (line) => line.passcode !== null && (line.reasons ?? []).includes("unknown_card");
/** The cards offered for a line to review: the card it was read as (a guessed line's best guess) first, then the
 * others; the name field starts with the first of them, or with none for a guess (review.js). */
const offeredFor = (line) => [...(line.passcode !== null ? [line] : []), ...(line.suggestions ?? [])];
/** The group a row is listed in: its section, or UNKNOWN until staff choose one. */
export const groupOf = (row) => row.section ?? UNKNOWN;
/** A card's name in the page's language, else in the other. */
export const nameOf = (card) => (lang === "ja" ? card.name_ja ?? card.name_en : card.name_en ?? card.name_ja) ?? "";

/** The item of `row`, the `i`th line of `read`: a line read for sure is its count, card and section (to move it);
 * a line to review also says why, shows its strip of the picture and its fields. */
export function lineItem(read, row, i) {
  const {line, count, name} = row;
  const review = toReview(row);
  const item = element("li", "paper-line");
  item.dataset.index = String(i);
  const pick = element("button", "paper-pick");
  pick.type = "button";
  pick.append(element("span", "paper-count", count ?? "?"), element("span", "paper-card",
    (review ? name : nameOf(line)) || t("paper_unknown_card")), element("span", "paper-badge"));
  const head = element("div", "paper-head");
  head.append(pick);
  item.append(head);
  if (!review) {
    const moved = sectionField(row);
    moved.classList.add("paper-move");
    moved.setAttribute("aria-label", t("paper_section_of", nameOf(line)));
    head.append(moved);
    return item;
  }
  const why = line.message ??
    (doubtful(line) ? t("paper_needs_review") : t("paper_moved", t(`section_${line.section}`)));
  item.append(element("p", "paper-why", why), ...lineStrip(read, line),
    element("p", "paper-text", t("paper_read_as", line.text)));
  const countField = Object.assign(element("input"), {type: "number", min: 1, max: MAX_COUNT, value: count ?? ""});
  countField.dataset.field = "count";
  const nameField = Object.assign(element("input"), {value: name, autocomplete: "off", spellcheck: false});
  nameField.dataset.field = "name";
  const fields = element("div", "paper-fields");
  // Its section too: a line read under a heading whose count it passes may belong under one the reader lost.
  fields.append(labelled("paper_count", countField), labelled("paper_name", nameField),
    labelled("paper_line_section", sectionField(row)));
  item.append(fields);
  const names = [...new Set(offeredFor(line).map(nameOf).filter(Boolean))];
  if (names.length) {
    const offered = element("p", "paper-suggestions", t("paper_suggestions"));
    offered.append(...names.map((suggested) => action("suggest", suggested, {name: suggested})));
    item.append(offered);
  }
  const actions = element("div", "actions");
  actions.append(action("confirm", t("paper_confirm_line")),
    action("remove", t(row.removed ? "paper_restore_line" : "paper_remove_line")));
  item.append(actions, element("p", "paper-invalid"));
  return item;
}

/** The choice of a row's section; a row of none yet offers none chosen, to be chosen before it is confirmed. */
function sectionField(row) {
  const field = element("select");
  field.dataset.field = "section";
  if (!row.section) {
    field.append(Object.assign(element("option", "", t("paper_choose_section")),
      {value: "", selected: true, disabled: true}));
  }
  field.append(...SECTIONS.map((s) => Object.assign(element("option", "", t(`section_${s}`)),
    {value: s, selected: s === row.section})));
  return field;
}

function labelled(key, field) {
  const label = element("label");
  label.append(element("span", "", t(key)), field);
  return label;
}

/** A button doing `act` (with `data`), in `words`. */
export function action(act, words, data = {}) {
  const button = Object.assign(element("button", "", words), {type: "button"});
  Object.assign(button.dataset, {act, ...data});
  return button;
}
