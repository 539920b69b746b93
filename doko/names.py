"""Names as people type them: without accents, in any case, and with German transliteration.

A German reader writes "Müller" as "Mueller" when the keyboard has no umlaut, and often just
"Muller"; "Straße" as "Strasse"; "Öztürk" as "Oeztuerk" or "ozturk". A name is found by any of
these, and a link is made readable from it ("Münster" → "muenster").

The search works on a stored key (``search_key``) that holds the name in two spellings: spelt
out (umlauts as ae/oe/ue, ß as ss, accents dropped) and collapsed (ae/oe/ue then read as a/o/u).
A typed word matches when either of its two spellings occurs in the key; the same key and the
same comparison serve every database, so SQLite and PostgreSQL find the same players.
"""

import re
import unicodedata

# Letters that carry no combining mark to drop, written as a German reader would type them.
_SPELT_OUT = str.maketrans(
    {
        "ä": "ae",
        "ö": "oe",
        "ü": "ue",
        "ß": "ss",
        "ẞ": "ss",
        "æ": "ae",
        "œ": "oe",
        "ø": "oe",
        "ı": "i",
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "þ": "th",
        "ŋ": "n",
        "ħ": "h",
    }
)
# Between the two spellings in a stored key; never part of a typed word (see ``search_words``).
SEPARATOR = "|"


def spelt_out(text: str) -> str:
    """Lower case, umlauts as ae/oe/ue, ß as ss, accents dropped: "Dvořák" → "dvorak",
    "Müller" → "mueller". Letters of other scripts stay (Greek, Cyrillic) without accents."""
    # NFC first, so that a decomposed "u" + "¨" is the "ü" the table knows.
    text = unicodedata.normalize("NFC", text).lower().translate(_SPELT_OUT)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def collapsed(text: str) -> str:
    """The spelt-out form with ae/oe/ue read as a/o/u: "Mueller", "Müller" and "Muller" all
    become "muller"."""
    return spelt_out(text).replace("ae", "a").replace("oe", "o").replace("ue", "u")


# What is no letter or digit in any script: hyphens, dots, apostrophes, spaces of every kind.
_NOT_A_WORD = re.compile(r"[\W_]+")
# An "e" after a, o or u, however many: "ue", "üe" (spelt out "uee") and "u" are one letter.
_WRITTEN_OUT = re.compile(r"([aou])e+")


def person_key(*parts: str) -> str:
    """A name as one person is written however it is typed: case, accents, umlauts written out
    or left off, ß, the signs between words (hyphens, dots, apostrophes, spaces) and where the
    parts end (first and last name) aside: "Jurgen MUELLER", "Jürgen Müller" and "Juergen
    Mueller" are all "jurgen muller".

    For telling the same person twice (the online registration's duplicates, refused at the
    same address). Like ``collapsed``, but to the end: every "e" after an a, o or u goes, so
    that the key of a key is the key, and "Müeller" is "Mueller" too. It also makes "Manuel"
    and "Manul" one key, which only matters at the same address."""
    words = " ".join(_NOT_A_WORD.sub(" ", spelt_out(" ".join(parts))).split())
    return _WRITTEN_OUT.sub(r"\1", words)


def search_key(*parts: str) -> str:
    """What a name is found by: its words spelt out and collapsed, e.g. ("Jörg", "Müller") →
    "joerg mueller|jorg muller"."""
    words = " ".join(" ".join(parts).split())
    return f"{spelt_out(words)}{SEPARATOR}{collapsed(words)}"


def search_words(query: str) -> list[tuple[str, str]]:
    """Each typed word in its two spellings (spelt out, collapsed); a player matches when, for
    every word, one of its spellings occurs in the player's ``search_key``."""
    words = query.replace(",", " ").replace(SEPARATOR, " ").split()
    # A lone accent ("´") spells out to a space: no word, or it would match every space.
    spellings = [(spelt_out(word).strip(), collapsed(word).strip()) for word in words]
    return [(spelt, short) for spelt, short in spellings if spelt]


def matches(key: str, query: str) -> bool:
    """``search_words`` applied in Python, for lists too small to ask the database."""
    return all(a in key or b in key for a, b in search_words(query))
