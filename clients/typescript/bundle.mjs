// The element as one classic script (dist/deck-check.js), the file the service serves at /elements/deck-check.js:
// src/served.ts and everything it imports, openapi-fetch among them, whose MIT licence asks that its notice go with
// every copy, so the notice closes the file. Run by `npm run bundle`; src/served.ts is type-checked before.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const version = (folder) => JSON.parse(readFileSync(`${folder}/package.json`, "utf8")).version;
const fetchVersion = version("node_modules/openapi-fetch");
const licence = readFileSync("node_modules/openapi-fetch/LICENSE", "utf8").trim();

await build({
  entryPoints: ["src/served.ts"],
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  outfile: "dist/deck-check.js",
  banner: {
    js: `/*! <deck-check> from deckcheck-client ${version(".")}: bundled from clients/typescript/src/served.ts by npm run bundle; not edited by hand. */`,
  },
  footer: { js: `/*! openapi-fetch ${fetchVersion}, bundled above:\n\n${licence}\n*/` },
});
