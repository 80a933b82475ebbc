"""Card-name normalisation shared by every lookup (SPEC section 1), and the loose key names are searched and
read by when they are not written exactly."""

from __future__ import annotations

import re
import unicodedata

# Dashes and hyphens that people type interchangeably in card names. The katakana long vowel mark (ー) is a
# letter, not a dash, and stays as it is.
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
# Middle dots: the Japanese ・ (and its half-width ･, which NFKC already folds) against the Latin ·.
_DOTS = "\u00b7\u2027\u2219\u22c5\u30fb\uff65"
_DASH = re.compile(f"[{_DASHES}]")
_DOT = re.compile(f"[{_DOTS}]")
_SPACES = re.compile(r"\s+")

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


def loose_key(text: str) -> str:
    """The loose key names are searched by, and read by when not written exactly: the normalised name with no
    spaces or punctuation (・, hyphens, apostrophes of any kind), hiragana as katakana and the kanji variants above
    folded. `ブラックマジシャン`, `ぶらっく・まじしゃん` and `ブラック・マジシャン` share one; so do
    `Blue Eyes White Dragon` and `Blue-Eyes White Dragon`, `Magicians Valkyria`, `Magician’s Valkyria` and
    `Magician's Valkyria`, `青眼の白竜` and `青眼の白龍`."""
    return fold_normalized(normalize_name(text))


def loose_keys(text: str) -> list[str]:
    """The loose keys a name is read by: its loose key, then, when it has a possessive 's, the loose key without it
    (`Harpie’s Lady` is read as Harpie Lady, whose name has none, where no name has the first key)."""
    normalized = normalize_name(text)
    without = _POSSESSIVE.sub("", normalized)
    return [fold_normalized(normalized), *([fold_normalized(without)] if without != normalized else [])]


def fold_normalized(name: str) -> str:
    """`loose_key` of a name already normalised."""
    return _NOT_WORD.sub("", loose_text(name))


def loose_words(name: str) -> list[str]:
    """The words of a normalised name as its loose key spells them, in order (the key is their concatenation)."""
    return [word for word in _NOT_WORD.split(loose_text(name)) if word]


def loose_text(name: str) -> str:
    """A normalised name with the loose key's folds of its letters (kana, kanji variants), its spaces and
    punctuation kept."""
    return _HIRAGANA.sub(_to_katakana, name).translate(_KANJI_VARIANTS)


def _to_katakana(match: re.Match[str]) -> str:
    return "".join(chr(ord(char) + 0x60) for char in match.group())
