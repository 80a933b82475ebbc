"""The closed sets of values the answers hold, each a named type (a component schema of its own in the OpenAPI
document, so a generated client gets a named union or enum).

Each is a `Literal` spelled out, so a type checker knows every value; tests/test_openapi.py holds each to the table
the service takes its values from (the rule registry, the card data, the eras), so none can drift unnoticed. The
request-side ones (`Format`, `DeckFormat`, `Phase`, ...) live in deckcheck.wire.request_values.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypeAliasType

# The rule codes, also the first infraction codes (wire/judge/enums.py).
RuleCodes = Literal[
    "main_deck_too_small",
    "main_deck_too_large",
    "extra_deck_too_large",
    "side_deck_too_large",
    "extra_deck_card_in_main_deck",
    "main_deck_card_in_extra_deck",
    "card_type_not_allowed",
    "too_many_copies",
    "forbidden_card",
    "limited_card_exceeded",
    "semi_limited_card_exceeded",
    "unknown_card",
    "language_not_allowed",
    "no_japanese_printing",
    "no_tcg_printing",
    "not_printed_in_language",
    "opaque_protectors_required",
    "protectors_not_uniform",
    "roster_mismatch",
    "side_swap_count_changed",
]
RuleCode = TypeAliasType(
    "RuleCode",
    Annotated[
        RuleCodes,
        Field(
            description="A stable violation code, one per rule of the catalogue (GET /v1/rules gives each with its "
            "citation, penalty and remedy). Codes are never renamed; a new rule adds a code.",
            examples=["forbidden_card"],
        ),
    ],
)
Penalty = TypeAliasType(
    "Penalty",
    Annotated[
        Literal[
            "caution", "warning", "duel_forfeiture", "match_forfeiture", "disqualification", "total_disqualification"
        ],
        Field(
            description="A penalty of the penalty regulations (大会罰則規定, PR 1), least to most severe: caution, "
            "warning, duel_forfeiture, match_forfeiture, disqualification, total_disqualification.",
            examples=["duel_forfeiture"],
        ),
    ],
)
PenaltyBasis = TypeAliasType(
    "PenaltyBasis",
    Annotated[
        Literal["explicit", "by analogy"],
        Field(
            description="explicit: the penalty regulations name this violation; by analogy: they do not, and the "
            "penalty is the one of the closest violation they name (cited in penalty_ref).",
            examples=["explicit"],
        ),
    ],
)
PenaltyAppliesTo = TypeAliasType(
    "PenaltyAppliesTo",
    Annotated[
        Literal["next_duel", "current_duel"],
        Field(
            description="Which duel a duel forfeiture (or worse) costs (PR 1.C): next_duel when found at registration "
            "or between duels, current_duel when found during a duel.",
            examples=["next_duel"],
        ),
    ],
)
Section = TypeAliasType(
    "Section",
    Annotated[
        Literal["main", "extra", "side"],
        Field(description="A section of a deck: main deck, extra deck or side deck.", examples=["main"]),
    ],
)
NoteCode = TypeAliasType(
    "NoteCode",
    Annotated[
        Literal["before_seeds", "later_card_types", "tcg_event", "no_list_in_force", "list_may_be_outdated"],
        Field(
            description="Where an answer reaches beyond the 2008-03-15 OCG tournament rules: before_seeds (an event "
            "before 2008-03-15: these rules were applied anyway), later_card_types (Xyz, Pendulum or Link Monsters "
            "are in force), tcg_event (a TCG event: the OCG documents' penalties and citations apply by analogy), "
            "no_list_in_force (no Forbidden/Limited list of the format for the date: only the three-copy rule held "
            "copies), list_may_be_outdated (the list was picked by the date, and a newer one than the newest the "
            "service holds may be in force by then, by the usual cadence of new lists).",
            examples=["later_card_types"],
        ),
    ],
)
CardType = TypeAliasType(
    "CardType",
    Annotated[
        Literal["fusion", "synchro", "xyz", "pendulum", "link"],
        Field(
            description="A monster type that decides where a card goes and from when it may be used: fusion and "
            "synchro (the 2008 rules), then xyz, pendulum and link from their first printing in the format.",
            examples=["synchro"],
        ),
    ],
)
CardLanguage = TypeAliasType(
    "CardLanguage",
    Annotated[
        Literal["ja", "en", "fr", "it", "es", "pt", "de", "ko"],
        Field(
            description="A card language of TR 1, as a two-letter code: ja (OCG), en, fr, it, es, pt, de (TCG), ko "
            "(Korean OCG).",
            examples=["ja"],
        ),
    ],
)
BanlistFormat = TypeAliasType(
    "BanlistFormat",
    Annotated[
        Literal["OCG", "TCG"],
        Field(
            description="The format of a Forbidden/Limited list, in capitals as list files write it (the request "
            "field `format` is the same in lower case).",
            examples=["OCG"],
        ),
    ],
)
Status = TypeAliasType(
    "Status",
    Annotated[
        Literal["forbidden", "limited", "semi_limited", "unlimited"],
        Field(
            description="A card's status on a Forbidden/Limited list: forbidden (0 copies), limited (1), semi_limited "
            "(2), unlimited (3, the most any card may have).",
            examples=["forbidden"],
        ),
    ],
)
CardKind = TypeAliasType(
    "CardKind",
    Annotated[Literal["monster", "spell", "trap"], Field(description="A card's kind.", examples=["spell"])],
)
ExtraDeckType = TypeAliasType(
    "ExtraDeckType",
    Annotated[
        Literal["fusion", "synchro", "xyz", "link", "none"],
        Field(
            description="The extra-deck monster type of a card: fusion, synchro, xyz or link; none for a card that "
            "goes in the main deck (a Pendulum Monster has its base type's).",
            examples=["synchro"],
        ),
    ],
)
MatchKind = TypeAliasType(
    "MatchKind",
    Annotated[
        Literal["exact", "prefix", "substring", "fuzzy"],
        Field(
            description="How a name search hit matched, best first: exact (the whole name), prefix, substring, fuzzy "
            "(close spelling); width and kana variants are folded before matching.",
            examples=["exact"],
        ),
    ],
)
UnknownReason = TypeAliasType(
    "UnknownReason",
    Annotated[
        Literal["unknown_passcode", "unknown_name", "passcode_name_mismatch"],
        Field(
            description="Why an entry names no official card: unknown_passcode (its passcode is no card's), "
            "unknown_name (it gives only a name, and no card has it), passcode_name_mismatch (its passcode and "
            "name are different cards).",
            examples=["unknown_name"],
        ),
    ],
)
ReadinessReason = TypeAliasType(
    "ReadinessReason",
    Annotated[
        Literal["shutting_down", "saturated"],
        Field(
            description="Why the server is not ready: shutting_down (it received SIGTERM and is draining), "
            "saturated (every check thread is busy and the queue is full).",
            examples=["saturated"],
        ),
    ],
)
