"""The desk page (GET /desk), the documentation (GET /docs) and the `<deck-check>` element's script as HTTP serves them:
their types, policies and caching, every file they name served by the service itself, no other host named where a
browser would load from, and the vendored third-party files the same bytes, versions and licences as their notes and the
script that fetched them say, each at a URL that names its version. The pages ignore a query string and answer HEAD. The
desk page's own scripts are ES modules the browser loads by their relative imports: they are followed here as the
browser follows them, and each of its scripts and stylesheets stays small. The page at work in a browser is
tests/test_desk.py."""

from __future__ import annotations

import base64
import graphlib
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest

from deckcheck.api.page_files import MEDIA_TYPES, STATIC

ROOT = Path(__file__).resolve().parent.parent
DESK = STATIC / "desk"
VENDOR = STATIC / "vendor"
MAX_LINES = 300  # for each of the desk page's own scripts and stylesheets, as for a Python module (test_layout.py)
# A vendored file lies in its package's folder, named with the package's version (jsqr-1.4.0/jsQR.js): an upgrade
# changes its URL, so it is kept a year.
VERSIONED = re.compile(r"/static/vendor/[a-z-]+-\d+\.\d+\.\d+/[^/]+")
KEPT = "public, max-age=31536000, immutable"
# Headers that differ from one answer to the next.
PER_ANSWER = {"date", "x-request-id"}
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
}
DESK_POLICY = {
    "default-src": ["'self'"],
    "connect-src": ["'self'"],
    "img-src": ["'self'", "data:", "blob:"],
    "media-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "frame-ancestors": ["'none'"],
}
# The element ids the desk's browser tests and its contract rely on.
DESK_IDS = [
    "lang",
    "settings",
    "event-date",
    "event-format",
    "event-banlist",
    "default-language",
    "protectors-used",
    "protectors-opaque",
    "protectors-uniform",
    "player",
    "submission",
    "scan",
    "submission-file",
    "qr-file",
    "camera",
    "check",
    "roster",
    "roster-registered",
    "roster-presented",
    "roster-duel",
    "roster-phase",
    "roster-check",
    "verdict",
    "verdict-penalty",
    "violations",
    "source",
    "verdict-close",
    "error",
    "queue",
    "queue-export",
    "queue-clear",
    "print",
]
# Hosts the vendored scripts and stylesheet name, none of which a page here loads from (the pages' policies allow
# only the service's own host): XML and JSON Schema namespaces and OpenAPI dialect identifiers, links to standards
# and documentation in texts and error messages, examples in the bundled libraries' code, and the online validator
# that /docs turns off. A new host after an upgrade fails here, to be looked at before it is added.
NAMED_HOSTS = {
    "jsQR.js": {"en.wikipedia.org"},
    "swagger-ui.css": {"www.w3.org"},
    "swagger-ui-bundle.js": {
        "www.w3.org",
        "json-schema.org",
        "spec.openapis.org",
        "datatracker.ietf.org",
        "www.rfc-editor.org",
        "spdx.org",
        "github.com",
        "swagger.io",
        "validator.swagger.io",
        "reactjs.org",
        "redux.js.org",
        "fb.me",
        "vladimirgorej.com",
        "example.com",
        "base",
        "twitter.com",
        "instagram.com",
        "www.facebook.com",
        "www.tiktok.com",
        "soundcloud.com",
    },
}
URL = re.compile(r"\bhttps?://([A-Za-z0-9.-]+)")
ELEMENT = "/elements/deck-check.js"  # the script other sites' pages include (clients/typescript, npm run element)
# A static import at the start of a line, on one line or several: `import {a, b} from "./a.js";`, `import "./b.js";`.
IMPORT = re.compile(r'^import\b[^"]*"([^"]+)";', re.MULTILINE)


class References(HTMLParser):
    """The URLs an HTML page loads (src and href of its elements) and the text of its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.scripts: list[str] = []
        self.ids: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Note the element's URLs and id."""
        found = dict(attrs)
        self.urls += [value for name, value in attrs if name in ("src", "href") and value]
        if found.get("id"):
            self.ids.append(str(found["id"]))
        self._in_script = tag == "script" and "src" not in found

    def handle_endtag(self, tag: str) -> None:
        """Leave an inline script."""
        self._in_script = False

    def handle_data(self, data: str) -> None:
        """Keep an inline script's text."""
        if self._in_script:
            self.scripts.append(data)


def references(html: str) -> References:
    """What `html` refers to."""
    parser = References()
    parser.feed(html)
    return parser


def vendored(name: str) -> str:
    """The URL of the vendored file called `name`: its path under vendor/, in its package's folder."""
    (path,) = VENDOR.rglob(name)
    return f"/static/vendor/{path.relative_to(VENDOR).as_posix()}"


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as its directives."""
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: values for name, *values in directives}


def desk_modules(client: httpx.Client) -> dict[str, list[str]]:
    """The desk page's ES modules by URL, each with the URLs of those it imports: the page's scripts and every module
    they import, followed from one to the next as the browser follows them."""
    graph: dict[str, list[str]] = {}
    todo = [url for url in references(client.get("/desk").text).urls if url.endswith(".js")]
    while todo:
        url = todo.pop()
        if url not in graph:
            graph[url] = [urljoin(url, name) for name in IMPORT.findall(client.get(url).text)]
            todo += graph[url]
    return graph


def desk_files(client: httpx.Client) -> list[str]:
    """The URLs of the desk page and of every file it loads: its stylesheets, its modules and the vendored jsQR one
    of them imports when it first reads a picture."""
    page = references(client.get("/desk").text)
    modules = desk_modules(client)
    loaded = [url for module in modules for url in re.findall(r'"(/static/vendor/[^"]+)"', client.get(module).text)]
    files = [*(url for url in page.urls if not url.startswith("data:")), *modules, *loaded]
    return ["/desk", *dict.fromkeys(files)]


def page_files(client: httpx.Client) -> list[str]:
    """The URLs of both pages, of every file they load, and of the element's script."""
    docs = [url for url in references(client.get("/docs").text).urls if url.startswith("/static/")]
    return [*desk_files(client), "/docs", *docs, ELEMENT]


def own_files(client: httpx.Client) -> list[str]:
    """The URLs of the desk page's own scripts and stylesheets, as it loads them."""
    return [url for url in desk_files(client) if url.startswith("/desk/")]


def test_the_desk_page_is_html_under_a_policy_that_allows_only_its_own_host(client: httpx.Client) -> None:
    for path in ("/desk", "/desk/"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.headers["Content-Type"] == TYPES[".html"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert policy(answer.headers["Content-Security-Policy"]) == DESK_POLICY
    ids = references(client.get("/desk").text).ids
    assert sorted(set(ids)) == sorted(ids)
    assert [name for name in DESK_IDS if name not in ids] == []


def test_every_file_the_pages_name_is_served_with_its_type(client: httpx.Client) -> None:
    files = page_files(client)
    vendor = [vendored(name) for name in ("favicon-32x32.png", "jsQR.js", "swagger-ui-bundle.js", "swagger-ui.css")]
    # Every script and stylesheet in the page's folder is loaded, and nothing else of it.
    assert sorted(own_files(client)) == sorted(f"/desk/{p.name}" for p in DESK.iterdir() if p.suffix in (".js", ".css"))
    assert sorted(url for url in files if url.startswith("/static/vendor/")) == sorted(vendor)
    assert sorted({Path(url).suffix or ".html" for url in files}) == sorted(MEDIA_TYPES)  # each type is one served
    for url in files:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["Content-Type"] == TYPES[Path(url).suffix or ".html"], url
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_the_documentation_is_swagger_ui_from_the_service_alone(client: httpx.Client) -> None:
    answer = client.get("/docs")
    page = references(answer.text)
    (script,) = page.scripts
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    rules = policy(answer.headers["Content-Security-Policy"])

    assert answer.headers["Content-Type"] == TYPES[".html"]
    assert sorted(page.urls) == [
        vendored(name) for name in ("favicon-32x32.png", "swagger-ui-bundle.js", "swagger-ui.css")
    ]
    assert "url: '/openapi.json'" in script
    assert '"validatorUrl": null' in script  # no badge from the online validator
    assert rules["default-src"] == ["'self'"]
    assert rules["script-src"] == ["'self'", f"'sha256-{digest}'"]  # the one inline script, by its hash
    assert "style-src" not in rules
    assert client.get("/openapi.json").status_code == 200
    for gone in ("/redoc", "/docs/oauth2-redirect"):
        assert client.get(gone).status_code == 404


def test_no_page_or_file_of_the_service_names_another_host_to_load_from(client: httpx.Client) -> None:
    own = ["/desk", *own_files(client), "/docs", ELEMENT]
    for url in own:
        assert URL.findall(client.get(url).text) == [], url
    for url in ("/desk", "/docs"):
        assert [u for u in references(client.get(url).text).urls if not u.startswith(("/", "data:"))] == []
        assert [u for u in references(client.get(url).text).urls if u.startswith("//")] == []
    for url in [*(url for url in own if url.endswith(".css")), vendored("swagger-ui.css")]:
        loads = re.findall(r"url\(\s*['\"]?([^'\")]*)", client.get(url).text) + re.findall(
            r"@import", client.get(url).text
        )
        assert [u for u in loads if not u.startswith("data:")] == [], url
    for name, hosts in NAMED_HOSTS.items():
        assert set(URL.findall(client.get(vendored(name)).text)) == hosts, name


def test_the_pages_are_revalidated_and_the_vendored_files_kept_a_year(client: httpx.Client) -> None:
    for url in page_files(client):
        answer = client.get(url)
        etag = answer.headers["ETag"]
        assert etag == f'"{answer.headers["Deckcheck-Data-Version"]}"'  # the data version covers the package's files
        assert answer.headers["Cache-Control"] == (KEPT if VERSIONED.fullmatch(url) else "no-cache"), url
        again = client.get(url, headers={"If-None-Match": etag})
        assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", etag), url
        assert again.headers["Cache-Control"] == answer.headers["Cache-Control"]
        assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/desk/nothing.js",
        "/desk/index.html",  # the page only at /desk, with its policy
        "/static/vendor/VENDORED.md",  # notes and licences ship in the package but are not served
        "/static/vendor/jsqr-1.4.0/LICENSE",
        "/static/vendor/swagger-ui/swagger-ui.css",  # a vendored file only at its versioned URL
        "/static/vendor/jsqr/jsQR.js",
        "/static/vendor/jsqr-1.3.0/jsQR.js",
        "/static/vendor/%2e%2e/desk/desk.js",
        "/static/vendor/swagger-ui/../../../api/pages.py",
        "/elements/other.js",
        "/elements/%2e%2e/desk/desk.js",
    ],
)
def test_only_the_pages_files_are_served(client: httpx.Client, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["Content-Type"] == "application/problem+json"


def test_the_element_script_may_be_loaded_by_a_page_of_any_host(client: httpx.Client) -> None:
    # A classic <script> needs neither header; a module script needs CORS, and a page isolated by COEP needs CORP.
    answer = client.get(ELEMENT, headers={"Origin": "https://decks.example"})
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == TYPES[".js"]
    assert answer.headers["Cross-Origin-Resource-Policy"] == "cross-origin"
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert answer.content == (STATIC / "elements" / "deck-check.js").read_bytes()
    assert "Content-Security-Policy" not in answer.headers  # the including page's policy is the one that applies


def test_the_pages_and_their_files_ignore_a_query_string(client: httpx.Client) -> None:
    for url in [*page_files(client), "/desk/"]:
        plain = client.get(url)
        for query in ("?v=2", "?x=1&utm_source=newsletter"):
            answer = client.get(url + query)
            assert (answer.status_code, answer.headers["Content-Type"], answer.content) == (
                200,
                plain.headers["Content-Type"],
                plain.content,
            ), url + query


def test_the_pages_and_their_files_answer_head_with_the_headers_of_get(client: httpx.Client) -> None:
    for url in [*page_files(client), "/desk/"]:
        got, head = client.get(url), client.head(url)
        assert (head.status_code, head.content) == (200, b""), url
        assert {k: v for k, v in head.headers.items() if k not in PER_ANSWER} == {
            k: v for k, v in got.headers.items() if k not in PER_ANSWER
        }, url
        unchanged = client.head(url, headers={"If-None-Match": got.headers["ETag"]})
        assert (unchanged.status_code, unchanged.content) == (304, b""), url


def test_the_page_has_every_word_in_both_languages(client: httpx.Client) -> None:
    words = client.get("/desk/words.js").text
    table = re.search(r"\nexport const WORDS = \{\n(.*?)\n\};", words, re.DOTALL)
    assert table is not None
    # Each key gives its words in Japanese, then English: `key: ["…", "…"],`.
    pairs = re.findall(r'(\w+): \[("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\]', table.group(1))
    japanese = {key for key, ja, _en in pairs if json.loads(ja)}
    english = {key for key, _ja, en in pairs if json.loads(en)}
    used = set(re.findall(r'data-i18n="(\w+)"', client.get("/desk").text))
    for module in desk_modules(client):
        used |= set(re.findall(r'\bt\("(\w+)"', client.get(module).text))
    assert japanese == english
    assert used - japanese == set()


def test_the_pages_modules_import_each_other_by_relative_path_and_in_no_circle(client: httpx.Client) -> None:
    modules = desk_modules(client)
    names = [name for url in modules for name in IMPORT.findall(client.get(url).text)]

    assert "/desk/desk.js" in modules
    assert len(modules) > 1
    assert [name for name in names if not re.fullmatch(r"\./[a-z]+\.js", name)] == []  # beside it, no build step
    assert list(graphlib.TopologicalSorter(modules).static_order())  # a circle raises graphlib.CycleError


def test_each_of_the_pages_own_scripts_and_stylesheets_is_small(client: httpx.Client) -> None:
    own = own_files(client)
    lines = {url: len(client.get(url).text.splitlines()) for url in own}

    assert {Path(url).suffix for url in own} == {".js", ".css"}
    assert {url: count for url, count in lines.items() if count > MAX_LINES} == {}


def notes() -> tuple[dict[str, list[str]], dict[str, str]]:
    """VENDORED.md: each package's row (version, licence, integrity, folder) and each file's SHA-256."""
    rows = [
        [cell.strip().strip("`") for cell in line.strip("|").split("|")]
        for line in (VENDOR / "VENDORED.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith(("| package", "| file"))
    ]
    packages = {row[0]: row[1:] for row in rows if len(row) == 5}
    files = {row[0]: row[1] for row in rows if len(row) == 2}
    return packages, files


def test_the_vendored_files_are_what_their_notes_and_pins_say(client: httpx.Client) -> None:
    packages, files = notes()
    script = (ROOT / "scripts" / "vendor-assets").read_text(encoding="utf-8")
    pins = {
        name: [version, integrity, f"{folder}-{version}"]  # the folder is named with the version
        for name, version, integrity, folder in re.findall(
            r'^  "([\w.-]+)\|([\d.]+)\|(sha512-[\w+/=]+)\|([\w-]+)\|', script, re.MULTILINE
        )
    }
    on_disk = sorted(p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*") if p.is_file())
    bundle = (VENDOR / f"swagger-ui-{packages['swagger-ui-dist'][0]}" / "swagger-ui-bundle.js").read_text("utf-8")

    noted = {
        name: [version, integrity, folder.rstrip("/")] for name, (version, _, integrity, folder) in packages.items()
    }
    assert noted == pins
    assert {name: row[1] for name, row in packages.items()} == {"jsqr": "Apache-2.0", "swagger-ui-dist": "Apache-2.0"}
    assert packages["jsqr"][0] == "1.4.0"
    assert packages["swagger-ui-dist"][0].startswith("5.")  # the document is OpenAPI 3.1
    assert f'PACKAGE_VERSION:"{packages["swagger-ui-dist"][0]}"' in bundle
    assert on_disk == sorted([*files, "VENDORED.md"])
    for name, digest in files.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
    for _version, _licence, _integrity, folder in packages.values():
        assert f"{folder}LICENSE" in files
    for name in ("jsQR.js", "swagger-ui-bundle.js", "swagger-ui.css"):
        (path,) = VENDOR.rglob(name)
        assert client.get(vendored(name)).content == path.read_bytes()
        assert "sourceMappingURL" not in path.read_text(encoding="utf-8")
