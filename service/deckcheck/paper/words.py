"""The words printed on a registration sheet and read back from one, in Japanese and English."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.sentences import SENTENCES


@dataclass(frozen=True, slots=True)
class SheetWords:
    """The sheet's title, field labels, section and kind headings, and its footer."""

    title: str
    furigana: str
    player_name: str
    player_id: str
    event: str
    date: str
    format: str
    main: str
    kinds: dict[str, str]
    extra: str
    side: str
    totals: str
    count: str  # a heading's count: `{0}枚` beside a Japanese title (OCR reads `(9)` there as ⑨), `({0})` in English

    def heading(self, title: str, count: int) -> str:
        """A heading with its count: `サイドデッキ 9枚`, `Side Deck (9)`."""
        return f"{title} {self.count.format(count)}"

    def labels(self) -> tuple[str, ...]:
        """The words of the sheet that are not cards: what a reader of the sheet passes over."""
        return (self.title, self.furigana, self.player_name, self.player_id, self.event, self.date, self.format)


def _sheet_words(lang: str) -> SheetWords:
    """The sheet's words in `lang` from the paper catalogue, its templates unfilled."""
    texts = {name.removeprefix("sheet."): sentence.text(lang, None) for name, sentence in SENTENCES["paper"].items()}
    return SheetWords(
        title=texts["title"],
        furigana=texts["furigana"],
        player_name=texts["player_name"],
        player_id=texts["player_id"],
        event=texts["event"],
        date=texts["date"],
        format=texts["format"],
        main=texts["main"],
        kinds={kind: texts[f"kinds.{kind}"] for kind in ("monster", "spell", "trap")},
        extra=texts["extra"],
        side=texts["side"],
        totals=texts["totals"],
        count=texts["count"],
    )


SHEET_WORDS = {lang: _sheet_words(lang) for lang in ("ja", "en")}
