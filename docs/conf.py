"""Sphinx configuration of the deckcheck documentation site (MyST Markdown, furo).

Build it strictly, as scripts/check does: `.venv/bin/sphinx-build -W --keep-going -n -b html docs build/docs`.
Nothing here reaches the network: no intersphinx inventories, no external link checks.
"""

from __future__ import annotations

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
