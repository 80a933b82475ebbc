/**
 * What `<deck-check>` shows, built as DOM nodes: a verdict (legal, or each violation with its rule, penalty and
 * remedy), the list it was checked against, a warning when the list may be outdated, the names read loosely, and a
 * refusal. Text from the answer (card names a player typed among them) is only ever set as text, never as markup.
 * The element's own words are here in Japanese and English; the answer's messages come in the language asked.
 */
import { DeckcheckError, type Language, type Verdict, type Violation } from "./index.js";

type Words = Record<string, readonly [ja: string, en: string]>;

const WORDS = {
  empty: ["デッキがありません。", "No deck to check."],
  checking: ["確認中…", "Checking…"],
  legal: ["このデッキは大会で使用できます。", "This deck is legal for the event."],
  illegal_one: ["このデッキは大会で使用できません（違反1件）。", "This deck is not legal: 1 problem."],
  illegal: ["このデッキは大会で使用できません（違反{0}件）。", "This deck is not legal: {0} problems."],
  failed: ["デッキを確認できませんでした。", "The deck could not be checked."],
  unreachable: ["deckcheckに接続できませんでした。", "deckcheck could not be reached."],
  not_a_deck: ["deckに渡された値はデッキではありません。", "The deck given is not a deck."],
  no_api: ["deckcheckのアドレスがありません（api属性）。", "No deckcheck address is set (the api attribute)."],
  checked_against: ["{0}（{1}から）で{2}の大会として確認しました。", "Checked against {0} (from {1}) for an event on {2}."],
  checked_against_given: ["{0}で{1}の大会として確認しました。", "Checked against {0} for an event on {1}."],
  no_list: ["{0}の大会として確認しました。", "Checked for an event on {0}."],
  list_may_be_outdated: ["リストが古い可能性があります", "The list may be out of date"],
  no_list_in_force: ["禁止・制限リストなし", "No Forbidden/Limited list applied"],
  violations: ["違反", "Problems"],
  rule: ["規定", "Rule"],
  penalty: ["罰則", "Penalty"],
  remedy: ["対処", "Remedy"],
  loosely: ["表記の違う名前を読み替えました", "Names read loosely"],
  about: ["この判定について", "About this answer"],
  legend: [
    "TR＝大会規定、PR＝大会罰則規定。続く番号はその項目です。",
    "TR: the tournament rules; PR: the penalty regulations; the number after them is the item.",
  ],
  request_id: ["問い合わせ番号：{0}", "Request id: {0}"],
  penalty_when: ["{0}（{1}）", "{0} ({1})"],
  penalty_cited: ["{0}：{1}", "{0}: {1}"],
  penalty_by_analogy: ["{0}：{1}の類推", "{0}: by analogy with {1}"],
  caution: ["注意", "Caution"],
  warning: ["警告", "Warning"],
  duel_forfeiture: ["デュエルの敗北", "Duel forfeiture"],
  match_forfeiture: ["マッチの敗北", "Match forfeiture"],
  disqualification: ["失格", "Disqualification"],
  total_disqualification: ["失格（賞品剥奪）", "Disqualification (prizes forfeited)"],
  next_duel: ["次のデュエル", "next duel"],
  current_duel: ["このデュエル", "this duel"],
  no_penalty: ["罰則なし", "No penalty"],
} as const satisfies Words;

type Word = keyof typeof WORDS;

/** The notes that warn the verdict may not be today's: shown above the violations, not folded away. */
const WARNINGS = new Set(["list_may_be_outdated", "no_list_in_force"]);

/** The element's word `key` in `lang`, with {0}, {1}… filled in; a key it has no word for (a penalty a later
 * service names) reads as itself. */
export function say(lang: Language, key: string, ...values: (string | number)[]): string {
  return fill(word(lang, key), values.map(String)).join("");
}

function word(lang: Language, key: string): string {
  const words = Object.hasOwn(WORDS, key) ? (WORDS as Words)[key] : undefined;
  return words === undefined ? key : words[lang === "ja" ? 0 : 1];
}

/** The word `key` in `lang` as nodes, with {0}, {1}… filled in by `values`: text, or nodes such as dates. */
function sayWith(lang: Language, key: string, ...values: (string | Node)[]): (string | Node)[] {
  return fill(word(lang, key), values);
}

/** `text` in pieces, each {0}, {1}… replaced by that value (nothing where none is given). */
function fill<T>(text: string, values: T[]): (string | T)[] {
  const parts = text.split(/\{(\d)\}/); // the text between placeholders at even places, their numbers at odd
  return parts.map((part, at) => (at % 2 === 0 ? part : (values[Number(part)] ?? ""))).filter((part) => part !== "");
}

/** A day as a <time>, kept on one line (a phone's width would break it at a hyphen). */
function day(iso: string): HTMLElement {
  const time = node("time", null, iso);
  time.setAttribute("datetime", iso);
  return time;
}

/** An element `tag` of the `part` given, holding `children` (strings as text). */
function node(tag: string, part: string | null, ...children: (Node | string)[]): HTMLElement {
  const element = document.createElement(tag);
  if (part !== null) {
    element.setAttribute("part", part);
  }
  element.append(...children);
  return element;
}

/** The summary line: what a screen reader announces when the verdict changes. */
export function summary(lang: Language, verdict: Verdict): string {
  const count = verdict.violations.length;
  return verdict.legal ? say(lang, "legal") : count === 1 ? say(lang, "illegal_one") : say(lang, "illegal", count);
}

/** The penalty, when it applies, and the item of the penalty regulations it comes from (kept on one line). */
function penaltyText(lang: Language, violation: Violation): (string | Node)[] {
  if (violation.penalty === null || violation.penalty === undefined) {
    return [say(lang, "no_penalty")];
  }
  const named = say(lang, violation.penalty);
  const when = violation.penalty_applies_to;
  const penalty = when === null || when === undefined ? named : say(lang, "penalty_when", named, say(lang, when));
  const cited = violation.penalty_ref;
  if (!cited) {
    return [penalty];
  }
  const basis = violation.penalty_basis === "by analogy" ? "penalty_by_analogy" : "penalty_cited";
  return sayWith(lang, basis, penalty, node("span", null, cited));
}

function violationItem(lang: Language, violation: Violation): HTMLElement {
  const facts = node("dl", "facts");
  const fact = (word: Word, part: string, ...value: (string | Node)[]): void => {
    facts.append(node("dt", null, say(lang, word)), node("dd", part, ...value));
  };
  fact("rule", "rule", violation.rule);
  fact("penalty", "penalty", ...penaltyText(lang, violation));
  if (violation.remedy) {
    fact("remedy", "remedy", violation.remedy);
  }
  const item = node("li", "violation", node("p", "message", violation.message), facts);
  item.dataset["code"] = violation.code;
  return item;
}

/** The verdict's body below the summary line. */
export function verdictBody(lang: Language, verdict: Verdict): Node[] {
  const shown: Node[] = [];
  const list = verdict.banlist;
  const against =
    list === null
      ? sayWith(lang, "no_list", day(verdict.date))
      : list.effective_from === null // a list the request gave
        ? sayWith(lang, "checked_against_given", list.name, day(verdict.date))
        : sayWith(lang, "checked_against", list.name, day(list.effective_from), day(verdict.date));
  shown.push(node("p", "list", ...against));
  const notes = verdict.ruleset.notes;
  for (const note of notes.filter((note) => WARNINGS.has(note.code))) {
    const warning = node("div", "warning", node("strong", null, say(lang, note.code)), node("p", null, note.message));
    warning.setAttribute("role", "note");
    warning.dataset["code"] = note.code;
    shown.push(warning);
  }
  if (verdict.violations.length > 0) {
    const items = node("ol", "violations", ...verdict.violations.map((violation) => violationItem(lang, violation)));
    items.setAttribute("aria-label", say(lang, "violations"));
    shown.push(items);
  }
  if (verdict.read_loosely.length > 0) {
    const read = verdict.read_loosely.map((entry) => node("li", null, entry.message));
    shown.push(node("div", "loosely", node("p", null, say(lang, "loosely")), node("ul", null, ...read)));
  }
  const about = notes.filter((note) => !WARNINGS.has(note.code)).map((note) => node("p", null, note.message));
  const legend = node("p", null, say(lang, "legend"));
  shown.push(node("details", "about", node("summary", null, say(lang, "about")), ...about, legend));
  return shown;
}

/** What a refusal or a failure to reach the service shows below the summary line. */
export function failureBody(lang: Language, error: unknown): Node[] {
  if (!(error instanceof DeckcheckError)) {
    return [node("p", "error", error instanceof Error ? error.message : String(error))];
  }
  const errors = error.errors.map((wrong) => node("li", null, wrong.msg));
  const shown: Node[] = [node("p", "error", error.message)];
  if (errors.length > 0) {
    shown.push(node("ul", "errors", ...errors));
  }
  if (error.requestId !== null) {
    shown.push(node("p", "request-id", say(lang, "request_id", error.requestId)));
  }
  return shown;
}
