"""The pages of the hard cases: where a button is missing, the page says why and who can do it
(an appeal with no panel, TSR 8.2.1; a table that cannot finish; extra time at one's own
table, TSR 8.5.1); the round page warns the organiser before the round starts when nobody is
appointed to rule."""

import pytest
from django.urls import reverse

from tests import factories
from tests.adjudication.api.helpers import decided
from tournaments.models import ExtraTime, TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def test_the_decision_page_says_an_appeal_waits_for_a_panel(client, tournament, sheet, staff):
    decision = decided(sheet, staff, hand=1)
    TournamentRole.objects.filter(tournament=tournament, role=Role.PANEL).delete()
    client.force_login(staff["adjudicator"])

    page = client.get(
        reverse("adjudication:decision", args=[tournament.slug, decision.pk])
    ).content.decode()

    assert "has no arbitration panel" in page
    assert "the organiser appoints its members on the staff page first (TSR 8.2.1)" in page
    assert reverse("adjudication:appeal-lodge", args=[tournament.slug, decision.pk]) not in page


def test_the_round_page_warns_the_organiser_when_nobody_rules(client, staff):
    tournament = factories.tournament(players=8, organiser=staff["organiser"])
    factories.seated_round(tournament)
    client.force_login(staff["organiser"])

    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()

    assert "No adjudicator is appointed" in page
    assert "No arbitration panel is appointed" in page
    assert reverse("adjudication:staff", args=[tournament.slug]) in page


def test_the_round_page_does_not_warn_when_the_panel_and_adjudicator_are_there(
    client, tournament, staff
):
    factories.seated_round(tournament)
    client.force_login(staff["organiser"])

    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()

    assert 'id="rulers-missing"' not in page


def test_the_sheet_page_offers_the_early_end_to_the_adjudicator(client, tournament, sheet, staff):
    client.force_login(staff["adjudicator"])

    page = client.get(reverse("scoring:sheet", args=[tournament.slug, 1, 1])).content.decode()

    assert 'id="end-early-form"' in page
    assert 'id="replay-form"' in page
    assert reverse("tournaments:entries", args=[tournament.slug]) in page


def test_the_sheet_page_says_who_ends_a_table_early_to_the_desk(client, tournament, sheet, staff):
    client.force_login(staff["keeper"])  # a scorekeeper account: types sheets, rules nothing

    page = client.get(reverse("scoring:sheet", args=[tournament.slug, 1, 1])).content.decode()

    assert 'id="end-early-form"' not in page
    assert 'id="end-early-refusal"' in page
    assert "Only the adjudicator, a deputy adjudicator or the organiser ends" in page


def test_the_sheet_page_ends_a_table_early_and_takes_it_back(client, tournament, sheet, staff):
    client.force_login(staff["deputy"])
    base = reverse("scoring:sheet", args=[tournament.slug, 1, 1])

    client.post(base + "end-early/", {"version": sheet.version, "reason": "Seat 2 left"})
    sheet.refresh_from_db()
    assert sheet.ended_early_reason == "Seat 2 left"
    page = client.get(base).content.decode()
    assert "Seat 2 left" in page
    assert 'id="end-undo-form"' in page

    client.post(base + "end-early/undo/", {"version": sheet.version})
    sheet.refresh_from_db()
    assert not sheet.ended_early


def test_extra_time_at_his_own_table_is_refused_on_the_round_page_saying_who(
    client, tournament, round_, sheet, staff
):
    entry = sheet.table.seats.get(position=1).entry
    factories.role_grant(
        tournament=tournament, user=staff["adjudicator"], role=Role.ADJUDICATOR, entry=entry
    )
    client.force_login(staff["adjudicator"])

    response = client.post(
        reverse("tournaments:round-extra-time", args=[tournament.slug, 1]),
        {"table": 1, "minutes": 3, "reason": "Reklamation"},
        follow=True,
    )

    assert "You play at seat 1 of table 1" in response.content.decode()
    assert not ExtraTime.objects.exists()


def test_a_deputy_finds_the_extra_time_form_on_the_round_page(client, tournament, round_, staff):
    client.force_login(staff["deputy"])

    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()

    assert reverse("tournaments:round-extra-time", args=[tournament.slug, 1]) in page
