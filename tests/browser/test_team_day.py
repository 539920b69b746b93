"""A league's first match day set up through the pages (issue 34), in a real browser, on a phone
and in German.

The organiser creates a league, adds four teams of four new players each, creates match day 1
with its group drawn, opens the match day's tournament and draws round 1: every one of its four
tables seats four players of four different teams. The season table opens.
"""

import re

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tournaments import policies

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PASSWORD = "a-long-test-password"
# The players' last names name their team, so a table's seats show whose team they play for.
TEAMS = ["Kreuz", "Pik", "Herz", "Karo"]


def logged_in(new_page, username: str) -> Page:
    page = new_page(**PHONE, locale="de-DE")
    page.goto(reverse("login"))
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    expect(page.get_by_role("heading", name="Turniere")).to_be_visible()
    return page


def test_an_organiser_sets_up_a_match_day_and_draws_four_teams_at_every_table(new_page):
    organiser = factories.user(username="liga")
    # A live-server test empties the database between tests, the group its migration made too:
    # made here as an administrator grants it.
    group, _ = Group.objects.get_or_create(name=policies.ORGANISERS_GROUP)
    group.permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    )
    organiser.groups.add(group)
    page = logged_in(new_page, "liga")

    page.goto(reverse("teams:competition-new"))
    page.get_by_label(re.compile(r"^Name")).fill("Bezirksliga Süd")
    page.get_by_label("Saison").fill("2026/27")
    page.get_by_label("Abstiegsplätze").fill("1")
    page.get_by_role("button", name="Wettbewerb anlegen").click()
    expect(page.locator("main")).to_contain_text("Sie sind seine Turnierleitung")
    competition_url = page.url

    for team in TEAMS:
        page.goto(competition_url)
        page.get_by_role("link", name="Mannschaft hinzufügen").click()
        page.get_by_label(re.compile(r"^Name")).fill(f"{team}-Asse")
        page.get_by_role("button", name="Mannschaft hinzufügen").click()
        expect(page.locator("main")).to_contain_text("nennen Sie jetzt ihre Spieler")
        for number in range(1, 5):
            page.get_by_label("Vorname").fill(f"Spieler{number}")
            page.get_by_label("Nachname").fill(team)
            page.get_by_role("button", name="Neue Person anlegen").click()
            expect(page.locator("main")).to_contain_text(f"Spieler{number} {team} spielt für")
        expect(page.locator("main")).to_contain_text("4 Spieler")

    page.goto(competition_url)
    page.get_by_role("link", name="Neuer Spieltag").click()
    page.get_by_label("Datum").fill("2026-12-05")
    page.get_by_role("button", name="Spieltag anlegen").click()
    expect(page.locator("main")).to_contain_text("Spieltag 1 ist angelegt")

    page.get_by_role("link", name="Runden und Tische").click()
    page.get_by_role("button", name="Runde 1 anlegen").click()
    page.get_by_role("button", name=re.compile(r"^Runden 1 bis \d+ auslosen$")).click()
    expect(page.locator("main")).to_contain_text("Die Sitzordnung ist ausgelost")

    tables = page.locator(".table-card")
    expect(tables).to_have_count(4)
    for index in range(4):
        seats = tables.nth(index).locator(".list-group-item")
        expect(seats).to_have_count(4)
        teams_at_table = {
            next(team for team in TEAMS if f" {team} " in f" {text} ")
            for text in seats.all_inner_texts()
        }
        assert teams_at_table == set(TEAMS)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.goto(competition_url)
    page.get_by_role("link", name="Saisontabelle").first.click()
    expect(page.get_by_role("heading", name="Saisontabelle")).to_be_visible()
    expect(page.locator("table")).to_contain_text("Kreuz-Asse")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
