"""An automated accessibility audit of the pages a tournament day runs on (issue 47).

axe-core (bundled by ``axe-playwright-python``) checks each page in a real Chromium, in German,
on a phone (390×844) and a laptop (1366×768), by the rules of WCAG 2.1 levels A and AA (tags
wcag2a, wcag2aa, wcag21a, wcag21aa): no violation of impact "serious" or "critical" may remain.
The pages: the scorekeeper's entry page (his seat's link), the sheet at the desk, the desk,
the table's page (its seats' links as QR codes), check-in, the online registration, a player's
personal page and his page for staff (the link as a QR code), the standings, and a league's
pages (the competition, a team, a match day, the season table).

One page per viewport goes through them all, logged in as an organiser of everything (so the
staff's buttons and forms are audited too); the seat's and the personal links work for anybody.
"""

import datetime
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from django.urls import reverse
from playwright.sync_api import Page

from doko.sample_sheets import normal
from scoring import services as scoring_services
from scoring.models import Scoresheet
from teams import services as team_services
from tests import factories
from tests.teams import factories as team_factories
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
BLOCKING = {"serious", "critical"}


@pytest.fixture
def day():
    """A tournament in its first round (a few hands on the sheet), its registration open, and a
    league of four teams: the pages to audit, by name, as paths."""
    admin = factories.user(username="leitung", is_superuser=True, is_staff=True)
    tournament = factories.tournament(players=4, organiser=admin)
    factories.registration_open(tournament)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    slug = tournament.slug
    keeper = factories.keeper(sheet).seat
    assert keeper is not None
    entry = factories.entries(tournament)[0]
    # Three hands on the sheet: its rows, their links and the totals are audited too.
    hands = [normal(1, (1, 3), 2), normal(2, (2, 4), 1), normal(3, (1, 2), 3)]
    scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=sheet.version, by=factories.keeper(sheet)
    )
    league = team_factories.league(teams=4, by=admin)
    teams = team_factories.teams(league)
    match_day = team_services.match_day_create(
        competition=league,
        starts_on=datetime.date(2026, 12, 5),
        by=admin,
        groups=[teams],
        rounds=1,
    )
    return {
        "entry page": reverse("scoring:sheet-link", args=[keeper.token]),
        "sheet": reverse("scoring:sheet", args=[slug, 1, 1]),
        "desk": reverse("scoring:desk", args=[slug, 1]),
        "table (its seats' links)": reverse("scoring:table", args=[slug, 1, 1]),
        "check-in": reverse("registration:check-in", args=[slug]),
        "registration": reverse("registration:register", args=[slug]),
        "personal page": reverse("registration:personal-link", args=[entry.link_key]),
        "player (his personal link)": reverse(
            "tournaments:entry-edit", args=[slug, entry.start_number]
        ),
        "standings": reverse("tournaments:standings", args=[slug]),
        "competition": reverse("teams:competition", args=[league.slug]),
        "team": reverse("teams:team", args=[league.slug, teams[0].pk]),
        "match day": reverse("teams:match-day", args=[league.slug, match_day.number]),
        "season table": reverse("teams:season-table", args=[league.slug]),
    }


def log_in(page: Page) -> None:
    page.goto(reverse("login"))
    page.get_by_label("Benutzername").fill("leitung")
    page.get_by_label("Passwort").fill("a-long-test-password")
    page.get_by_role("button", name="Anmelden").click()
    page.get_by_role("button", name="Abmelden", include_hidden=True).wait_for(state="attached")


def blocking(results: dict) -> list[str]:
    """The serious and critical violations of an axe run, one line each with its elements."""
    found = []
    for violation in results["violations"]:
        if violation["impact"] in BLOCKING:
            targets = "; ".join(", ".join(node["target"]) for node in violation["nodes"][:5])
            found.append(
                f"{violation['id']} ({violation['impact']}, {len(violation['nodes'])}×): "
                f"{violation['help']} – {targets}"
            )
    return found


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_pages_of_a_day_have_no_serious_accessibility_violation(day, new_page, viewport):
    page = new_page(**VIEWPORTS[viewport], locale="de-DE")
    log_in(page)
    axe = Axe()
    problems = {}
    for name, path in day.items():
        response = page.goto(path)
        assert response is not None
        assert response.ok, (name, response.status)
        page.wait_for_load_state("networkidle")
        found = blocking(axe.run(page, options=RULES).response)
        if found:
            problems[name] = found
    assert not problems, "\n".join(
        f"{name}: {line}" for name, lines in problems.items() for line in lines
    )
