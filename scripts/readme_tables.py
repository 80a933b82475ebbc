"""Write the judges' guide's infraction table from the catalogue: `python -m scripts.readme_tables`.

The table stands in docs/judges/index.md between the markers `<!-- infractions -->` and `<!-- /infractions -->`;
tests/test_judge.py fails when the page's differs from `render()`.
"""

from __future__ import annotations

from pathlib import Path

from deckcheck.rules.infractions import FAMILIES, INFRACTIONS
from deckcheck.wire.judge.bodies import depends_on

PAGE = Path(__file__).resolve().parent.parent / "docs" / "judges" / "index.md"
START, END = "<!-- infractions -->\n", "<!-- /infractions -->\n"


def render() -> str:
    """The table of the infractions beyond the deck (PR 4 to PR 10), in catalogue order."""
    rows = ["| code | what | rule | penalty | assessed by | depends on |", "|---|---|---|---|---|---|"]
    for item in INFRACTIONS.values():
        if item.kind == "deck":
            continue
        family = f"`{item.family}`" if len(FAMILIES[item.family]) > 1 else ""
        if item.minutes_late is not None:
            family += f" from {item.minutes_late} min"
        facts = ", ".join(f"`{fact}`" for fact in depends_on(item))
        rows.append(f"| `{item.code}` | {item.summary_en} | {item.rule} | {item.penalty} | {family} | {facts} |")
    return "\n".join(rows) + "\n"


def written(page: str) -> str:
    """`page` with the table between its markers replaced by `render()`."""
    head, rest = page.split(START, 1)
    _old, tail = rest.split(END, 1)
    return head + START + render() + END + tail


def main() -> None:
    """Rewrite the page's table."""
    PAGE.write_text(written(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the infraction table to {PAGE}")


if __name__ == "__main__":
    main()
