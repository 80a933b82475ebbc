// The verdict over the page after a check: its state, penalty and violations beside the list checked with the
// offending lines marked, or an error in words; and where the focus goes back to, so the next list can be read
// while the verdict is still shown.

import {$, element, timeWords} from "./common.js";
import {WORDS, lang, penaltyWords, t} from "./words.js";

let shown = null; // what the verdict shows, to draw it again in the other language
let returnTo = $("submission"); // the input the focus goes back to after a check

/** Make `input` the one the focus goes back to. */
export function returnFocusTo(input) {
  returnTo = input;
}

/** Focus the input the check came from, without scrolling the page under the verdict; a scanned link is selected,
 * so that the next scan replaces it. */
export function giveFocusBack() {
  returnTo.focus({preventScroll: true});
  if (returnTo === $("scan")) returnTo.select();
}

/** The lines of `text` as Python's str.splitlines() gives them, which is how the service numbers them. */
const splitLines = (text) => text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/).filter((line, i, all) =>
  i < all.length - 1 || line !== "");

function fillSource(pre, text, offending) {
  const marked = new Set(offending);
  pre.replaceChildren(
    ...splitLines(text ?? "").map((line, i) => {
      const span = element("span", marked.has(i + 1) ? "line offending" : "line", line);
      span.dataset.line = String(i + 1);
      return span;
    }),
  );
}

/** Bring the first offending line of each list into view, once both lists are filled and have their room. */
function showOffending() {
  for (const pre of [$("source"), $("roster-source")]) pre.querySelector(".offending")?.scrollIntoView({block: "center"});
}

function openVerdict(state) {
  const verdict = $("verdict");
  verdict.dataset.state = state;
  verdict.hidden = false;
  verdict.scrollTop = 0;
}

export function render(check) {
  shown = check;
  const {report} = check;
  const state = report.legal ? "legal" : "illegal";
  const worst = report.violations.find((v) => v.penalty === report.penalty);
  openVerdict(state);
  $("verdict-heading").textContent = t(state);
  $("verdict-penalty").textContent = penaltyWords(report.penalty, worst?.penalty_applies_to);
  // Who, when and what against: enough for a printed slip to stand on its own.
  const meta = [check.player, timeWords(check.time), report.date, report.banlist?.name ?? "—"];
  if (check.kind === "roster") meta.push(t("duel_n", check.body.duel), t(`phase_${check.body.phase}`));
  meta.push(t("counts", report.counts.main, report.counts.extra, report.counts.side));
  $("verdict-meta").textContent = meta.filter(Boolean).join(" · ");
  $("error").hidden = true;
  $("notes").replaceChildren(...report.ruleset.notes.map((note) => element("li", "", note.message)));
  $("violations").replaceChildren(...report.violations.map(violationItem));
  $("source-caption").textContent = t(check.kind === "roster" ? "roster_presented" : "source");
  $("roster-source-box").hidden = check.kind !== "roster"; // first: it changes the room the other list has
  fillSource($("source"), check.source, report.violations.flatMap((v) => v.lines));
  fillSource($("roster-source"), check.rosterSource, report.violations.flatMap((v) => v.roster_lines));
  showOffending();
}

function violationItem(v) {
  const item = element("li", "violation");
  item.dataset.code = v.code;
  const facts = element("dl", "facts");
  const penalty = element("dd");
  penalty.append(element("span", "penalty", penaltyWords(v.penalty, v.penalty_applies_to)));
  if (v.penalty_ref) penalty.append(" ", element("span", "penalty-ref", v.penalty_ref));
  facts.append(element("dt", "", t("rule")), element("dd", "rule", v.rule), element("dt", "", t("penalty")), penalty);
  const where = [...v.lines.map((n) => t("lines", n)), ...v.roster_lines.map((n) => t("roster_lines", n))];
  if (where.length) facts.append(element("dt", "", t("where")), element("dd", "where", where.join(", ")));
  item.append(element("p", "message", v.message), facts);
  if (v.code === "roster_mismatch" || v.code === "side_swap_count_changed") item.append(rosterDetails(v));
  item.append(element("p", "remedy", v.remedy));
  return item;
}

/** The cards missing from and added to a section, and the sizes before and after siding, from the answer's ctx. */
function rosterDetails(v) {
  const box = element("div", "ctx");
  box.append(element("p", "section", t(`section_${v.section}`)));
  for (const [key, value] of Object.entries(v.ctx)) {
    const label = WORDS[lang][key] ?? key;
    if (Array.isArray(value)) {
      const cards = element("ul");
      const name = (card) => (lang === "ja" ? card.name_ja : card.name_en) || card.name_en || card.passcode;
      cards.append(...value.map((card) => element("li", "", `${name(card)} ×${card.count}`)));
      box.append(element("p", "ctx-label", label), cards);
    } else {
      box.append(element("p", "", `${label}: ${value}`));
    }
  }
  return box;
}

/** Show an error in words, over the page, with the source lines it names. */
export function showError(message, details = [], {source, lines = []} = {}) {
  shown = null;
  openVerdict("error");
  $("verdict-heading").textContent = t("error");
  $("verdict-penalty").textContent = "";
  $("verdict-meta").textContent = "";
  $("error").replaceChildren(element("p", "", message), ...details.map((line) => element("p", "detail", line)));
  $("error").hidden = false;
  $("notes").replaceChildren();
  $("violations").replaceChildren();
  $("source-caption").textContent = t("source");
  $("roster-source-box").hidden = true;
  fillSource($("source"), source, lines);
  showOffending();
}

export function closeVerdict() {
  $("verdict").hidden = true;
  giveFocusBack();
}

/** Draw the verdict shown again, in the language now chosen. */
export function redrawVerdict() {
  if (shown && !$("verdict").hidden) render(shown); // messages stay in the language they were asked in
}
