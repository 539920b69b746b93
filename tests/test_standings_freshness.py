"""Every change that the standings show reaches the public standings at once, though they are
answered from the cache: the page, the htmx table and the API, in German and in English, as a
phone without a session reads them. After each change the answers served are those an empty
cache renders, and the stored standings are those computed afresh from the database."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from adjudication.models import Appeal
from doko import standings
from doko.rules.penalty import Severity
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    Ruling,
    appeal,
    decide,
    deduct,
    enter,
    seat_entry,
    staffed_tournament,
    started_round,
)
from tournaments import caching, selectors, services
from tournaments.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db

LANGUAGES = ("de", "en")


class Field:
    """Eight players in round 1: table 1 confirmed, table 2 handed in (provisional)."""

    def __init__(self, staff):
        self.staff = staff
        self.tournament = staffed_tournament(staff, players=8)
        self.round = started_round(self.tournament)
        self.one, self.two = Scoresheet.objects.filter(table__round=self.round).order_by(
            "table__number"
        )
        factories.sheet_confirmed(self.one, MATCH)
        self.submit(self.two)

    def sheet(self, number: int) -> Scoresheet:
        return Scoresheet.objects.get(table__round=self.round, table__number=number)

    def submit(self, sheet: Scoresheet) -> None:
        enter(sheet, MATCH)
        sheet.refresh_from_db()
        scoring_services.scoresheet_submit(
            scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
        )

    def organiser(self):
        return scoring_services.Actor(user=self.staff["organiser"])


# Each change: what it needs first (not yet read by the phones), then the change itself.


def confirm(field):
    sheet = field.sheet(2)
    scoring_services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )


def reopen(field):
    sheet = field.sheet(1)
    scoring_services.scoresheet_reopen(
        scoresheet=sheet, version=sheet.version, by=field.organiser(), reason="Wrong seat."
    )


def send_back(field):
    sheet = field.sheet(2)
    scoring_services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet), reason="Hand 3?"
    )


def hand_in_prepared(field):
    sheet = field.sheet(2)
    scoring_services.scoresheet_return(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet), reason="Hand 3?"
    )


def hand_in(field):
    field.submit(field.sheet(2))


def ruled_prepared(field):
    field.ruled = decide(
        field.sheet(2),
        field.staff,
        hand=3,
        offender=2,
        ruling=Ruling(Severity.MINOR),
        initial=False,
    )


def initial(field):
    from adjudication import services as adjudication_services

    adjudication_services.decision_initial(decision=field.ruled, by=field.staff["adjudicator"])


def initialled_prepared(field):
    field.initialled = decide(
        field.sheet(2), field.staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR)
    )


def appeal_annuls(field):
    appeal(field.initialled, field.staff, outcome=Appeal.Outcome.ANNUL)


def deduction(field):
    deduct(field.round, field.sheet(2), field.staff, position=3, points=6)


def disqualify(field):
    services.entry_disqualify(entry=seat_entry(field.sheet(1), 1))


def withdraw(field):
    services.entry_withdraw(entry=seat_entry(field.sheet(1), 2))


def withdrawn_prepared(field):
    services.entry_withdraw(entry=seat_entry(field.sheet(1), 2))


def reinstate(field):
    services.entry_reinstate(entry=seat_entry(field.sheet(1), 2))


def register(field):
    services.entry_create(tournament=field.tournament, player=factories.player(last_name="Neu"))


def substitute(field):
    services.entry_replace(
        entry=seat_entry(field.sheet(1), 3), player=factories.player(last_name="Ersatz")
    )


def correct_name(field):
    entry = seat_entry(field.sheet(1), 1)
    services.entry_update(
        entry=entry,
        first_name="Erika",
        last_name="Mustermann",
        club="Kreuz Bube",
        start_number=entry.start_number,
        by=field.staff["organiser"],
    )


def settings_change(**changes):
    def change(field):
        tournament = Tournament.objects.get(pk=field.tournament.pk)
        services.tournament_update(
            tournament=tournament, by=field.staff["organiser"], changes=changes
        )

    return change


def admin_client(field) -> Client:
    client = Client()
    client.force_login(factories.user(username="root", is_staff=True, is_superuser=True))
    return client


def admin_renames_player(field):
    player = seat_entry(field.sheet(1), 4).player
    response = admin_client(field).post(
        reverse("admin:tournaments_player_change", args=[player.pk]),
        {"first_name": "Max", "last_name": "Umbenannt", "club": "Herz Dame", "ddv_number": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Player.objects.get(pk=player.pk).last_name == "Umbenannt"


def admin_renumbers_entry(field):
    entry = seat_entry(field.sheet(1), 4)
    response = admin_client(field).post(
        reverse("admin:tournaments_entry_change", args=[entry.pk]),
        {
            "tournament": entry.tournament_id,
            "player": entry.player_id,
            "first_name": entry.first_name,
            "last_name": entry.last_name,
            "start_number": 99,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Entry.objects.get(pk=entry.pk).start_number == 99


CHANGES = {
    "a sheet confirmed": (None, confirm),
    "a sheet handed in": (hand_in_prepared, hand_in),
    "a sheet sent back": (None, send_back),
    "a confirmed sheet reopened": (None, reopen),
    "a penalty initialled": (ruled_prepared, initial),
    "a penalty annulled on appeal": (initialled_prepared, appeal_annuls),
    "points deducted": (None, deduction),
    "a player disqualified": (None, disqualify),
    "a player withdrawn": (None, withdraw),
    "a player reinstated": (withdrawn_prepared, reinstate),
    "a player registered": (None, register),
    "a substitute": (None, substitute),
    "a name corrected": (None, correct_name),
    "a name corrected in the administration": (None, admin_renames_player),
    "a start number changed in the administration": (None, admin_renumbers_entry),
    "the tie-breaks changed": (None, settings_change(tiebreaks="best_round,start_number")),
    "the standings hidden": (None, settings_change(standings_public=False)),
    "the tournament made private": (None, settings_change(is_public=False)),
    "the tournament renamed": (None, settings_change(name="Karopokal")),
}


def read(tournament: Tournament) -> dict:
    """Every public answer of the standings, as a phone without a session gets it: status,
    ETag and body of the page, the table and the API, in each language."""
    phone = Client()
    slug = tournament.slug
    answers = {}
    for language in LANGUAGES:
        for part, url in (
            ("page", reverse("tournaments:standings", args=[slug])),
            ("table", reverse("tournaments:standings-table", args=[slug])),
            ("api", reverse("api:standings", args=[slug])),
        ):
            response = phone.get(url, headers={"accept-language": language})
            answers[part, language] = (response.status_code, response.get("ETag"), response.content)
    return answers


def rebuilt_afresh(tournament: Tournament) -> standings.Standings:
    return standings.standings(
        entrants=selectors.standings_entrants(tournament=tournament),
        results=selectors.standings_results(tournament=tournament),
        tiebreaks=selectors.tiebreaks_of(tournament),
    )


@pytest.mark.parametrize("name", CHANGES)
def test_a_change_reaches_the_cached_standings_at_once(
    name, staff, django_capture_on_commit_callbacks
):
    prepare, change = CHANGES[name]
    with django_capture_on_commit_callbacks(execute=True):
        field = Field(staff)
        if prepare:
            prepare(field)
    before = read(field.tournament)
    assert before == read(field.tournament)  # now from the cache
    assert caching.memory.get(f"tournament-head:{field.tournament.slug}") is not None

    with django_capture_on_commit_callbacks(execute=True):
        change(field)
    served = read(field.tournament)

    cache.clear()
    caching.memory_clear()
    assert served == read(field.tournament)  # what an empty cache answers
    assert served != before
    tournament = Tournament.objects.get(pk=field.tournament.pk)
    stored = selectors.standings_read(tournament=tournament)
    assert stored.rows == rebuilt_afresh(tournament).rows
    assert stored.rounds == rebuilt_afresh(tournament).rounds
    assert stored.tiebreaks == rebuilt_afresh(tournament).tiebreaks


def test_no_answer_of_a_private_tournament_is_served_from_the_cache(
    staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        field = Field(staff)
    read(field.tournament)
    with django_capture_on_commit_callbacks(execute=True):
        settings_change(is_public=False)(field)
    answers = read(field.tournament)
    assert {key: status for key, (status, _etag, _body) in answers.items()} == dict.fromkeys(
        answers, 404
    )
    assert not any(field.tournament.name.encode() in body for _s, _e, body in answers.values())
