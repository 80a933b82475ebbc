// The client against a running service (DECKCHECK_URL), as a site meets it: node --test test/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DeckcheckClient, DeckcheckError, retryDelay } from "../dist/index.js";

const BASE = process.env.DECKCHECK_URL;
if (!BASE) {
  throw new Error("DECKCHECK_URL names no service to test against");
}
const POT_OF_GREED = 55144522;
const EVENT = "2008-06-01";
// Thirteen unlimited cards three times each and Monster Reborn (Limited): 40 cards legal on the OCG list of
// 2008-03-01 (tests/decks.py); with one Magical Dimension fewer and a Pot of Greed, which that list forbids.
const UNLIMITED = [
  46986414, 73752131, 69140098, 14898066, 97017120, 83011277, 80304126, 9156135, 65240384, 98045062, 56120475,
  29401950, 28553439,
];
const MONSTER_REBORN = 83764718;

function ydke(main) {
  const bytes = new Uint8Array(main.length * 4);
  const view = new DataView(bytes.buffer);
  main.forEach((passcode, index) => view.setUint32(index * 4, passcode, true));
  return `ydke://${Buffer.from(bytes).toString("base64")}!!!`;
}
const legalMain = [...UNLIMITED.flatMap((passcode) => [passcode, passcode, passcode]), MONSTER_REBORN];
const LEGAL = ydke(legalMain);
const ILLEGAL = ydke([...legalMain.slice(0, 38), POT_OF_GREED, MONSTER_REBORN]);

/** A fetch that records the status of every answer it passes on. */
function recorded() {
  const statuses = [];
  const send = async (request) => {
    const answer = await fetch(request);
    statuses.push(answer.status);
    return answer;
  };
  return { statuses, send };
}

test("a verdict names every violation in the language chosen", async () => {
  const client = new DeckcheckClient({ baseUrl: BASE, lang: "ja" });
  assert.equal((await client.validate({ ydke: LEGAL, date: EVENT })).legal, true);
  const verdict = await client.validate({ ydke: ILLEGAL, date: EVENT });
  assert.equal(verdict.legal, false);
  assert.deepEqual(verdict.violations.map((violation) => violation.code), ["forbidden_card"]);
  assert.match(verdict.violations[0].message, /強欲な壺/);
  const english = await client.validate({ ydke: ILLEGAL, date: EVENT }, { lang: "en" });
  assert.match(english.violations[0].message, /Pot of Greed/);
});

test("a link checked by GET is the POST's verdict, and asked again is revalidated with its ETag", async () => {
  const { statuses, send } = recorded();
  const client = new DeckcheckClient({ baseUrl: BASE, lang: "en", fetch: send });
  const posted = await client.validate({ ydke: ILLEGAL, date: EVENT });
  const first = await client.validateLink(ILLEGAL, { date: EVENT });
  const again = await client.validateLink(ILLEGAL, { date: EVENT });
  assert.deepEqual(first, posted);
  assert.deepEqual(again, first);
  assert.deepEqual(statuses, [200, 200, 304]);
});

test("a refusal is one error type with the problem's status, type and code", async () => {
  const client = new DeckcheckClient({ baseUrl: BASE });
  await assert.rejects(client.card(1), (error) => {
    assert.ok(error instanceof DeckcheckError);
    assert.equal(error.status, 404);
    assert.equal(error.code, "unknown_card");
    assert.match(error.requestId, /^[0-9a-f]{32}$/);
    return true;
  });
  await assert.rejects(client.validateLink(`ydke://${"A".repeat(9000)}!!!`), (error) => {
    assert.equal(error.status, 414);
    assert.equal(error.type, "urn:deckcheck:problem:request-uri-too-long");
    assert.equal(error.code, "target_too_long");
    return true;
  });
});

test("a card's legality through time", async () => {
  const client = new DeckcheckClient({ baseUrl: BASE });
  const history = await client.cardLegality(POT_OF_GREED, { date: "2026-12-01" });
  const [ocg, tcg] = history.formats;
  assert.equal(ocg.on_date.status, "forbidden");
  assert.equal(ocg.periods.at(-1).from, "2006-03-01");
  assert.equal(tcg.format, "tcg");
});

test("an aborted request rejects with the abort, and sends nothing more", async () => {
  const client = new DeckcheckClient({ baseUrl: BASE });
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(client.search("Dragon", { signal: controller.signal }), { name: "AbortError" });
});

test("503 and 429 are sent again after the wait Retry-After asks, capped, then given up", async () => {
  const waits = [];
  let tries = 0;
  const busy = async (request) => {
    tries += 1;
    if (tries <= 2) {
      return new Response("{}", { status: tries === 1 ? 503 : 429, headers: { "Retry-After": "0" } });
    }
    return fetch(request);
  };
  const client = new DeckcheckClient({ baseUrl: BASE, fetch: busy });
  const hits = await client.search("Pot of Greed", { limit: 1 });
  assert.equal(hits[0].passcode, POT_OF_GREED);
  assert.equal(tries, 3);
  waits.push(retryDelay("120", 0, 10_000), retryDelay(null, 3, 10_000), retryDelay("nonsense", 0, 10_000));
  assert.deepEqual(waits, [10_000, 4_000, 500]);
  const always = new DeckcheckClient({ baseUrl: BASE, retries: 1, fetch: async () => new Response(null, { status: 503, headers: { "Retry-After": "0" } }) });
  await assert.rejects(always.search("x"), (error) => error instanceof DeckcheckError && error.status === 503);
});

test("the client keeps the last 256 answers it used for revalidation, no more", async () => {
  const { statuses, send } = recorded();
  const client = new DeckcheckClient({ baseUrl: BASE, fetch: send });
  for (let offset = 0; offset <= 256; offset += 1) {
    await client.search("Dragon", { limit: 1, offset });
  }
  statuses.length = 0;
  await client.search("Dragon", { limit: 1, offset: 256 }); // kept: revalidated
  await client.search("Dragon", { limit: 1, offset: 0 }); // the least recently used, let go: asked anew
  assert.deepEqual(statuses, [304, 200]);
});
