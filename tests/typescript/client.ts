/**
 * A small typed client for POST /v1/validate, as a deck-builder site would write one. Every type comes from the
 * OpenAPI document (openapi/openapi.json) through openapi-typescript, which tests/test_typescript.py runs into the
 * module "deckcheck-api" before type-checking this file strictly. The file only type-checks while the document
 * names the operation validateDeck, declares its problem answers under application/problem+json with the Problem
 * schema, and gives violation codes and penalties as enums.
 */
import type { components, operations, paths } from "deckcheck-api";

type Validate = operations["validateDeck"];
type Responses = Validate["responses"];
export type DeckRequest = Validate["requestBody"]["content"]["application/json"];
export type Verdict = Responses[200]["content"]["application/json"];
export type Violation = Verdict["violations"][number];
export type ViolationCode = Violation["code"];
export type Penalty = Violation["penalty"];
/** Any answer but a verdict: each is declared as application/problem+json. */
export type ProblemAnswer = Responses[Exclude<keyof Responses, 200>]["content"]["application/problem+json"];
export type Problem = components["schemas"]["Problem"];

const VALIDATE = "/v1/validate" satisfies keyof paths;

/** What the site does with an answer: a verdict, or a problem telling what was wrong with the request. */
export type Outcome =
  | { kind: "verdict"; verdict: Verdict; requestId: string | null }
  | { kind: "problem"; problem: Problem; requestId: string | null };

/** Check a deck: the verdict, or the problem the service answered with. */
export async function validateDeck(api: string, deck: DeckRequest, language: "ja" | "en"): Promise<Outcome> {
  const answer = await fetch(`${api}${VALIDATE}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": language },
    body: JSON.stringify(deck),
  });
  const requestId = answer.headers.get("X-Request-ID");
  if (answer.ok) {
    return { kind: "verdict", verdict: (await answer.json()) as Verdict, requestId };
  }
  if (answer.headers.get("Content-Type")?.startsWith("application/problem+json") !== true) {
    throw new Error(`deckcheck answered ${answer.status} without a problem`);
  }
  const problem: ProblemAnswer = (await answer.json()) as ProblemAnswer;
  return { kind: "problem", problem, requestId };
}

/** Where in the deck a violation lies, as the site shows it: "main 14, side 2". */
function where(violation: Violation): string {
  return violation.loc.map((path) => path.join(" ")).join(", ");
}

/** The lines the site shows for an outcome. */
export function describe(outcome: Outcome): string[] {
  if (outcome.kind === "problem") {
    const { status, detail, errors } = outcome.problem;
    const fields = errors.map((error) => `${error.loc.join(".")}: ${error.msg}`);
    return [`${status} ${detail}`, ...fields];
  }
  const { legal, violations } = outcome.verdict;
  const lines = violations.map((v) => `${v.code} (${v.penalty}) at ${where(v)}: ${v.message}`);
  return [legal ? "legal" : "not legal", ...lines];
}

/** Whether the site must stop the player from registering the deck: any violation worse than a caution. */
export function blocksRegistration(violation: Violation): boolean {
  const forgiven: Penalty = "caution";
  return violation.penalty !== forgiven;
}

/** A code the site highlights, typed so that a misspelt one does not compile. */
export const FORBIDDEN: ViolationCode = "forbidden_card";

// Each of these compiles only while the document gives the field as an enum, not as any string.
// @ts-expect-error: not a violation code
export const NOT_A_CODE: ViolationCode = "forbidden_cards";
// @ts-expect-error: not a penalty
export const NOT_A_PENALTY: Penalty = "game_loss";
