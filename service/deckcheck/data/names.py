"""Card-name normalisation shared by every lookup, the loose key names are searched by, and the
keys a name is read by when it is not written exactly."""

from __future__ import annotations

import itertools
import re
import unicodedata

# Dashes and hyphens that people type interchangeably in card names (NFKC makes － and ﹣ the ASCII -), and the wave
# dashes typed for ー (`クリボ～ン`; NFKC makes ～ the ASCII ~, 〜 it keeps), which a few names print around a
# subtitle (`エルフェンノーツ～狂奏のラプソディア～`). Matched exactly they stay apart from the katakana long vowel
# mark ー, a letter (クリボー); read loosely they are one with it.
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d~\u301c"
# Middle dots: the Japanese ・ (and its half-width ･, which NFKC already folds) against the Latin ·.
_DOTS = "\u00b7\u2027\u2219\u22c5\u30fb\uff65"
_DASH = re.compile(f"[{_DASHES}]")
_DOT = re.compile(f"[{_DOTS}]")
_SPACES = re.compile(r"\s+")
# What every dash and the long vowel mark (ｰ is ー by NFKC) are in the keys a name is read by: one letter, so that
# `クリボ-`, `スタ-ダスト` and `閃刀姫ーレイ` are クリボー, スターダスト and 閃刀姫－レイ, and `クリボ-ン` is never
# クリボン, its dash read as nothing.
LONG = "ー"
_TYPED_DASHES = 6  # a typed name's dashes each tried as a letter or as a word boundary, up to this many

_HIRAGANA = re.compile("[\u3041-\u3096]+")
# A possessive 's a player adds to a name that has none (`Harpie’s Lady` for Harpie Lady).
_POSSESSIVE = re.compile("['\u2018\u2019`\u2032]s(?!\\w)")
# Spaces and punctuation of every kind: ・, hyphens and dashes, apostrophes (' ’ ‘ `; ＇ is ' by NFKC), dots, colons.
_NOT_WORD = re.compile(r"[\W_]+")
# The kanji whose older or other form some card names print and a player types in the common one: every pair that
# the bundled card names hold both forms of (龍 212 names against 竜 494, 蟲 23 against 虫 79, 雙 5, 瀧 4, 聲 4, 獸 2,
# 燈 2 and one each of 號 藝 禪 賣 將 稻). Folded to the common form; each keeps the key's length.
_KANJI_VARIANTS = str.maketrans("龍獸號雙瀧燈聲藝禪蟲賣將稻", "竜獣号双滝灯声芸禅虫売将稲")


def normalize_name(name: str) -> str:
    """Fold a card name for exact matching: NFKC, case folding, one space, one dash and one middle dot."""
    folded = _DOT.sub("・", _DASH.sub("-", unicodedata.normalize("NFKC", name).casefold()))
    return _SPACES.sub(" ", folded).strip()


def plain_name(name: str) -> str:
    """A name as written but for width, case and spacing (NFKC, case folding, one space): a name read as a card
    whose printed name differs from it in anything else, a dash or a dot, was read loosely and is said to be."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()


def loose_key(text: str) -> str:
    """The loose key names are searched by: the normalised name with no spaces or punctuation (・, hyphens,
    apostrophes of any kind), hiragana as katakana and the kanji variants above folded. `ブラックマジシャン`,
    `ぶらっく・まじしゃん` and `ブラック・マジシャン` share one; so do `Blue Eyes White Dragon` and
    `Blue-Eyes White Dragon`, `Magicians Valkyria`, `Magician’s Valkyria` and `Magician's Valkyria`, `青眼の白竜` and
    `青眼の白龍`."""
    return fold_normalized(normalize_name(text))


def fold_normalized(name: str) -> str:
    """`loose_key` of a name already normalised."""
    return _NOT_WORD.sub("", loose_text(name))


def loose_words(name: str) -> list[str]:
    """The words of a normalised name as its loose key spells them, in order (the key is their concatenation)."""
    return [word for word in _NOT_WORD.split(loose_text(name)) if word]


def dashed_words(name: str) -> list[str]:
    """The words of a normalised name that holds dashes as its read key spells them: each dash a word of its own,
    ー, between the words on either side (`閃刀姫-レイ`: 閃刀姫, ー, レイ)."""
    return loose_words(name.replace("-", f" {LONG} "))


def loose_text(name: str) -> str:
    """A normalised name with the loose key's folds of its letters (kana, kanji variants), its spaces and
    punctuation kept."""
    return _HIRAGANA.sub(_to_katakana, name).translate(_KANJI_VARIANTS)


def read_keys(text: str) -> list[list[tuple[str, int]]]:
    """The keys a name no card has exactly is read by, each with where the card name's words must end for it (bit
    n: after the first n characters), in groups tried in turn: the name, then, when it has a possessive 's, the name
    without it (`Harpie’s Lady` is read as Harpie Lady, whose name has none, where no name has the first).

    In each key the long vowel mark and every dash are one letter, ー: `スタ-ダスト` is スターダスト and `閃刀姫ーレイ`
    閃刀姫－レイ, whose read key holds ー too (data/search.py). Each dash typed is also tried as a word boundary the
    card's name has there, a space or a mark (`E-HERO` for Ｅ・ＨＥＲＯ), but never as nothing: `クリボ-ン` is
    クリボーン, not クリボン, and a dash at the end is no boundary. A card name's own dashes a player may leave out:
    its loose key, which drops them, is found by these keys too (`Blue Eyes White Dragon`)."""
    normalized = normalize_name(text)
    without = _POSSESSIVE.sub("", normalized)
    return [_dash_readings(name) for name in dict.fromkeys((normalized, without))]


def _dash_readings(normalized: str) -> list[tuple[str, int]]:
    """The keys of a normalised name, each of its dashes read as ー or as a word boundary inside it, with the word
    ends each needs; the one with every dash ー first."""
    parts = [loose_text(part) for part in normalized.split("-")]
    dashes = len(parts) - 1
    choices = (
        itertools.product((False, True), repeat=dashes)
        if dashes <= _TYPED_DASHES
        else [(False,) * dashes, (True,) * dashes]
    )
    keys: list[tuple[str, int]] = []
    for boundaries in choices:
        key, ends = _NOT_WORD.sub("", parts[0]), 0
        for boundary, part in zip(boundaries, parts[1:], strict=True):
            if boundary:
                ends |= 1 << len(key)
            else:
                key += LONG
            key += _NOT_WORD.sub("", part)
        if key and not ends >> len(key) & 1:
            keys.append((key, ends))
    return keys


def _to_katakana(match: re.Match[str]) -> str:
    return "".join(chr(ord(char) + 0x60) for char in match.group())
