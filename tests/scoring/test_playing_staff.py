"""A member of staff who plays at a table (his *plays as*, ``TournamentRole.entry``, is a seat
there) confirms no sheet of that table through another player's link (TSR 7.3.2): he reads no
seat link of his table, on the page or through the API, and a seat's link used where he is
logged in confirms nothing, on the page or through the API; the history is unchanged.

The fault replayed: the organiser plays at seat 2 of table 1; seat 4 hands the sheet in; he
reads the table's links and confirms with seat 3's, and the history said "confirmed by … (seat
3)"."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet, ScoresheetChange
from scoring.policies import may_read_seat_links
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
PLAYS_AT = 2  # the organiser's own seat at table 1


@pytest.fixture
def organiser():
    return factories.user(username="olga")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    """Table 1's sheet, handed in by its scorekeeper (seat 4's link); the organiser plays at
    seat 2 of that table."""
    tournament = factories.tournament(players=8, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(
        table__round=round_, table__number=1
    )
    role = TournamentRole.objects.get(tournament=tournament, user=organiser, role=Role.ORGANISER)
    role.entry = sheet.table.seats.get(position=PLAYS_AT).entry
    role.save()
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=factories.keeper(sheet)
    )
    return services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )


def seat_key(sheet, position: int) -> str:
    return sheet.table.seats.get(position=position).token


def links_url(sheet, table: int = 1) -> str:
    return reverse("api:table-links", args=[sheet.table.round.tournament.slug, 1, table])


def history(sheet) -> list:
    return list(ScoresheetChange.objects.filter(scoresheet=sheet).values_list("pk", flat=True))


# Reading the links ---------------------------------------------------------------------------


def test_staff_who_play_at_a_table_read_none_of_its_links_through_the_api(sheet, organiser):
    api = APIClient()
    token = Token.objects.get_or_create(user=organiser)[0].key
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}", HTTP_ACCEPT_LANGUAGE="en")
    answer = api.get(links_url(sheet))
    assert answer.status_code == 403
    detail = answer.json()["detail"]
    assert f"seat {PLAYS_AT}" in detail
    assert "another organiser or adjudicator" in detail
    assert seat_key(sheet, 3) not in answer.content.decode()
    # The table where he does not play: he hands its links out as before.
    assert api.get(links_url(sheet, table=2)).status_code == 200


def test_another_member_of_staff_reads_them_for_him(sheet):
    adjudicator = factories.adjudicator(sheet.table.round.tournament)
    api = APIClient()
    api.force_login(adjudicator)
    answer = api.get(links_url(sheet))
    assert answer.status_code == 200
    assert len(answer.json()["seats"]) == 4


def test_the_table_page_shows_him_why_instead_of_the_links(sheet, organiser):
    client = Client()
    client.force_login(organiser)
    table = sheet.table
    page = client.get(
        reverse("scoring:table", args=[table.round.tournament.slug, 1, table.number]),
        headers={"accept-language": "en"},
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert seat_key(sheet, 3) not in html
    assert "Private links to the scoresheet" not in html
    assert f"You play at seat {PLAYS_AT} of this table" in html


def test_the_policy_names_the_seat_and_who_reads_them_instead(sheet, organiser):
    refusal = may_read_seat_links(roles={Role.ORGANISER}, table=sheet.table, user=organiser)
    assert refusal is not None
    assert refusal.plays
    adjudicator = factories.adjudicator(sheet.table.round.tournament)
    assert (
        may_read_seat_links(roles={Role.ADJUDICATOR}, table=sheet.table, user=adjudicator) is None
    )


# Confirming through another seat's link ------------------------------------------------------


def test_another_seats_key_beside_his_session_confirms_nothing_through_the_api(sheet, organiser):
    before = history(sheet)
    api = APIClient()
    api.force_login(organiser)
    answer = api.post(
        reverse("api:scoresheet-confirm", args=[sheet.table.round.tournament.slug, 1, 1]),
        {"version": sheet.version},
        format="json",
        headers={"X-Seat-Key": seat_key(sheet, 3), "Accept-Language": "en"},
    )
    assert answer.status_code == 400
    message = answer.json()["confirmed_by"][0]
    assert f"You play at seat {PLAYS_AT} of this table" in message
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED
    assert history(sheet) == before


def test_another_seats_link_where_he_is_logged_in_confirms_nothing_on_the_page(sheet, organiser):
    before = history(sheet)
    client = Client()
    client.force_login(organiser)
    answer = client.post(
        reverse("scoring:sheet-link-confirm", args=[seat_key(sheet, 3)]),
        {"version": sheet.version},
        headers={"accept-language": "en"},
    )
    assert answer.status_code in (400, 422)
    assert f"You play at seat {PLAYS_AT} of this table" in answer.content.decode()
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED
    assert history(sheet) == before


def test_his_own_seats_link_confirms_as_his_seat(sheet, organiser):
    """He is a player of the table too: with his own seat's link he confirms what another
    seat handed in, as any player does (TSR 7.3.2)."""
    api = APIClient()
    api.force_login(organiser)
    answer = api.post(
        reverse("api:scoresheet-confirm", args=[sheet.table.round.tournament.slug, 1, 1]),
        {"version": sheet.version},
        format="json",
        headers={"X-Seat-Key": seat_key(sheet, PLAYS_AT), "Accept-Language": "en"},
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["confirmed_by"].endswith(f"(seat {PLAYS_AT})")


def test_a_player_confirms_with_his_own_link_where_no_staff_is_logged_in(sheet):
    answer = APIClient().post(
        reverse("api:scoresheet-confirm", args=[sheet.table.round.tournament.slug, 1, 1]),
        {"version": sheet.version},
        format="json",
        headers={"X-Seat-Key": seat_key(sheet, 3), "Accept-Language": "en"},
    )
    assert answer.status_code == 200
