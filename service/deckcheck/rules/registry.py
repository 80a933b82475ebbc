"""The one registry of rule codes: what each rule says, where, the penalty and its basis, messages and remedy.

Citations: "TR" is the 2008-03-15 OCG tournament rules (大会規定), "PR" the penalty regulations (大会罰則規定).
The catalogue endpoint, the README table and the tests all read this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

RULESET = "ocg-2008-03-15"

# PR 1, least to most severe.
PENALTIES = ("caution", "warning", "duel_forfeiture", "match_forfeiture", "disqualification", "total_disqualification")
SEVERITY = MappingProxyType({name: rank for rank, name in enumerate(PENALTIES)})

_REPLACE_EN = "Take out the violating cards and replace them with appropriate cards."
_REPLACE_JA = "違反しているカードを抜き、適切なカードと入れ替えてください。"


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule code and everything said about it."""

    code: str
    summary_en: str
    summary_ja: str
    rule: str
    penalty: str
    penalty_basis: str  # "explicit": PR names it; "by analogy": PR's closest named violation
    penalty_ref: str
    message_en: str
    message_ja: str
    remedy_en: str
    remedy_ja: str


def _rule(*fields: str) -> tuple[str, Rule]:
    rule = Rule(*fields)
    return rule.code, rule


RULES = MappingProxyType(
    dict(
        (
            _rule(
                "main_deck_too_small",
                "The main deck has fewer than 40 cards.",
                "メインデッキが40枚未満。",
                "TR 3, TR 4.15",
                "duel_forfeiture",
                "explicit",
                "PR 3.A.1",
                "The main deck holds {count} cards; it must hold at least {min}.",
                "メインデッキが{count}枚です。{min}枚以上にしなければなりません。",
                "Add appropriate cards to your main deck so that it has at least 40 cards.",
                "メインデッキが40枚以上になるよう、適切なカードを加えてください。",
            ),
            _rule(
                "main_deck_too_large",
                "The main deck has more than 60 cards.",
                "メインデッキが60枚を超えている。",
                "TR 3, TR 4.14",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A",
                "The main deck holds {count} cards; it may hold at most {max}.",
                "メインデッキが{count}枚です。{max}枚以内にしなければなりません。",
                "Take out cards so that your main deck has at most 60 cards.",
                "メインデッキが60枚以内になるよう、カードを抜いてください。",
            ),
            _rule(
                "extra_deck_too_large",
                "The extra deck has more than 15 cards.",
                "エクストラデッキが15枚を超えている。",
                "TR 1, TR 3, TR 4.14",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A",
                "The extra deck holds {count} cards; it may hold at most {max}.",
                "エクストラデッキが{count}枚です。{max}枚以内にしなければなりません。",
                "Take out cards so that your extra deck has at most 15 cards.",
                "エクストラデッキが15枚以内になるよう、カードを抜いてください。",
            ),
            _rule(
                "side_deck_too_large",
                "The side deck has more than 15 cards.",
                "サイドデッキが15枚を超えている。",
                "TR 1, TR 3, TR 4.14",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A",
                "The side deck holds {count} cards; it may hold at most {max}.",
                "サイドデッキが{count}枚です。{max}枚以内にしなければなりません。",
                "Take out cards so that your side deck has at most 15 cards.",
                "サイドデッキが15枚以内になるよう、カードを抜いてください。",
            ),
            _rule(
                "extra_deck_card_in_main_deck",
                "A Fusion or Synchro Monster is in the main deck.",
                "融合・シンクロモンスターがメインデッキに入っている。",
                "TR 1",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A",
                "{cards} is {type_en} Monster; it belongs in the extra deck, not the main deck.",
                "{cards}は{type_ja}モンスターです。メインデッキではなくエクストラデッキに入れてください。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "main_deck_card_in_extra_deck",
                "A card that is not a Fusion or Synchro Monster is in the extra deck.",
                "融合・シンクロモンスター以外のカードがエクストラデッキに入っている。",
                "TR 1",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A",
                "{cards} is not a Fusion or Synchro Monster and cannot be in the extra deck.",
                "{cards}は融合・シンクロモンスターではないため、エクストラデッキに入れられません。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "card_type_not_allowed",
                "A card of a type these rules do not know (Xyz, Link, Pendulum).",
                "この大会規定に存在しない種類のカード（エクシーズ・リンク・ペンデュラム）。",
                "TR 1",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A.3",
                "{cards} is {type_en} Monster, a card type the {ruleset} rules do not know.",
                "{cards}は{type_ja}モンスターで、この大会規定（{ruleset}）には存在しない種類のカードです。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "too_many_copies",
                "More than 3 copies of one card over main, extra and side deck.",
                "同名カードがデッキ・エクストラデッキ・サイドデッキを合わせて4枚以上。",
                "PR 3.A.2",
                "duel_forfeiture",
                "explicit",
                "PR 3.A.2",
                "The deck holds {count} copies of {cards}; at most {limit} copies of one card are allowed over main, "
                "extra and side deck.",
                "{cards}が{count}枚入っています。同名カードはデッキ・エクストラデッキ・サイドデッキを合わせて{limit}枚までです。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "forbidden_card",
                "A Forbidden card is in the main, extra or side deck.",
                "禁止カードがデッキ・エクストラデッキ・サイドデッキに入っている。",
                "TR 3",
                "duel_forfeiture",
                "explicit",
                "PR 3.A.3",
                "{cards} is Forbidden on {banlist}.",
                "{cards}は{banlist}で禁止カードです。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "limited_card_exceeded",
                "More than 1 copy of a Limited card.",
                "制限カードが2枚以上。",
                "TR 3",
                "duel_forfeiture",
                "explicit",
                "PR 3.A.4",
                "{cards} is Limited on {banlist}: the deck holds {count} copies, {limit} is allowed.",
                "{cards}は{banlist}で制限カードです（{count}枚、{limit}枚まで）。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "semi_limited_card_exceeded",
                "More than 2 copies of a Semi-Limited card.",
                "準制限カードが3枚以上。",
                "TR 3",
                "duel_forfeiture",
                "explicit",
                "PR 3.A.4",
                "{cards} is Semi-Limited on {banlist}: the deck holds {count} copies, {limit} are allowed.",
                "{cards}は{banlist}で準制限カードです（{count}枚、{limit}枚まで）。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "unknown_card",
                "A passcode or name that is not an official card.",
                "公式のカードではないパスワードまたはカード名。",
                "TR 3",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A.3",
                "{entry} does not name an official card.{hint}",
                "{entry}は公式のカードとして確認できません。{hint}",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "language_not_allowed",
                "A card in a language the rules do not allow.",
                "使用できない言語のカード。",
                "TR 1",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A.3",
                "The deck holds cards in the language '{language}' ({count} in all); only Japanese, English, French, "
                "Italian, Spanish, Portuguese, German and Korean cards may be used.",
                "言語「{language}」のカードが{count}枚あります。使用できるのは日本語版・英語版・フランス語版・イタリア語版・"
                "スペイン語版・ポルトガル語版・ドイツ語版・韓国語版のカードのみです。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "no_japanese_printing",
                "A card with no Japanese printing on the event date.",
                "大会日の時点で日本語版が存在しないカード。",
                "TR 1 ※",
                "duel_forfeiture",
                "by analogy",
                "PR 3.A.3",
                "{cards} had no Japanese printing on {date} ({first_en}); cards with no Japanese version may not be "
                "used.",
                "{cards}は{date}の時点で日本語版が存在しません（{first_ja}）。日本語版の存在しないカードは使用できません。",
                _REPLACE_EN,
                _REPLACE_JA,
            ),
            _rule(
                "opaque_protectors_required",
                "Cards of two or more languages without protectors that hide the common side.",
                "2種類以上の言語のカードを使用し、カード共通面が隠されるプロテクターを着用していない。",
                "TR 1 ※, TR 3",
                "caution",
                "by analogy",
                "PR 6.A",
                "The deck mixes cards in {languages}, and its protectors are not declared opaque-backed; protectors "
                "that hide the common side are required.",
                "{languages}のカードを混ぜてデッキを構築していますが、カード共通面が隠されるカードプロテクターの着用が"
                "申告されていません。",
                "Put every card of the deck, extra deck and side deck in identical protectors whose backs hide the "
                "common side.",
                "デッキ（エクストラデッキ・サイドデッキを含む）の全てのカードに、カード共通面が隠される同一のカード"
                "プロテクターを着用してください。",
            ),
            _rule(
                "protectors_not_uniform",
                "Sleeves or protectors that are not identical on every card.",
                "全てのカードに同一のスリーブ・プロテクターを使用していない。",
                "TR 3",
                "caution",
                "by analogy",
                "PR 6.A",
                "Not every card of the main, extra and side deck is in identical sleeves or protectors.",
                "デッキ（エクストラデッキ・サイドデッキを含む）の全てのカードに同一のカードスリーブ・カードプロテクターが"
                "使用されていません。",
                "Change the sleeves or protectors so that every card of the deck, extra deck and side deck uses "
                "identical ones.",
                "デッキ（エクストラデッキ・サイドデッキを含む）の全てのカードが同一のカードスリーブ・カードプロテクター"
                "になるよう交換してください。",
            ),
            _rule(
                "roster_mismatch",
                "The presented deck differs from the Deck Roster Sheet.",
                "デッキ内容がデッキ記入シートと一致しない。",
                "TR 2.B",
                "duel_forfeiture",
                "explicit",
                "PR 3.B",
                "The {section_en} does not match the Deck Roster Sheet: {details}.",
                "{section_ja}がデッキ記入シートと一致しません：{details}。",
                "Change your deck such that it exactly matches the one you listed on your Deck Roster Sheet.",
                "デッキ記入シートに記入した内容と完全に一致するよう、デッキを修正してください。",
            ),
            _rule(
                "side_swap_count_changed",
                "After siding, the main or extra deck count differs from the registered one.",
                "サイドデッキとの交換後、デッキまたはエクストラデッキの枚数が交換前と異なる。",
                "TR 2.D.8",
                "duel_forfeiture",
                "by analogy",
                "PR 3.B",
                "After siding, the {section_en} holds {presented} cards; it must hold as many as registered "
                "({registered}).",
                "サイドデッキとの交換後の{section_ja}が{presented}枚です。交換前と同じ{registered}枚でなければなりません。",
                "Swap cards with your side deck one for one, so that your main deck and extra deck hold as many cards "
                "as registered.",
                "デッキとエクストラデッキの枚数が交換前と同じになるよう、サイドデッキと1枚ずつ交換してください。",
            ),
        )
    )
)

CODE_ORDER = MappingProxyType({code: rank for rank, code in enumerate(RULES)})
