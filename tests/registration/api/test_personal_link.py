"""The personal link through the API (issue 33): one key, in ``X-Player-Key``, reaches the
player's seat in each published round, its ``seat_key`` works on the scoresheet API, an
unpublished round is not shown, and a replaced key opens nothing; the player withdraws before
the first draw; the organiser and the adjudicator read and replace a player's link."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.sample_sheets import full_match
from registration.models import Registration
from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Entry, Seat

pytestmark = pytest.mark.django_db

PERSONAL = reverse("api:personal")
WITHDRAW = reverse("api:personal-withdraw")


@pytest.fixture
def api():
    return APIClient(headers={"Accept-Language": "en"})


@pytest.fixture
def staffed_two():
    """Eight players, two rounds planned, an organiser and an adjudicator with tokens."""
    organiser, adjudicator = factories.user(), factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=2)
    factories.role_grant(tournament=tournament, user=adjudicator, role="adjudicator")
    headers = {
        role: {"Authorization": f"Token {Token.objects.create(user=user).key}"}
        for role, user in (("organiser", organiser), ("adjudicator", adjudicator))
    }
    return tournament, headers


def personal(api, key):
    return api.get(PERSONAL, headers={"X-Player-Key": key})


def sheet_url(seat: Seat) -> str:
    return reverse(
        "api:scoresheet", args=[seat.round.tournament.slug, seat.round.number, seat.table.number]
    )


def test_one_key_reaches_round_1s_seat_then_round_2s_and_nothing_once_replaced(api, staffed_two):
    tournament, headers = staffed_two
    entry = factories.entries(tournament)[0]
    key = entry.link_key
    round_1 = services.round_start(round=factories.seated_round(tournament))
    seat_1 = Seat.objects.select_related("round__tournament", "table").get(
        round=round_1, entry=entry
    )

    data = personal(api, key).json()
    assert data["tournament"] == {"slug": tournament.slug, "name": tournament.name}
    assert data["start_number"] == entry.start_number
    assert data["status"] == "active"
    assert data["current"]["round"] == 1
    assert data["current"]["status"] == "running"
    assert (data["current"]["table"], data["current"]["seat"]) == (
        seat_1.table.number,
        seat_1.position,
    )
    assert len(data["current"]["players"]) == 4
    assert data["sheet"] == {"url": f"/s/{seat_1.token}/", "seat_key": seat_1.token}
    # The seat's key opens the seat's sheet on the scoresheet API, and that is all it is.
    sheet = api.get(sheet_url(seat_1), headers={"X-Seat-Key": data["sheet"]["seat_key"]})
    assert sheet.status_code == 200, sheet.content
    assert data["next"] == {
        "round": 2,
        "status": "planned",
        "published": False,
        "table": None,
        "seat": None,
        "keeper": None,
        "players": [],
        "moved": False,
        "second_seat": None,
    }

    for table_sheet in Scoresheet.objects.filter(table__round=round_1):
        factories.sheet_confirmed(table_sheet, full_match())
    factories.round_end(round_1)
    services.round_close(round=round_1)
    round_2 = factories.seated_round(tournament, publish=False)
    seat_2 = Seat.objects.select_related("round__tournament", "table").get(
        round=round_2, entry=entry
    )
    # Drawn, not published: nothing of it shows, its key least of all.
    data = personal(api, key).json()
    assert data["current"] is None
    assert data["sheet"] is None
    assert data["next"]["round"] == 2
    assert data["next"]["published"] is False
    assert data["next"]["table"] is None
    assert seat_2.token not in str(data)
    assert [r["round"] for r in data["results"]] == [1]

    services.round_publish(round=round_2)
    data = personal(api, key).json()
    assert data["current"]["round"] == 2
    assert data["current"]["table"] == seat_2.table.number
    assert data["sheet"]["seat_key"] == seat_2.token
    sheet = api.get(sheet_url(seat_2), headers={"X-Seat-Key": data["sheet"]["seat_key"]})
    assert sheet.status_code == 200

    replaced = api.post(
        reverse("api:personal-link-replace", args=[tournament.slug, entry.start_number]),
        headers=headers["adjudicator"],
    )
    assert replaced.status_code == 200
    entry.refresh_from_db()
    assert replaced.json()["url"].endswith(f"/p/{entry.link_key}/")
    old = personal(api, key)
    assert old.status_code == 404
    # The same answer as for a key nobody ever had.
    assert personal(api, "x" * 32).json() == old.json()
    assert personal(api, entry.link_key).status_code == 200


def test_the_rank_and_points_only_while_the_standings_are_public(api, played):
    tournament, _round, organiser = played
    services.standings_rebuild(tournament_id=tournament.pk)
    entry = factories.entries(tournament)[0]
    data = personal(api, entry.link_key).json()
    assert data["standings_public"] is True
    assert data["rank"] is not None
    assert data["points"] is not None
    assert data["results"][0]["round"] == 1
    services.tournament_update(
        tournament=tournament, by=organiser, changes={"standings_public": False}
    )
    data = personal(api, entry.link_key).json()
    assert data["standings_public"] is False
    assert data["rank"] is None
    assert data["points"] is None


@pytest.mark.parametrize(
    "key", ["", "a" * 33, "not a key", "key\x00", "ä-umlaut", "../../etc"], ids=repr
)
def test_a_missing_or_malformed_key_is_400_on_the_header(api, key):
    response = api.get(PERSONAL, headers={"X-Player-Key": key}) if key else api.get(PERSONAL)
    assert response.status_code == 400
    assert "X-Player-Key" in response.json()


def test_made_up_keys_are_limited_per_address(api, settings, staffed_two):
    tournament, _headers = staffed_two
    settings.PERSONAL_LINK_RATE_UNKNOWN = "2/min"
    assert personal(api, "made-up-1").status_code == 404
    assert personal(api, "made-up-2").status_code == 404
    limited = personal(api, "made-up-3")
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) >= 1
    assert personal(api, factories.entries(tournament)[0].link_key).status_code == 200


def test_a_waiting_registration_sees_its_place_and_leaves(api, staffed_two):
    tournament, _headers = staffed_two
    waiting = Registration.objects.create(
        tournament=tournament,
        first_name="Wartende",
        last_name="Erste",
        email="erste@example.org",
        state=Registration.State.WAITING,
        waiting_position=1,
    )
    data = personal(api, waiting.key).json()
    assert data["registration"] == {"state": "waiting", "place": 1}
    assert data["start_number"] is None
    assert data["may_withdraw"] is True
    response = api.post(WITHDRAW, headers={"X-Player-Key": waiting.key})
    assert response.status_code == 200
    assert response.json()["registration"]["state"] == "cancelled"


def test_the_player_withdraws_before_the_draw_not_after(api, staffed_two):
    tournament, _headers = staffed_two
    entries = factories.entries(tournament)
    response = api.post(WITHDRAW, headers={"X-Player-Key": entries[0].link_key})
    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"
    # Withdrawn already: refused on the status.
    again = api.post(WITHDRAW, headers={"X-Player-Key": entries[0].link_key})
    assert again.status_code == 400
    assert "status" in again.json()
    services.entry_reinstate(entry=entries[0])  # eight again, to seat at tables of four
    factories.seated_round(tournament)
    before = personal(api, entries[1].link_key).json()
    assert before["may_withdraw"] is False
    assert "desk" in before["withdraw_refusal"]
    refused = api.post(WITHDRAW, headers={"X-Player-Key": entries[1].link_key})
    assert refused.status_code == 400
    assert "desk" in refused.json()["rounds"][0]
    assert Entry.objects.get(pk=entries[1].pk).status == Entry.Status.ACTIVE


@pytest.mark.parametrize(("role", "status"), [("organiser", 200), ("adjudicator", 200)])
def test_the_staff_who_hand_links_out_read_a_players_link(api, staffed_two, role, status):
    tournament, headers = staffed_two
    entry = factories.entries(tournament)[2]
    response = api.get(
        reverse("api:personal-link", args=[tournament.slug, entry.start_number]),
        headers=headers[role],
    )
    assert response.status_code == status
    assert response.json()["url"].endswith(f"/p/{entry.link_key}/")
    assert response["Cache-Control"] == "private, no-store"


def test_others_are_refused_with_the_reason(api, staffed_two):
    tournament, _headers = staffed_two
    panel = factories.user()
    factories.role_grant(tournament=tournament, user=panel, role="panel")
    token = Token.objects.create(user=panel).key
    entry = factories.entries(tournament)[0]
    old = entry.link_key
    for name, method in (("api:personal-link", "get"), ("api:personal-link-replace", "post")):
        response = getattr(api, method)(
            reverse(name, args=[tournament.slug, entry.start_number]),
            headers={"Authorization": f"Token {token}"},
        )
        assert response.status_code == 403
        assert "organiser or the adjudicator" in response.json()["detail"]
    assert api.get(reverse("api:personal-link", args=[tournament.slug, 1])).status_code in (
        401,
        403,
    )
    entry.refresh_from_db()
    assert entry.link_key == old


def test_an_unknown_start_number_is_404(api, staffed_two):
    tournament, headers = staffed_two
    response = api.get(
        reverse("api:personal-link", args=[tournament.slug, 99]), headers=headers["organiser"]
    )
    assert response.status_code == 404


def test_the_refusal_after_the_draw_speaks_german_by_default(staffed_two):
    tournament, _headers = staffed_two
    factories.seated_round(tournament)
    entry = factories.entries(tournament)[0]
    refused = APIClient().post(WITHDRAW, headers={"X-Player-Key": entry.link_key})
    assert refused.status_code == 400
    assert "sagen Sie es der Turnierleitung" in refused.json()["rounds"][0]
    missing = APIClient().get(PERSONAL)
    assert "Senden Sie in diesem Header" in missing.json()["X-Player-Key"][0]
