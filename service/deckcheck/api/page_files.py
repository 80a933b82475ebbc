"""The files the pages serve (api/pages.py), read from the package when an app is made, and the /docs page made for
the app's OpenAPI document."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fastapi.openapi.docs import get_swagger_ui_html

STATIC = Path(__file__).resolve().parent.parent / "static"
VENDOR_URL = "/static/vendor"
# The files served, by suffix; anything else in the folders (the notes, licences) ships in the package unserved.
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
}
# What every page may do, whatever else it is allowed: no plugins, no <base>, no forms sent anywhere, no framing.
LOCKED = "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"


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
    return bytes(html), csp + LOCKED


@dataclass(frozen=True, slots=True)
class PageFiles:
    """The files one app serves, each read once when the app is made, and its /docs page."""

    page: Asset
    """The desk's page, only at /desk, always with its Content-Security-Policy."""
    desk: dict[str, Asset]
    """The desk page's own files."""
    elements: dict[str, Asset]
    vendor: dict[str, Asset]
    docs: Asset
    """Swagger UI's page for the app's OpenAPI document, whose inline script `docs_csp` lets run."""
    docs_csp: str

    @classmethod
    def load(cls, title: str, openapi_url: str) -> PageFiles:
        """Read the files, and make /docs for the document at `openapi_url`, titled `title`."""
        desk = load_assets(STATIC / "desk")
        page = desk.pop("index.html")
        vendor = load_assets(STATIC / "vendor")
        docs, docs_csp = docs_page(title, openapi_url, vendor)
        elements = load_assets(STATIC / "elements")
        return cls(page, desk, elements, vendor, Asset(docs, MEDIA_TYPES[".html"]), docs_csp)
