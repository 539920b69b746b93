"""German is first-class: every string is translated, in one voice (docs/writing-german.md), and
the compiled catalogue is current."""

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from doko.rules.sheet import check_sheet
from scoring.messages import problem_message
from tests.sheets import normal

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def german() -> polib.POFile:
    return polib.pofile(str(LOCALE / "de/LC_MESSAGES/django.po"))


def translations(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr, *entry.msgstr_plural.values()] if entry.msgid_plural else [entry.msgstr]


# The reader is addressed as "Sie": no du, dich, dir, dein (any ending), euch, euer, and no
# du-imperative of the verbs the pages ask for. "ihr"/"ihre" are left out: in German they are
# mostly "her"/"their" ("ihrem Spieler"), which a pattern cannot tell from the address.
INFORMAL = re.compile(
    r"\b(du|dich|dir|dein|deine[mnrs]?|euch|euer|eure[mnrs]?)\b"
    r"|(^|[.:;!?]\s+|,\s+)(gib|nimm|lies|sieh|such|suche|trag|trage|wähle|klicke|prüfe|setze|"
    r"lade|melde|schreibe|versuche|warte|öffne|nenne|beschreibe|begründe|korrigiere|behalte|"
    r"verwende|speichere|teile|finde|bestätige|lösche|ändere)\s",
    re.IGNORECASE,
)
# Messages where such a word is not the address (none so far).
INFORMAL_ALLOWED: set[str] = set()


def test_the_german_catalogue_addresses_the_reader_as_sie():
    informal = [
        (entry.msgid, text)
        for entry in german()
        if entry.msgid not in INFORMAL_ALLOWED
        for text in translations(entry)
        if INFORMAL.search(text)
    ]
    assert informal == []


def test_the_address_check_finds_du_forms():
    found = [
        text
        for text in [
            "Dein Tisch",
            "Prüfe sie und veröffentliche sie dann.",
            "Nur Treffer; gib mehr ein.",
            "Finden Sie Ihren Tisch",
            "Versuche",  # the noun (attempts), as a heading
        ]
        if INFORMAL.search(text)
    ]
    assert found == [
        "Dein Tisch",
        "Prüfe sie und veröffentliche sie dann.",
        "Nur Treffer; gib mehr ein.",
    ]


def test_every_german_message_is_translated():
    catalogue = polib.pofile(str(LOCALE / "de/LC_MESSAGES/django.po"))
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries()]
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert untranslated == []
    assert fuzzy == []


def test_compiled_catalogue_matches_the_source():
    source = polib.pofile(str(LOCALE / "de/LC_MESSAGES/django.po"))
    compiled = polib.mofile(str(LOCALE / "de/LC_MESSAGES/django.mo"))
    pairs = {
        (e.msgctxt, e.msgid, e.msgstr, tuple(sorted(e.msgstr_plural.items())))
        for e in source.translated_entries()
    }
    compiled_pairs = {
        (e.msgctxt, e.msgid, e.msgstr, tuple(sorted(e.msgstr_plural.items())))
        for e in compiled
        if e.msgid
    }
    assert pairs == compiled_pairs, "run `make messages` to compile locale/de/LC_MESSAGES/django.mo"


@pytest.mark.parametrize("language", ["de", "en"])
def test_rule_problems_are_translated_with_their_placeholders_filled(language):
    result = check_sheet(table_size=4, hands_per_match=24, hands=[normal(3, (1, 2), 1)])
    with translation.override(language):
        message = problem_message(result.warnings[0])
    assert "{" not in message
    assert "3.3.1" in message
    assert ("Position 1" in message) == (language == "de")
