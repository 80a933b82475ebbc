// ydeck's side of bench/peer.py: time ydeck on the decks bench/peer.py wrote, with Node's own high-resolution clock.
//
// Usage: node run.mjs FOLDER PASSES [--errors]
//   FOLDER/links.txt  one ydke:// link a line
//   FOLDER/cards.json ydeck's card index, made by bench/peer.py from deckcheck's cards and the list:
//                     [passcode, English name, alias (the passcode its name counts under, 0 for itself), limit]
// Prints one JSON object: decks/s of the best of PASSES passes for parse + validate (`new Deck(index, {url})`,
// then `deck.validate(allow)`) and for validate alone on decks parsed beforehand, and how many decks were invalid.
// With --errors, prints instead every invalid deck's errors, as ydeck gives them: [[deck number, errors], ...].
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ydeck from "ydeck";

const { Deck, createAllowVector } = ydeck;
const [folder, passesArg, mode] = process.argv.slice(2);
const passes = Number(passesArg);
const links = readFileSync(join(folder, "links.txt"), "utf8").split("\n").filter((line) => line.length > 0);
const index = new Map();
for (const [passcode, name, alias, limit] of JSON.parse(readFileSync(join(folder, "cards.json"), "utf8"))) {
  index.set(passcode, { name, type: 0, setcode: 0, alias, limitOCG: limit, limitTCG: limit, isPrerelease: false });
}
// ydeck's own way to hold a list: a card's limit, or -1 to count an alias under the card it names; a card that gets
// 0 (Forbidden) is left out, and a card left out (or unknown to the index) is allowed no copies.
const allow = createAllowVector(index, (card) => (card.alias ? -1 : card.limitOCG));

if (mode === "--errors") {
  const found = [];
  links.forEach((url, number) => {
    const errors = new Deck(index, { url }).validate(allow);
    if (errors.length > 0) found.push([number, errors]);
  });
  process.stdout.write(JSON.stringify(found));
} else {
  const best = (run) => {
    let seconds = Infinity;
    let invalid = 0;
    for (let pass = 0; pass < passes; pass++) {
      const start = process.hrtime.bigint();
      invalid = run();
      seconds = Math.min(seconds, Number(process.hrtime.bigint() - start) / 1e9);
    }
    return [links.length / seconds, invalid];
  };
  const [parseValidate, invalidParsed] = best(() => {
    let invalid = 0;
    for (const url of links) if (new Deck(index, { url }).validate(allow).length > 0) invalid++;
    return invalid;
  });
  const decks = links.map((url) => new Deck(index, { url }));
  const [validate, invalid] = best(() => {
    let count = 0;
    for (const deck of decks) if (deck.validate(allow).length > 0) count++;
    return count;
  });
  if (invalid !== invalidParsed) throw new Error("the two timings disagree on the verdicts");
  process.stdout.write(JSON.stringify({ parse_validate: parseValidate, validate, invalid, node: process.version }));
}
