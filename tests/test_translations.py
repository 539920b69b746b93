"""German is first-class: every string is translated and the compiled catalogue is current."""

from pathlib import Path

import polib
import pytest
from django.utils import translation

from doko.rules.sheet import check_sheet
from scoring.messages import problem_message
from tests.sheets import normal

LOCALE = Path(__file__).resolve().parent.parent / "locale"


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
