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

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.api.app_state import app_state
from deckcheck.api.live_data import served
from deckcheck.api.page_files import LOCKED, VENDOR_URL, Asset
from deckcheck.errors import NotFound

DESK_URL = "/desk"
ELEMENTS_URL = "/elements"
# The methods every page and file answers: HEAD is GET's headers without the body.
READ = ["GET", "HEAD"]
# The desk page: its own files (its modules, which import each other, and jsQR among them) and the API only.
# Images decoded for QR codes come from the chosen file as blob: or data: URLs; the camera's picture is a MediaStream.
DESK_CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " + LOCKED
NO_CACHE = "no-cache"
KEPT_A_YEAR = "public, max-age=31536000, immutable"


def _answer(
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


def _find(assets: dict[str, Asset], name: str) -> Asset:
    found = assets.get(name)
    if found is None:
        raise NotFound.one(["path", "name"], f"No file is called {name}.", "unknown_file")
    return found


router = APIRouter(include_in_schema=False)
"""The desk page, its files, the vendored files and /docs; none of them in the OpenAPI document. Answered on
the event loop (from memory), never behind the checks; GET and HEAD, whatever the query string."""


@router.api_route(DESK_URL, methods=READ)
@router.api_route(f"{DESK_URL}/", methods=READ)
async def desk_page(request: Request) -> Response:
    """The registration desk's page."""
    return _answer(request, app_state(request).pages.page, NO_CACHE, DESK_CSP)


@router.api_route(DESK_URL + "/{name}", methods=READ)
async def desk_file(request: Request, name: str) -> Response:
    """The desk page's scripts and stylesheets: revalidated like the page, as they change with it. `name` is one
    path segment: the page's files lie side by side in desk/, and its modules import each other as ./name.js."""
    return _answer(request, _find(app_state(request).pages.desk, name), NO_CACHE)


@router.api_route(ELEMENTS_URL + "/{name}", methods=READ)
async def element_file(request: Request, name: str) -> Response:
    """The script of the `<deck-check>` element, for a page of any host to include."""
    return _answer(request, _find(app_state(request).pages.elements, name), NO_CACHE, cross_origin=True)


@router.api_route(VENDOR_URL + "/{name:path}", methods=READ)
async def vendor_file(request: Request, name: str) -> Response:
    """A third-party file at its pinned version, whose URL names it."""
    return _answer(request, _find(app_state(request).pages.vendor, name), KEPT_A_YEAR)


@router.api_route("/docs", methods=READ)
async def swagger_ui(request: Request) -> Response:
    """Swagger UI for the OpenAPI document, from the vendored files."""
    pages = app_state(request).pages
    return _answer(request, pages.docs, NO_CACHE, pages.docs_csp)
