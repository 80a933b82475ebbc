// The verdict over the page: a modal dialog that says a check is running, then its state, penalty and violations
// beside the list checked with the offending lines marked, or an error in words; what screen readers are told of
// it; and where the focus goes back to once it is closed.

import {$, element, timeWords} from "./common.js";
import {WORDS, lang, penaltyWords, t} from "./words.js";

const PAGE = () => [document.querySelector("body > header"), document.querySelector("main")]; // under the dialog
const SAY_AFTER = 100; // ms: how long the live region is on screen before its text changes, so that it is announced

let shown = null; // what the verdict shows, to draw it again in the other language
let returnTo = $("submission"); // the input the focus goes back to when the verdict is closed
let saying = 0; // the timer of the next words for the live region
let unsaid = []; // the words it will say then

/** Make `input` the one the focus goes back to. */
export function returnFocusTo(input) {
  returnTo = input;
}

/** Focus the input the last check came from, with its whole content selected: the next paste or scan replaces the
 * list checked instead of being added to it (a scanner types into the field, and a paste goes where the caret is). */
function giveFocusBack() {
  returnTo.focus({preventScroll: true});
  returnTo.select();
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

/** Fill both lists: the one checked (the presented deck of a roster check) and, if there is one, the registered
 * list; the registered list's box first, as it changes the room the other has. */
function fillSources(source, lines, rosterSource, rosterLines) {
  $("source").closest("figure").hidden = !source; // an error before any list was read (a picture, a code) has none
  $("roster-source-box").hidden = rosterSource === undefined;
  $("source-caption").textContent = t(rosterSource === undefined ? "source" : "roster_presented");
  fillSource($("source"), source, lines);
  fillSource($("roster-source"), rosterSource, rosterLines);
  // Bring the first offending line of each list into view, now that both have their room.
  for (const pre of [$("source"), $("roster-source")]) pre.querySelector(".offending")?.scrollIntoView({block: "center"});
}

/** Show the dialog in `state` over the page, which is made inert (Tab, clicks and screen readers stay in the
 * dialog), and put the focus in it unless it is there already. */
function openVerdict(state) {
  const verdict = $("verdict");
  verdict.dataset.state = state;
  if (verdict.hidden) {
    verdict.hidden = false;
    verdict.scrollTop = 0;
    for (const part of PAGE()) part.inert = true;
  }
  if (!verdict.contains(document.activeElement)) verdict.focus({preventScroll: true});
  $("verdict-close").textContent = t(state === "checking" ? "stop_check" : "close");
  unsaid = []; // what the dialog showed before and was not said yet is gone from it
  showNotice("");
}

/** Tell screen readers `words` through the dialog's live region, after what it has still to say. Its text changes
 * a moment after the dialog is shown: a live region that appears together with its text, or changes while hidden,
 * is not announced. */
function say(words) {
  unsaid.push(words);
  clearTimeout(saying);
  saying = setTimeout(() => {
    if (!$("verdict").hidden) $("verdict-said").textContent = unsaid.join(" ");
    unsaid = [];
  }, SAY_AFTER);
}

/** A note over the verdict for staff (a deck kept unchecked, the code being typed); "" takes it away. */
export function showNotice(words, announce = true) {
  $("verdict-notice").textContent = words;
  $("verdict-notice").hidden = !words;
  if (words && announce) say(words);
}

const playerWords = (player) => (player ? t("player_named", player) : t("player_none"));

/** Say that the check of `check.player`'s deck is running, with the lists sent: the verdict shown before is gone. */
export function showChecking(check) {
  shown = null;
  openVerdict("checking");
  $("verdict-heading").textContent = t("checking");
  $("verdict-penalty").textContent = "";
  $("verdict-player").textContent = playerWords(check.player);
  $("verdict-meta").textContent = "";
  $("error").hidden = true;
  showNotes([]);
  showLoose([]);
  $("violations").replaceChildren();
  fillSources(check.source, [], check.rosterSource, []);
  say(`${t("checking")} ${playerWords(check.player)}`);
}

export function render(check) {
  shown = check;
  const {report} = check;
  const state = report.legal ? "legal" : "illegal";
  const worst = report.violations.find((v) => v.penalty === report.penalty);
  openVerdict(state);
  $("verdict-heading").textContent = t(state);
  $("verdict-penalty").textContent = penaltyWords(report.penalty, worst?.penalty_applies_to);
  // Whose deck, when and against what: enough for a printed slip to stand on its own.
  $("verdict-player").textContent = playerWords(check.player);
  // A list the service says a newer one may have followed is never named plainly, as in the header.
  const stale = report.ruleset.notes.some((note) => note.code === "list_may_be_outdated");
  const banlist = report.banlist ? (stale ? t("in_force_stale", report.banlist.name) : report.banlist.name) : "—";
  const meta = [timeWords(check.time), report.date, banlist];
  if (check.kind === "roster") meta.push(t("duel_n", check.body.duel), t(`phase_${check.body.phase}`));
  meta.push(t("counts", report.counts.main, report.counts.extra, report.counts.side));
  $("verdict-meta").textContent = meta.join(" · ");
  $("error").hidden = true;
  showNotes(report.ruleset.notes);
  showLoose(report.read_loosely ?? []);
  const lines = (v) => (v.lines.length || !check.entryLines ? v.lines : entryLines(v, check.entryLines));
  $("violations").replaceChildren(...report.violations.map((v) => violationItem(v, lines(v))));
  fillSources(check.source, report.violations.flatMap(lines), check.rosterSource,
    report.violations.flatMap((v) => v.roster_lines));
  say([t(state), $("verdict-penalty").textContent, $("verdict-player").textContent].join(lang === "ja" ? "。" : ". "));
}

/** The ruleset's notes (where the answer reaches beyond the 2008 rules), folded under the violations behind a
 * toggle that counts them: they hold for every deck of the event, and the reasons come first. */
function showNotes(notes) {
  $("notes").replaceChildren(...notes.map((note) => element("li", "", note.message)));
  $("notes-box").hidden = !notes.length;
  $("notes-summary").textContent = t("notes_toggle", notes.length);
}

/** The names the service read loosely (a spelling that is no card's, taken for the one card it fits), each in the
 * service's words: staff compare them with the paper, since a legal verdict rests on them. */
function showLoose(reads) {
  $("loose").replaceChildren(...reads.map((read) => element("li", "", read.message)));
  $("loose-box").hidden = !reads.length;
}

/** The lines of a deck read from paper that a violation names by its entries (`loc`: section and index), where the
 * deck went to the service by passcode and the answer has no lines of its own. */
const entryLines = (v, byEntry) =>
  [...new Set(v.loc.map(([section, index]) => byEntry[section]?.[index]).filter(Boolean))].sort((a, b) => a - b);

function violationItem(v, lines) {
  const item = element("li", "violation");
  item.dataset.code = v.code;
  const facts = element("dl", "facts");
  const penalty = element("dd");
  penalty.append(element("span", "penalty", penaltyWords(v.penalty, v.penalty_applies_to)));
  if (v.penalty_ref) penalty.append(" ", element("span", "penalty-ref", v.penalty_ref));
  facts.append(element("dt", "", t("rule")), element("dd", "rule", v.rule), element("dt", "", t("penalty")), penalty);
  const where = [...lines.map((n) => t("lines", n)), ...v.roster_lines.map((n) => t("roster_lines", n))];
  if (where.length) facts.append(element("dt", "", t("where")), element("dd", "where", where.join(", ")));
  // The reason, the penalty and what to do first; a roster's details (the cards in question) after them.
  item.append(element("p", "message", v.message), facts, element("p", "remedy", v.remedy));
  if (v.code === "roster_mismatch" || v.code === "side_swap_count_changed") item.append(rosterDetails(v));
  return item;
}

/** The cards missing from and added to a section, and the sizes before and after siding, from the answer's ctx:
 * one line each, under the section's name. */
function rosterDetails(v) {
  const box = element("dl", "ctx");
  const name = (card) => (lang === "ja" ? card.name_ja : card.name_en) || card.name_en || card.passcode;
  for (const [key, value] of Object.entries(v.ctx)) {
    if (!WORDS[key]) continue; // a detail a later service adds, that the page has no words for
    const shown = Array.isArray(value) ? value.map((card) => `${name(card)} ×${card.count}`).join(t("list_sep")) : value;
    box.append(element("dt", "", t(key)), element("dd", "", String(shown)));
  }
  const details = element("div", "roster-details");
  details.append(element("p", "section", t(`section_${v.section}`)), box);
  return details;
}

/** Show an error in words, over the page, with the lines it names in the list checked and, for a roster check,
 * in the registered list; `player`, when the check had one. */
export function showError(message, details = [], {source, lines = [], rosterSource, rosterLines = [], player} = {}) {
  shown = null;
  openVerdict("error");
  $("verdict-heading").textContent = t("error");
  $("verdict-penalty").textContent = "";
  $("verdict-player").textContent = player ? playerWords(player) : "";
  $("verdict-meta").textContent = "";
  $("error").replaceChildren(element("p", "", message), ...details.map((line) => element("p", "detail", line)));
  $("error").hidden = false;
  showNotes([]);
  showLoose([]);
  $("violations").replaceChildren();
  fillSources(source, lines, rosterSource, rosterLines);
  say([t("error"), message].join(lang === "ja" ? "。" : ". "));
}

/** Take the dialog away, give the page back and the focus to the input the last check came from. */
export function closeVerdict() {
  if ($("verdict").hidden) return;
  clearTimeout(saying);
  unsaid = [];
  $("verdict-said").textContent = ""; // so that the same words are announced again next time
  $("verdict").hidden = true;
  for (const part of PAGE()) part.inert = false;
  giveFocusBack();
}

export const verdictOpen = () => !$("verdict").hidden;

/** Draw the verdict shown again, in the language now chosen. */
export function redrawVerdict() {
  if (shown && !$("verdict").hidden) render(shown); // messages stay in the language they were asked in
}
