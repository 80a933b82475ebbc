"""The pages people open in a browser: the registration desk's page (GET /desk) and the API's documentation (GET /docs,
Swagger UI); and the script other sites' pages include to show a deck's verdict (GET /elements/deck-check.js, the
`<deck-check>` element). All are served from files inside the package (`deckcheck/static/`: the desk page's own files
under `desk/`, the element's under `elements/`, third-party ones under `vendor/`, fetched by `scripts/vendor-assets`),
so at a venue with no internet the pages work with the service alone; a Content-Security-Policy makes the browser
refuse anything from another host besides. They answer GET and HEAD, and ignore a query string (a cache-buster, a
tracking tag).

Caching: every file changes only with a release, and the data version covers the package's files, so the data version is
each file's strong ETag. The HTML is revalidated on every load (`no-cache`, a 304 when unchanged), so a new release's
page is seen at once. The page's own scripts and stylesheets are revalidated like the HTML: they change together with
it, and a page must never run with the scripts of another release, nor one of its ES modules with another release's. A
vendored file lies in its package's folder, which `scripts/vendor-assets` names with the package's version
(`swagger-ui-5.35.0/`): its URL changes with an upgrade, so it is kept a year.

The element's script (`elements/`, built from clients/typescript by `npm run element` there) is for pages of any host:
its URL must stay the same across releases, so it is revalidated like the desk's files, and it says
`Cross-Origin-Resource-Policy: cross-origin` so that a page which isolates itself (COEP) may still load it. Its requests
to the API are what CORS governs (DECKCHECK_CORS_ORIGINS), as any page's.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import Response

from deckcheck.api.served import served
from deckcheck.errors import NotFound

STATIC = Path(__file__).resolve().parent.parent / "static"
DESK_URL = "/desk"
ELEMENTS_URL = "/elements"
VENDOR_URL = "/static/vendor"
# The files served, by suffix; anything else in the folders (the notes, licences) ships in the package unserved.
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
}
# The methods every page and file answers: HEAD is GET's headers without the body.
READ = ["GET", "HEAD"]
# What every page may do, whatever else it is allowed: no plugins, no <base>, no forms sent anywhere, no framing.
_LOCKED = "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
# The desk page: its own files (its modules, which import each other, and jsQR among them) and the API only.
# Images decoded for QR codes come from the chosen file as blob: or data: URLs; the camera's picture is a MediaStream.
DESK_CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " + _LOCKED
NO_CACHE = "no-cache"
KEPT_A_YEAR = "public, max-age=31536000, immutable"


@dataclass(frozen=True, slots=True)
class Asset:
    """One file as served."""

    body: bytes
    media_type: str


def load_assets(folder: Path) -> dict[str, Asset]:
    """Every servable file under `folder`, read once, by its path relative to `folder` (forward slashes). Only
    these names are ever answered, so no request path reaches the file system."""
    return {
        path.relative_to(folder).as_posix(): Asset(path.read_bytes(), MEDIA_TYPES[path.suffix])
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix in MEDIA_TYPES
    }


def vendored(vendor: dict[str, Asset], name: str) -> str:
    """The path under vendor/ of the one vendored file called `name`, in its package's versioned folder."""
    (path,) = [path for path in vendor if PurePosixPath(path).name == name]
    return path


def docs_page(title: str, openapi_url: str, vendor: dict[str, Asset]) -> tuple[bytes, str]:
    """Swagger UI's page for `openapi_url` from the vendored files, and the Content-Security-Policy that lets its
    one inline script (FastAPI writes the configuration into the page) run, by the script's hash."""
    html = get_swagger_ui_html(
        openapi_url=openapi_url,
        title=title,
        swagger_js_url=f"{VENDOR_URL}/{vendored(vendor, 'swagger-ui-bundle.js')}",
        swagger_css_url=f"{VENDOR_URL}/{vendored(vendor, 'swagger-ui.css')}",
        swagger_favicon_url=f"{VENDOR_URL}/{vendored(vendor, 'favicon-32x32.png')}",
        # Swagger UI would otherwise send the document to its makers' online validator for a badge.
        swagger_ui_parameters={"validatorUrl": None},
    ).body
    inline = re.findall(rb"<script>(.*?)</script>", bytes(html), re.DOTALL)
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'" for script in inline)
    # Swagger UI sets its styles through the DOM, which style-src 'self' allows; its SVG icons are data: URLs in
    # its stylesheet.
    csp = f"default-src 'self'; script-src 'self' {hashes}; img-src 'self' data:; "
    return bytes(html), csp + _LOCKED


def build_pages_router(title: str, openapi_url: str) -> APIRouter:
    """The desk page, its files, the vendored files and /docs; none of them in the OpenAPI document. Answered on
    the event loop (from memory), never behind the checks; GET and HEAD, whatever the query string."""
    router = APIRouter(include_in_schema=False)
    desk = load_assets(STATIC / "desk")
    page = desk.pop("index.html")  # only at /desk, always with its Content-Security-Policy
    elements = load_assets(STATIC / "elements")
    vendor = load_assets(STATIC / "vendor")
    docs, docs_csp = docs_page(title, openapi_url, vendor)

    def answer(
        request: Request, asset: Asset, cache_control: str, csp: str | None = None, cross_origin: bool = False
    ) -> Response:
        # A 304 when the browser's copy is this release's.
        caching = served(request).caching
        etag = caching.etag()
        response = caching.answer(request, etag, cache_control=cache_control)
        if response is None:
            body = Response(asset.body, media_type=asset.media_type)
            response = caching.keep(body, etag, cache_control=cache_control)
        response.headers["X-Content-Type-Options"] = "nosniff"
        if csp is not None:
            response.headers["Content-Security-Policy"] = csp
        if cross_origin:
            response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
        return response

    def find(assets: dict[str, Asset], name: str) -> Asset:
        found = assets.get(name)
        if found is None:
            raise NotFound.one(["path", "name"], f"No file is called {name}.", "unknown_file")
        return found

    @router.api_route(DESK_URL, methods=READ)
    @router.api_route(f"{DESK_URL}/", methods=READ)
    async def desk_page(request: Request) -> Response:
        """The registration desk's page."""
        return answer(request, page, NO_CACHE, DESK_CSP)

    @router.api_route(DESK_URL + "/{name}", methods=READ)
    async def desk_file(request: Request, name: str) -> Response:
        """The desk page's scripts and stylesheets: revalidated like the page, as they change with it. `name` is one
        path segment: the page's files lie side by side in desk/, and its modules import each other as ./name.js."""
        return answer(request, find(desk, name), NO_CACHE)

    @router.api_route(ELEMENTS_URL + "/{name}", methods=READ)
    async def element_file(request: Request, name: str) -> Response:
        """The script of the `<deck-check>` element, for a page of any host to include."""
        return answer(request, find(elements, name), NO_CACHE, cross_origin=True)

    @router.api_route(VENDOR_URL + "/{name:path}", methods=READ)
    async def vendor_file(request: Request, name: str) -> Response:
        """A third-party file at its pinned version, whose URL names it."""
        return answer(request, find(vendor, name), KEPT_A_YEAR)

    @router.api_route("/docs", methods=READ)
    async def swagger_ui(request: Request) -> Response:
        """Swagger UI for the OpenAPI document, from the vendored files."""
        return answer(request, Asset(docs, MEDIA_TYPES[".html"]), NO_CACHE, docs_csp)

    return router
