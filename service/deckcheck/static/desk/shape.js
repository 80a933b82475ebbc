// The shape of a deck given as JSON, held to the types POST /v1/validate takes (a deck's main, extra and side lists
// of cards, or its one ydk, ydke or text string), and of a ydke link: what does not fit is said in the page's words,
// naming the field and what it holds, before anything is sent. The service would refuse it too, but in English, and a
// text or ydk that is not a string cannot be shown as the list checked. Values are the service's to judge (a count of
// 0, a passcode no card has): it names the line.

import {DeskError} from "./common.js";
import {t} from "./words.js";

const SOURCES = ["ydk", "ydke", "text"]; // the deck as one string
const SECTIONS = ["main", "extra", "side"]; // the deck as lists of cards
const CARD_FIELDS = [["passcode", "integer"], ["name", "string"], ["count", "integer"], ["language", "string"]];
const MAX_SHOWN = 80; // characters of what was given shown to staff
const YDKE = "ydke://";

/** What a JSON value is: null, list, integer, fraction, string, boolean or object. */
function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "fraction";
  return typeof value;
}

const cut = (text) => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
const givenAs = (text) => t("given_as", cut(text));
const isGiven = (value) => value !== undefined && value !== null;

/** `place` (words) holds `value`, which is not the `want` the service takes. */
function notA(place, want, value) {
  const words = t("json_wrong", place, t(`want_${want}`), t(`kind_${kindOf(value)}`));
  return new DeskError(words, [givenAs(JSON.stringify(value))]);
}

/** A JSON request's fields, if its deck has the shape the service takes; else a DeskError saying what does not. */
export function jsonDeck(json) {
  if (kindOf(json) !== "object") {
    throw new DeskError(t("json_not_object", t(`kind_${kindOf(json)}`)), [givenAs(JSON.stringify(json))]);
  }
  const sources = SOURCES.filter((field) => isGiven(json[field])); // the service takes a null one as none given
  const sections = SECTIONS.filter((section) => json[section] !== undefined);
  if (!sources.length && !sections.length) throw new DeskError(t("json_no_deck"));
  for (const field of sources) {
    if (typeof json[field] !== "string") throw notA(t("place_field", field), "string", json[field]);
  }
  if (sources.includes("ydke")) ydkeLink(json.ydke, t("place_field", "ydke"));
  for (const section of sections) {
    if (!Array.isArray(json[section])) throw notA(t("place_field", section), "list", json[section]);
    json[section].forEach((card, i) => checkCard(card, section, i + 1));
  }
  return json;
}

/** Card `n` (from 1) of a section's list: an object naming a card by passcode or name, its fields of their types. */
function checkCard(card, section, n) {
  if (kindOf(card) !== "object") throw notA(t("place_card", section, n), "card", card);
  for (const [field, want] of CARD_FIELDS) {
    const value = card[field];
    // Only the count may not be null: the service takes a null passcode, name or language as none given.
    if (value === undefined || (value === null && field !== "count")) continue;
    if (kindOf(value) !== want) throw notA(t("place_card_field", section, n, field), want, value);
  }
  if (!isGiven(card.passcode) && !isGiven(card.name)) {
    throw new DeskError(t("json_no_card", t("place_card", section, n)));
  }
}

/** `link` (what `place` holds, in words), if it is a ydke link of three parts as the service reads them; else a
 * DeskError saying what it is. */
export function ydkeLink(link, place) {
  const trimmed = link.trim();
  if (!trimmed.toLowerCase().startsWith(YDKE)) throw new DeskError(t("ydke_not_link", place), [givenAs(trimmed)]);
  const parts = trimmed.slice(YDKE.length).split("!");
  if (parts.length === 4 && parts[3] === "") parts.pop(); // the ! after the side deck most links end with
  if (parts.length !== 3) throw new DeskError(t("ydke_parts", parts.length), [givenAs(trimmed)]);
  return link;
}
