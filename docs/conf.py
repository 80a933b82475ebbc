"""Sphinx configuration of the deckcheck documentation site (MyST Markdown, furo).

Build it strictly, as scripts/check does: `.venv/bin/sphinx-build -W --keep-going -n -b html docs build/docs`.
Nothing here reaches the network: no intersphinx inventories, no external link checks.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx

project = "deckcheck"
author = "the deckcheck project"
copyright = "the deckcheck project"
language = "en"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# Links between pages and to their sections are checked at build time: a heading's slug (down to ###) is a target.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
nitpicky = True

html_theme = "furo"
html_title = "deckcheck"
html_static_path = ["_static"]

# A line of Japanese wrapped in the Markdown source would show a space where it was wrapped (a browser sets a line
# break between two words as a space, and Japanese has no spaces between words): the break (MyST's soft break, a text
# of its own) is taken out where it stands between two Japanese characters.
_CJK = re.compile("[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _unwrap_japanese(_app: Sphinx, doctree: nodes.document) -> None:
    for text in list(doctree.findall(nodes.Text)):
        if text.astext() != "\n" or text.parent is None:
            continue
        siblings = text.parent.children
        at = siblings.index(text)
        before = siblings[at - 1].astext()[-1:] if at > 0 else ""
        after = siblings[at + 1].astext()[:1] if at + 1 < len(siblings) else ""
        if _CJK.match(before) and _CJK.match(after):
            text.parent.remove(text)


def setup(app: Sphinx) -> None:
    """Take out the breaks of wrapped Japanese lines (above)."""
    app.connect("doctree-read", _unwrap_japanese)
