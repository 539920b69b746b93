"""German is first-class: every string is translated, in one voice (docs/writing-german.md), and
the compiled catalogue is current."""

import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.utils import translation

from doko.rules.sheet import check_sheet
from doko.rules.value import Game, HandResult, check_hand_result
from doko.sample_sheets import normal
from tournaments.messages import field_errors, problem_message

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


# A number of things: a placeholder, perhaps a word, then a countable noun ("%(count)d hands",
# "{count} Doppelkopf tricks", "%(minutes)s minutes").
COUNTED = re.compile(
    r"(%\(\w+\)[sd]|\{\w+\})\s+(?:(?:more|standard|Doppelkopf|active|new|[a-z]+ed)\s+)?"
    r"(hand|player|round|table|seat|point|card point|minute|month|trick|solo|offence|sheet|"
    r"scoresheet|job|line|column|fox|foxe|game|sanction|decision|change|page|row|hour|day)s?\b"
)
# Counts that never need a singular, and a verb that reads like a noun.
COUNTED_ALLOWED = {
    # the pack's 240 card points and 12 tricks, constants of the game (TSR 2.2)
    "The pack has {total} card points; Re cannot have {points}.",
    "A hand has {total} tricks; Re cannot have taken {tricks}.",
    # the least hands of a round: 8 at a table of four, 10 at five (TSR 3.3.1, 4.2.3), never 1
    "A round needs a hand dealt by each player and a compulsory solo by each (TSR 3.3.1, "
    "4.2.3): at least %(limit_value)s hands.",
    # the official tournament's round, constants of the TSR (24, 100, 30, 125: TSR 8.5.1, 10.1.5)
    "An official tournament plays {needed} hands a round at a table of four, the compulsory "
    "solos included: not {actual}.",
    "An official tournament plays {needed} minutes a round at a table of four: not {actual}.",
    "An official tournament plays {needed} hands a round at a table of five, the compulsory "
    "solos included: not {actual}.",
    "An official tournament plays {needed} minutes a round at a table of five: not {actual}.",
    # "seats" is the verb: round N seats players
    "Round %(number)d seats players who no longer play: %(players)s. Register a substitute in "
    "their place, or draw the round again (TSR 8.3).",
}


def test_every_message_with_a_count_has_its_plural():
    singular_only = [
        entry.msgid
        for entry in german()
        if not entry.msgid_plural
        and entry.msgid not in COUNTED_ALLOWED
        and COUNTED.search(entry.msgid)
    ]
    assert singular_only == []


def test_the_count_check_finds_counted_nouns():
    assert COUNTED.search("The sheet has %(count)d hands.")
    assert COUNTED.search("{count} foxes caught")
    assert COUNTED.search("%(count)d standard offences added")
    assert not COUNTED.search("Round %(number)d")
    assert not COUNTED.search("Hand %(hand)d, seat %(seat)d: %(status)s")


# The glossary (docs/writing-german.md): words the German texts do not use. The organiser is
# the *Turnierleitung*, never *Ausrichter* beside it; *Listenführer* is only the table's keeper
# of the sheet (TSR 7.3), the desk's typist is the *Erfasser*, a member of staff who is not the
# organiser an *Offizieller*; no English group name; no text begins with a stray colon.
GERMAN_BANNED = (
    r"\bAusrichter"
    r"|Listenführer-Konto|Listenführer mit Konto"
    r"|Mitglied(er)? der Turnierleitung"
)
BANNED = re.compile(GERMAN_BANNED + r"|\b(Organisers|Adjudicators|Scorekeepers)\b|^\s*:")
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_the_german_catalogue_keeps_to_the_glossary():
    banned = [
        (entry.msgid, text)
        for entry in german()
        for text in translations(entry)
        if BANNED.search(text)
    ]
    assert banned == []


def test_the_templates_keep_to_the_glossary():
    """German written in the templates themselves (mails, pages), outside the catalogue; their
    English message ids may name the "Organisers" group, whose German says otherwise."""
    german_words = re.compile(GERMAN_BANNED)
    banned = [
        (str(path.relative_to(TEMPLATES)), match.group(0))
        for path in sorted(TEMPLATES.rglob("*"))
        if path.suffix in {".html", ".txt"}
        for match in german_words.finditer(path.read_text())
    ]
    assert banned == []


def test_the_glossary_check_finds_the_banned_words():
    found = [
        text
        for text in [
            "Nur ein Ausrichter verwaltet die Anmeldung.",
            "ein Listenführer-Konto",
            "ein anderes Mitglied der Turnierleitung",
            "in die Gruppe „Organisers“",
            ": Verwarnung, Runde 4",
            "Der Listenführer gibt die Liste ab.",  # the table's keeper: right
            "Nur die Turnierleitung oder ein Erfasser checkt Spieler ein.",
        ]
        if BANNED.search(text)
    ]
    assert found == [
        "Nur ein Ausrichter verwaltet die Anmeldung.",
        "ein Listenführer-Konto",
        "ein anderes Mitglied der Turnierleitung",
        "in die Gruppe „Organisers“",
        ": Verwarnung, Runde 4",
    ]


def test_every_german_message_is_translated():
    catalogue = german()
    untranslated = [entry.msgid for entry in catalogue.untranslated_entries()]
    fuzzy = [entry.msgid for entry in catalogue.fuzzy_entries()]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="GNU gettext (msgfmt) is not installed")
def test_the_german_catalogue_compiles_with_its_placeholders_checked():
    # --check-format: every msgstr has the placeholders of its msgid, %(name)s and {name} alike.
    result = subprocess.run(
        ["msgfmt", "--check", "--output-file=/dev/null", str(LOCALE / "de/LC_MESSAGES/django.po")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_compiled_catalogue_matches_the_source():
    source = german()
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


@pytest.mark.parametrize(
    ("language", "tricks", "message"),
    [
        ("de", 1, "Re hat 1 Stich bekommen; darin sind 0 bis 44 Augen, nicht 50."),
        ("de", 2, "Re hat 2 Stiche bekommen; darin sind 0 bis 88 Augen, nicht 100."),
        ("en", 1, "Re took 1 trick, which holds between 0 and 44 card points, not 50."),
    ],
)
def test_the_cores_plural_messages_take_the_form_of_their_number(language, tricks, message):
    result = HandResult(game=Game.NORMAL, re_card_points=50 * tricks, re_tricks=tricks)
    errors = tuple(check_hand_result(result))
    with translation.override(language):
        assert field_errors(errors)["re_card_points"] == [f"{message} (TSR 2.2.2)"]
