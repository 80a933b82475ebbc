"""The words printed on a registration sheet and read back from one, in Japanese and English."""

from __future__ import annotations

from dataclasses import dataclass


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


SHEET_WORDS = {
    "ja": SheetWords(
        title="デッキ登録用紙",
        furigana="フリガナ",
        player_name="氏名",
        player_id="ユーザーID（CARD GAME ID）",
        event="大会名",
        date="日付",
        format="フォーマット",
        main="メインデッキ",
        kinds={"monster": "モンスターカード", "spell": "魔法カード", "trap": "罠カード"},
        extra="エクストラデッキ",
        side="サイドデッキ",
        totals="deckcheck · メイン {main}枚 / エクストラ {extra}枚 / サイド {side}枚 · データ {data}",
        count="{0}枚",
    ),
    "en": SheetWords(
        title="Deck Registration Sheet",
        furigana="Furigana (name reading)",
        player_name="Player name",
        player_id="CARD GAME ID",
        event="Event",
        date="Date",
        format="Format",
        main="Main Deck",
        kinds={"monster": "Monster Cards", "spell": "Spell Cards", "trap": "Trap Cards"},
        extra="Extra Deck",
        side="Side Deck",
        totals="deckcheck · Main {main} / Extra {extra} / Side {side} · data {data}",
        count="({0})",
    ),
}
