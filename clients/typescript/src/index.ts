/**
 * A typed client for the deckcheck API. Every request and answer type comes from the service's OpenAPI document
 * (openapi/openapi.json) through openapi-typescript; openapi-fetch sends the requests. As the Python client does
 * (deckcheck.client), it turns every refusal into one error type that carries the problem's fields and the code of
 * what was wrong, honours Retry-After on 503 and 429 with a capped backoff, revalidates the answers it keeps with
 * their ETag, stops on an abort signal, and asks for messages in the language chosen.
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./api.js";

export type { components, paths } from "./api.js";
export type DeckRequest = components["schemas"]["ValidateRequest"];
export type Verdict = components["schemas"]["ValidateResponse"];
export type Violation = Verdict["violations"][number];
export type Problem = components["schemas"]["Problem"];
export type CardLegality = components["schemas"]["CardLegality"];
export type Card = components["schemas"]["CardOutFull"];
export type SearchHit = components["schemas"]["SearchHit"];
export type Language = "ja" | "en";
export type Format = "ocg" | "tcg";

/** A refusal of the service (RFC 9457 problem+json), or an answer that is none. */
export class DeckcheckError extends Error {
  override readonly name = "DeckcheckError";
  /** The HTTP status. */
  readonly status: number;
  /** The problem's type, e.g. urn:deckcheck:problem:invalid-request. */
  readonly type: string;
  /** The type of the first thing wrong (e.g. unknown_card, target_too_long), or null when the problem names none. */
  readonly code: string | null;
  /** Each thing wrong with the request, where the problem says. */
  readonly errors: Problem["errors"];
  /** The request id the service logged the request under, to quote when asking about it. */
  readonly requestId: string | null;

  constructor(status: number, problem: Partial<Problem> | null, requestId: string | null) {
    super(problem?.detail ?? `deckcheck answered ${status}`);
    this.status = status;
    this.type = problem?.type ?? "about:blank";
    this.errors = problem?.errors ?? [];
    this.code = this.errors[0]?.type ?? null;
    this.requestId = problem?.request_id ?? requestId;
  }
}

export interface ClientOptions {
  /** The service's address, e.g. https://deckcheck.example.org. */
  baseUrl: string;
  /** The language of messages, remedies and penalties; default: the service's (English). */
  lang?: Language;
  /** How often a request refused with 503 or 429 is sent again; default 3. */
  retries?: number;
  /** The longest wait between two tries, in milliseconds, whatever Retry-After says; default 10,000. */
  maxDelayMs?: number;
  /** The fetch to send with; default globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
}

/** The event a ydke link is checked for by GET, beside the link. */
export type LinkQuery = { date?: string; format?: Format; banlist?: string };

export interface Call {
  /** Ends the request, and any wait before a retry, when it aborts. */
  signal?: AbortSignal;
  /** This call's language, instead of the client's. */
  lang?: Language;
}

/** The wait before try `attempt` (0-based) after an answer that said Retry-After `header`, capped. */
export function retryDelay(header: string | null, attempt: number, maxDelayMs: number): number {
  const seconds = header === null ? Number.NaN : Number(header);
  const said = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 500 * 2 ** attempt;
  return Math.min(said, maxDelayMs);
}

function wait(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** `send`, sending a request refused with 503 or 429 again after the wait its Retry-After asks (capped). */
function retrying(send: typeof globalThis.fetch, retries: number, maxDelayMs: number): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt += 1) {
      const answer = await send(request.clone());
      if ((answer.status !== 503 && answer.status !== 429) || attempt >= retries) {
        return answer;
      }
      await answer.body?.cancel();
      await wait(retryDelay(answer.headers.get("Retry-After"), attempt, maxDelayMs), request.signal);
    }
  };
}

/** How many answers a client keeps for revalidation: the least recently used goes past it. */
const KEPT = 256;

/**
 * The answers to GET requests, the last KEPT used, kept with their ETag and sent again as they were when the
 * service says 304.
 */
function revalidating(): Middleware {
  const kept = new Map<string, { etag: string; body: string; headers: Headers }>();
  const keep = (url: string, answer: { etag: string; body: string; headers: Headers }): void => {
    kept.delete(url); // a Map iterates in insertion order: the first key is the least recently used
    kept.set(url, answer);
    if (kept.size > KEPT) {
      kept.delete(kept.keys().next().value as string);
    }
  };
  return {
    onRequest({ request }) {
      const held = request.method === "GET" ? kept.get(request.url) : undefined;
      if (held !== undefined) {
        request.headers.set("If-None-Match", held.etag);
      }
      return request;
    },
    async onResponse({ request, response }) {
      if (request.method !== "GET") {
        return response;
      }
      const held = kept.get(request.url);
      if (response.status === 304 && held !== undefined) {
        keep(request.url, held);
        return new Response(held.body, { status: 200, headers: held.headers });
      }
      const etag = response.headers.get("ETag");
      if (response.status === 200 && etag !== null) {
        keep(request.url, { etag, body: await response.clone().text(), headers: new Headers(response.headers) });
      }
      return response;
    },
  };
}

/** The deckcheck API. */
export class DeckcheckClient {
  readonly #api;
  readonly #lang: Language | undefined;

  constructor(options: ClientOptions) {
    const send = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      fetch: retrying(send, options.retries ?? 3, options.maxDelayMs ?? 10_000),
    });
    this.#api.use(revalidating());
    this.#lang = options.lang;
  }

  #headers(call: Call | undefined): Record<string, string> {
    const lang = call?.lang ?? this.#lang;
    return lang === undefined ? {} : { "Accept-Language": lang };
  }

  /** Check a deck for its event: every violation with its rule, penalty and remedy. */
  async validate(deck: DeckRequest, call?: Call): Promise<Verdict> {
    return answered(
      await this.#api.POST("/v1/validate", { body: deck, headers: this.#headers(call), signal: call?.signal ?? null }),
    );
  }

  /**
   * Check a deck given as a ydke:// link by GET, whose answer a CDN or the browser may keep; asked again, the answer
   * kept is revalidated with its ETag.
   */
  async validateLink(
    ydke: string,
    options?: Call & LinkQuery,
  ): Promise<Verdict> {
    const lang = options?.lang ?? this.#lang;
    const query = {
      ydke,
      ...(options?.date === undefined ? {} : { date: options.date }),
      ...(options?.format === undefined ? {} : { format: options.format }),
      ...(options?.banlist === undefined ? {} : { banlist: options.banlist }),
      ...(lang === undefined ? {} : { lang }),
    };
    return answered(await this.#api.GET("/v1/validate", { params: { query }, signal: options?.signal ?? null }));
  }

  /** A card by any of its passcodes. */
  async card(passcode: number, call?: Call): Promise<Card> {
    const path = { passcode: String(passcode) };
    return answered(await this.#api.GET("/v1/cards/{passcode}", { params: { path }, signal: call?.signal ?? null }));
  }

  /** A card's status in each format through time, as periods, and on `date` (default today in Japan). */
  async cardLegality(passcode: number, options?: Call & { date?: string }): Promise<CardLegality> {
    const params = {
      path: { passcode: String(passcode) },
      query: options?.date === undefined ? {} : { date: options.date },
    };
    return answered(await this.#api.GET("/v1/cards/{passcode}/legality", { params, signal: options?.signal ?? null }));
  }

  /** One page of a name search, best first. */
  async search(q: string, options?: Call & { limit?: number; offset?: number }): Promise<SearchHit[]> {
    const query = { q, limit: options?.limit ?? 10, offset: options?.offset ?? 0 };
    return answered(await this.#api.GET("/v1/cards", { params: { query }, signal: options?.signal ?? null }));
  }
}

/** The answer's data, or the DeckcheckError its problem makes. */
function answered<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined) {
    return result.data;
  }
  const problem = typeof result.error === "object" && result.error !== null ? (result.error as Partial<Problem>) : null;
  throw new DeckcheckError(result.response.status, problem, result.response.headers.get("X-Request-ID"));
}
