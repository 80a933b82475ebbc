/**
 * The script the service serves at /elements/deck-check.js, bundled into one file with what it imports: a page
 * includes it with one `<script>` tag and gets `<deck-check>`, checking decks with the service it came from (the
 * folder above the script's, so a service behind a path prefix is found too).
 */
import { defineDeckCheck } from "./element.js";

// A classic script knows its tag; loaded as a module it does not, and its tag is looked for by its path (a query
// string, such as a cache-buster, may follow).
const script =
  document.currentScript ??
  Array.from(document.scripts).find((tag) => tag.src && new URL(tag.src).pathname.endsWith("/elements/deck-check.js"));
const api = script instanceof HTMLScriptElement && script.src ? new URL("..", script.src).href : undefined;
defineDeckCheck(api === undefined ? {} : { api });
