/**
 * `<deck-check>`: a deck's verdict on any page, without a framework. Give it the deck as a ydke:// link (`ydke`), a
 * .ydk file's text (`ydk`), a plain list (`list`), or as the `deck` property; the event's `date`, `format` (ocg,
 * tcg), `banlist` and the language (`lang`, else the page's). It checks the deck whenever one of them changes, a
 * moment after the last change (so typing sends one request, not one a key), and a new check cancels the one before.
 * It shows the verdict, each violation with its rule, penalty and remedy, the list in force and a warning when that
 * list may be outdated, and fires `deckcheck-verdict` (or `deckcheck-error`) with what it got.
 *
 * A ydke link is checked by GET /v1/validate, an answer the browser and a CDN may keep; the other forms by POST.
 * The service is the one the `api` attribute names, else the one `defineDeckCheck` was given (the served script
 * gives its own).
 */
import {
  DeckcheckClient,
  DeckcheckError,
  type DeckRequest,
  type Format,
  type Language,
  type LinkQuery,
  type Verdict,
} from "./index.js";
import { STYLE } from "./style.js";
import { failureBody, say, summary, verdictBody } from "./view.js";

/** A deck as the `deck` property takes it: a link, a file's or a list's text, or entries by section. */
export type DeckInput =
  | { ydke: string }
  | { ydk: string }
  | { text: string }
  | Pick<DeckRequest, "main" | "extra" | "side">;

/** A check to send: a link by GET, or a body by POST. */
type Check = { link: string; query: LinkQuery } | { body: DeckRequest };

export interface VerdictDetail {
  verdict: Verdict;
}

export interface ErrorDetail {
  error: DeckcheckError | Error;
}

/** How long after the last change the deck is checked, in milliseconds. */
export const SETTLE_MS = 150;

const DECK_ATTRIBUTES = ["ydke", "ydk", "list"];

const clients = new Map<string, DeckcheckClient>();

/** One client per service, shared by every element on the page, so one ETag store serves them all. */
function clientFor(api: string): DeckcheckClient {
  let client = clients.get(api);
  if (client === undefined) {
    client = new DeckcheckClient({ baseUrl: api });
    clients.set(api, client);
  }
  return client;
}

/** The element's language: its own `lang` or its closest ancestor's, looking out of any shadow root it sits in
 * (inside another component), else the browser's. */
function language(element: HTMLElement): Language {
  let tag: string | null = null;
  for (let at: Element | null = element; at !== null && !tag; ) {
    tag = at.closest("[lang]")?.getAttribute("lang") ?? null;
    const root = at.getRootNode();
    at = root instanceof ShadowRoot ? root.host : null;
  }
  return (tag || navigator.language).toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** `value` as a deck, or a TypeError for what is none. */
function asDeck(value: unknown): DeckInput | null {
  if (value !== null && value !== undefined && typeof value !== "object") {
    throw new TypeError("deck takes { ydke }, { ydk }, { text } or { main, extra, side }, or null");
  }
  return (value ?? null) as DeckInput | null;
}

export class DeckCheckElement extends HTMLElement {
  static readonly observedAttributes = [...DECK_ATTRIBUTES, "date", "format", "banlist", "lang", "api"];
  /** The service used when the element has no `api` attribute. */
  static defaultApi: string | null = null;

  static readonly #connected = new Set<DeckCheckElement>();
  static #languages: MutationObserver | null = null;

  readonly #box: HTMLElement;
  readonly #summary: HTMLElement;
  readonly #body: HTMLElement;
  #deck: DeckInput | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: AbortController | null = null;
  #verdict: Verdict | null = null;
  #done: string | null = null; // what the verdict or refusal shown answers (#key), once its check has finished
  #lang: Language | null = null; // the language of the check shown or running

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
    this.#summary = document.createElement("p");
    this.#summary.setAttribute("part", "summary");
    this.#summary.setAttribute("role", "status"); // announced politely whenever the verdict changes
    this.#body = document.createElement("div");
    this.#box = document.createElement("section");
    this.#box.setAttribute("part", "box");
    this.#box.append(this.#summary, this.#body);
    root.append(this.#box);
  }

  /** The deck, when given as a property; it takes the place of the deck attributes until set to null. */
  get deck(): DeckInput | null {
    return this.#deck;
  }

  set deck(deck: DeckInput | null | undefined) {
    this.#deck = asDeck(deck);
    this.#schedule();
  }

  /** The verdict on the deck as given now: null while it is being checked, or when it has none (no deck, a
   * refusal). */
  get verdict(): Verdict | null {
    return this.#verdict;
  }

  connectedCallback(): void {
    DeckCheckElement.#connected.add(this);
    DeckCheckElement.#watchLanguages();
    // A page may set `deck` before the element is defined (an async or module script): the value then sits on the
    // instance, hiding the accessor, and is taken now; what is no deck is reported as a failure would be.
    if (Object.hasOwn(this, "deck")) {
      const early: unknown = (this as { deck?: unknown }).deck;
      delete (this as { deck?: unknown }).deck;
      try {
        this.#deck = asDeck(early);
      } catch (error) {
        this.#fail(language(this), error, "not_a_deck");
        return;
      }
    }
    // Moved within the page, it keeps the verdict it shows when nothing it answers has changed.
    if (this.#done === null || this.#done !== this.#key()) {
      this.#schedule();
    }
  }

  disconnectedCallback(): void {
    DeckCheckElement.#connected.delete(this);
    clearTimeout(this.#timer);
    this.#running?.abort();
  }

  /** A page may change its language above the element (a site's language switch sets <html lang>): one observer
   * for every element checks again those whose language that changed. */
  static #watchLanguages(): void {
    if (DeckCheckElement.#languages !== null) {
      return;
    }
    DeckCheckElement.#languages = new MutationObserver(() => {
      for (const element of DeckCheckElement.#connected) {
        if (element.#lang !== null && language(element) !== element.#lang) {
          element.#schedule();
        }
      }
    });
    const watched = { attributes: true, attributeFilter: ["lang"], subtree: true };
    DeckCheckElement.#languages.observe(document.documentElement, watched);
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    const standsIn = this.#deck !== null && DECK_ATTRIBUTES.includes(name); // the property holds the deck
    const sameLanguage = name === "lang" && this.#lang === language(this); // en-US to en-GB asks the same
    if (before !== after && this.isConnected && !standsIn && !sameLanguage) {
      this.#schedule();
    }
  }

  /** The deck or the event changed: what is shown is no longer the verdict on it. The check running is cancelled
   * at once (its answer must never be shown or fired), and the new one starts once the changes settle. */
  #schedule(): void {
    clearTimeout(this.#timer);
    this.#verdict = null;
    this.#done = null;
    if (!this.isConnected) {
      return;
    }
    this.#running?.abort();
    this.#running = null;
    this.#box.setAttribute("aria-busy", "true");
    this.#summary.dataset["checking"] = say(language(this), "checking");
    this.#timer = setTimeout(() => void this.#check(), SETTLE_MS);
  }

  /** The check the deck as given now asks for, or null when no deck is given. */
  #request(): Check | null {
    const deck = this.#deck ?? this.#fromAttributes();
    if (deck === null) {
      return null;
    }
    const event: LinkQuery = {};
    const date = this.getAttribute("date");
    const format = this.getAttribute("format");
    const banlist = this.getAttribute("banlist");
    if (date) event.date = date;
    if (format) event.format = format as Format;
    if (banlist) event.banlist = banlist;
    return "ydke" in deck ? { link: deck.ydke, query: event } : { body: { ...deck, ...event } };
  }

  #fromAttributes(): DeckInput | null {
    const ydke = this.getAttribute("ydke");
    const ydk = this.getAttribute("ydk");
    const list = this.getAttribute("list");
    if (ydke) return { ydke };
    if (ydk) return { ydk };
    if (list) return { text: list };
    return null;
  }

  /** What a check now would answer: the request, the language and the service. */
  #key(): string {
    return keyOf(this.#request(), language(this), this.#api());
  }

  #api(): string | null {
    return this.getAttribute("api") || DeckCheckElement.defaultApi;
  }

  async #check(): Promise<void> {
    const lang = language(this);
    this.#lang = lang;
    const request = this.#request();
    const api = this.#api();
    const key = keyOf(request, lang, api);
    if (request === null || api === null) {
      this.#running = null;
      this.#show(lang, "empty", request === null ? say(lang, "empty") : say(lang, "no_api"), []);
      this.#done = key;
      return;
    }
    const running = new AbortController();
    this.#running = running;
    try {
      const verdict = await send(clientFor(api), request, lang, running.signal);
      if (running.signal.aborted) return;
      this.#verdict = verdict;
      this.#done = key;
      this.#show(lang, verdict.legal ? "legal" : "illegal", summary(lang, verdict), verdictBody(lang, verdict));
      this.#fire<VerdictDetail>("deckcheck-verdict", { verdict });
    } catch (error) {
      if (running.signal.aborted) return;
      this.#done = key;
      this.#fail(lang, error, error instanceof DeckcheckError ? "failed" : "unreachable");
    }
  }

  /** Show a refusal, a service out of reach or a deck that is none (`why`, a word of view.ts), and fire it. */
  #fail(lang: Language, error: unknown, why: "failed" | "unreachable" | "not_a_deck"): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    this.#show(lang, "failed", say(lang, why), failureBody(lang, failure));
    this.#fire<ErrorDetail>("deckcheck-error", { error: failure });
  }

  #show(lang: Language, state: string, line: string, body: Node[]): void {
    this.#box.dataset["state"] = state;
    this.#box.setAttribute("aria-busy", "false");
    this.#box.lang = lang;
    this.#summary.textContent = line;
    this.#body.replaceChildren(...body);
  }

  #fire<T>(type: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(type, { detail, bubbles: true, composed: true }));
  }
}

/** What a check of `request` in `lang` with the service at `api` answers, as one string to compare. */
function keyOf(request: Check | null, lang: Language, api: string | null): string {
  return JSON.stringify([request, lang, api]);
}

/** A ydke link by GET (an answer caches keep), any other deck by POST. */
function send(client: DeckcheckClient, check: Check, lang: Language, signal: AbortSignal): Promise<Verdict> {
  return "link" in check
    ? client.validateLink(check.link, { ...check.query, lang, signal })
    : client.validate(check.body, { lang, signal });
}

/** Register `<deck-check>` (once), checking decks with the service at `api` unless an element names another. */
export function defineDeckCheck(options: { api?: string; tag?: string } = {}): void {
  if (options.api !== undefined) {
    DeckCheckElement.defaultApi = options.api;
  }
  const tag = options.tag ?? "deck-check";
  if (customElements.get(tag) === undefined) {
    customElements.define(tag, DeckCheckElement);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "deck-check": DeckCheckElement;
  }
  interface HTMLElementEventMap {
    "deckcheck-verdict": CustomEvent<VerdictDetail>;
    "deckcheck-error": CustomEvent<ErrorDetail>;
  }
}
