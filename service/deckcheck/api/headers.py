"""Request headers whose values are text beyond ASCII: an inline list in Deckcheck-Banlist or Deckcheck-Previous
names cards and itself in Japanese. HTTP carries a header's value as bytes, and Starlette reads them as latin-1
(a character a byte). curl, Go's net/http and a client handed bytes send the UTF-8 of the text (a browser's fetch
refuses such a header outright; the Python client escapes it to ASCII JSON, which reads the same either way), so
such a value is read back as the UTF-8 its bytes are, and bytes that are no UTF-8 are refused, not guessed at."""

from __future__ import annotations

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError


def _utf8(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return value.encode("latin-1").decode("utf-8")  # the bytes sent, since latin-1 maps each to a character
    except UnicodeDecodeError as exc:
        raise PydanticCustomError(
            "header_not_utf8",
            "not UTF-8 text (at byte {byte}, counting from 0): send the list as UTF-8, or as JSON escaped to ASCII",
            {"byte": exc.start},
        ) from None


UTF8 = AfterValidator(_utf8)
"""A header parameter's value read as UTF-8: `Annotated[str | None, Header(…), UTF8]`; 422 for other bytes."""
