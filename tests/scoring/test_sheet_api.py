"""The scoresheet API: reading a table's sheet, entering, handing in, confirming and reopening it,
by staff accounts and by the players' seat keys (TSR 7.3, 8.4, 8.5)."""

import datetime
from dataclasses import replace

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.rules.contracts import Contract
from doko.rules.sheet import check_sheet
from doko.sample_sheets import full_match, normal, solo
from scoring import services
from scoring.models import Hand, Scoresheet
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def tournament(organiser):
    """Eight players at two tables, round 1 running."""
    tournament = factories.tournament(players=8, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return tournament


@pytest.fixture
def sheet(tournament) -> Scoresheet:
    return Scoresheet.objects.select_related("table__round__tournament").get(
        table__round__tournament=tournament, table__number=1
    )


@pytest.fixture
def api():
    return APIClient()


def url(sheet, action=""):
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return reverse("api:scoresheet" + (f"-{action}" if action else ""), args=args)


def key(sheet, position) -> dict:
    return {
        "X-Seat-Key": sheet.table.seats.get(position=position).token,
        "Accept-Language": "en",
    }


def token(user) -> dict:
    return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}


def hand_json(line) -> dict:
    return {
        "contract": str(line.contract),
        "dealer": line.dealer,
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": {str(seat): points for seat, points in line.points.items()},
    }


def put(api, sheet, hands, version, headers, language="en", **extra):
    return api.put(
        url(sheet),
        {"version": version, "hands": [hand_json(line) for line in hands], **extra},
        format="json",
        headers={**headers, "Accept-Language": language},
    )


def post(api, sheet, action, data, headers):
    return api.post(
        url(sheet, action), data, format="json", headers={"Accept-Language": "en", **headers}
    )


def handed_in(sheet) -> Scoresheet:
    """The sheet with a full match entered and handed in by the scorekeeper's link."""
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=factories.keeper(sheet)
    )
    return services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )


# Reading ----------------------------------------------------------------------------------------


def test_organiser_reads_the_sheet_with_seats_and_the_live_check(api, sheet, organiser):
    response = api.get(url(sheet), headers=token(organiser))
    assert response.status_code == 200
    data = response.json()
    assert (data["round"], data["table"], data["status"], data["version"]) == (1, 1, "draft", 1)
    seats = list(sheet.table.seats.select_related("entry__player").order_by("position"))
    assert data["seats"] == [
        {"position": s.position, "start_number": s.entry.start_number, "name": s.entry.player.name}
        for s in seats
    ]
    assert data["hands"] == []
    assert data["check"]["next"] == {
        "dealer": 1,
        "must_be_forced_solo": False,
        "forced_soloist": None,
        "hands_remaining": 24,
    }
    assert data["check"]["complete"] is False
    assert data["scorekeeper"] == 4
    # The private links are never shown.
    assert all(s.token not in response.content.decode() for s in seats)


def test_a_seat_key_of_the_table_reads_its_sheet_with_running_totals(api, sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], version=1, by=factories.keeper(sheet)
    )
    response = api.get(url(sheet), headers=key(sheet, 2))
    assert response.status_code == 200
    data = response.json()
    assert [hand["number"] for hand in data["hands"]] == [1, 2, 3]
    first, second = data["hands"][0], data["hands"][1]
    assert first["points"] == {"1": 1, "2": -1, "3": 1, "4": -1}
    assert second["contract"] == "compulsory_solo"
    assert second["section"] == "compulsory_solo"
    assert second["solo_type"] == "queens"
    assert second["totals"] == {"1": 7, "2": -3, "3": -1, "4": -3}
    assert data["totals"] == data["hands"][-1]["totals"]
    assert data["check"]["compulsory_played"] == {"1": True, "2": False, "3": False, "4": False}


def test_a_key_of_another_table_is_refused(api, sheet, tournament):
    other = Scoresheet.objects.get(table__round__tournament=tournament, table__number=2)
    response = api.get(url(sheet), headers=key(other, 4))
    assert response.status_code == 403
    assert response.json()["detail"] == "This link does not open this scoresheet."


def test_an_unknown_key_is_refused(api, sheet):
    assert api.get(url(sheet), headers={"X-Seat-Key": "not-a-key"}).status_code == 403


def test_anonymous_without_a_key_must_authenticate(api, sheet):
    assert api.get(url(sheet)).status_code == 401


def test_an_account_without_a_role_may_not_read_the_sheet(api, sheet):
    assert api.get(url(sheet), headers=token(factories.user())).status_code == 403


def test_a_scorekeeper_account_reads_the_sheet(api, sheet, tournament):
    scorekeeper = factories.user()
    factories.role_grant(
        tournament=tournament, user=scorekeeper, role=TournamentRole.Role.SCOREKEEPER
    )
    assert api.get(url(sheet), headers=token(scorekeeper)).status_code == 200


def test_a_scorekeeper_account_reads_no_sheet_of_a_seating_not_published(api, tournament):
    """The pages show an unpublished seating to the staff only (``may_read_seating``); the API
    the same, scorekeeper accounts included, whatever they ask."""
    round_ = factories.seated_round(tournament, publish=False)
    sheet = Scoresheet.objects.get(table__round=round_, table__number=1)
    scorekeeper = factories.user()
    factories.role_grant(
        tournament=tournament, user=scorekeeper, role=TournamentRole.Role.SCOREKEEPER
    )
    headers = {**token(scorekeeper), "Accept-Language": "en"}
    name = sheet.table.seats.first().entry.player.name
    for response in (
        api.get(url(sheet), headers=headers),
        api.get(url(sheet, "changes"), headers=headers),
        put(api, sheet, full_match()[:1], 99, headers),  # a stale version would show it
        post(api, sheet, "confirm", {"version": 99}, headers),
    ):
        assert response.status_code == 403
        assert response.json()["detail"] == "The seating of round 2 has not been published yet."
        assert name not in response.content.decode()
    adjudicator = token(factories.adjudicator(tournament))
    assert api.get(url(sheet), headers=adjudicator).status_code == 200
    tournament_services.round_publish(round=round_)
    assert api.get(url(sheet), headers=headers).status_code == 200


@pytest.mark.parametrize("hands", [1, 24])
def test_reading_a_sheet_runs_a_fixed_number_of_queries(
    api, sheet, organiser, django_assert_num_queries, hands
):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:hands], version=1, by=factories.keeper(sheet)
    )
    organiser_headers, seat_headers = token(organiser), key(sheet, 1)
    # token with its user, tournament, roles, sheet, seats with players, hands, decisions,
    # deductions
    with django_assert_num_queries(8):
        assert api.get(url(sheet), headers=organiser_headers).status_code == 200
    # seat by its key with its sheet, seats with players, hands, decisions, deductions
    with django_assert_num_queries(5):
        assert api.get(url(sheet), headers=seat_headers).status_code == 200


def test_a_logged_in_organiser_reads_the_sheet_by_session(
    api, sheet, organiser, django_assert_num_queries
):
    api.force_login(organiser)
    # session, user, tournament, roles, sheet, seats with players, hands, decisions, deductions
    with django_assert_num_queries(9):
        assert api.get(url(sheet)).status_code == 200


# Entering and handing in ------------------------------------------------------------------------


def test_the_scorekeeper_enters_a_full_match_and_hands_it_in(api, sheet):
    response = put(api, sheet, full_match(), 1, key(sheet, 4))
    assert response.status_code == 200
    data = response.json()
    assert data["version"] == 2
    assert len(data["hands"]) == 24  # 20 + 4 compulsory solos (TSR 8.5.1)
    assert data["check"]["complete"] is True
    assert Hand.objects.filter(scoresheet=sheet).count() == 24
    submitted = post(api, sheet, "submit", {"version": 2}, key(sheet, 4))
    assert submitted.status_code == 200
    data = submitted.json()
    assert data["status"] == "submitted"
    assert data["version"] == 3
    keeper = sheet.table.seats.get(position=4).entry.player.name
    assert data["submitted_by"] == f"{keeper} (seat 4)"
    assert data["submitted_at"] is not None


def test_dealers_and_game_values_left_out_are_filled_in(api, sheet):
    hands = [hand_json(line) for line in full_match()[:4]]
    for hand in hands:
        del hand["dealer"], hand["game_value"]
    response = api.put(
        url(sheet), {"version": 1, "hands": hands}, format="json", headers=key(sheet, 4)
    )
    assert response.status_code == 200
    data = response.json()["hands"]
    assert [hand["dealer"] for hand in data] == [line.dealer for line in full_match()[:4]]
    assert [hand["game_value"] for hand in data] == [line.game_value for line in full_match()[:4]]


def test_another_players_key_may_not_enter_hands(api, sheet):
    response = put(api, sheet, full_match()[:2], 1, key(sheet, 2))
    assert response.status_code == 403
    assert "Only the scorekeeper, seat 4" in response.json()["detail"]
    assert not Hand.objects.filter(scoresheet=sheet).exists()


def test_a_hand_that_does_not_add_up_is_refused_and_nothing_is_saved(api, sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], version=1, by=factories.keeper(sheet)
    )
    hands = full_match()[:4]
    hands[2] = replace(hands[2], points={1: 3, 2: -1, 3: -1, 4: -2}, game_value=None)
    response = put(api, sheet, hands, 2, key(sheet, 4))
    assert response.status_code == 400
    messages = response.json()["hands"]
    assert any("TSR 7.3.3" in message for message in messages)
    sheet.refresh_from_db()
    assert sheet.version == 2
    assert Hand.objects.filter(scoresheet=sheet).count() == 2


def test_rule_messages_follow_the_request_language(api, sheet):
    hands = [replace(normal(1, (1, 3), 1), points={1: 1, 2: -1, 3: 1, 4: 1}, game_value=None)]
    response = put(api, sheet, hands, 1, key(sheet, 4), language="de")
    assert response.status_code == 400
    assert "Die Punkte ergeben zusammen 2 statt null." in response.json()["hands"][0]


def test_a_solo_without_a_soloist_is_refused_by_the_hand(api, sheet):
    hand = hand_json(full_match()[1]) | {"soloist": None}
    response = api.put(
        url(sheet), {"version": 1, "hands": [hand]}, format="json", headers=key(sheet, 4)
    )
    assert response.status_code == 400
    assert response.json()["hands"] == {
        "0": {"soloist": ["Name the soloist of a solo (TSR 2.4.7, 4.4.5)."]}
    }


def test_a_seat_beyond_the_table_is_refused(api, sheet):
    hand = hand_json(full_match()[0])
    hand["points"]["5"] = 0
    response = api.put(
        url(sheet), {"version": 1, "hands": [hand]}, format="json", headers=key(sheet, 4)
    )
    assert response.status_code == 400
    assert response.json()["hands"] == {
        "0": {"points": ["“5” is not a seat; seats are numbered 1 to 4."]}
    }


def test_a_missing_version_is_refused_by_name(api, sheet):
    response = api.put(url(sheet), {"hands": []}, format="json", headers=key(sheet, 4))
    assert response.status_code == 400
    assert "version" in response.json()


def test_the_end_of_playing_time_beyond_the_hands_is_refused(api, sheet):
    factories.round_end(sheet.table.round)
    response = put(api, sheet, full_match()[:3], 1, key(sheet, 4), time_over_after_hand=5)
    assert response.status_code == 400
    assert response.json() == {
        "time_over_after_hand": [
            "The playing time cannot have ended after hand 5: the sheet has 3 hands (TSR 8.5.1)."
        ]
    }


def test_the_end_of_playing_time_waits_for_the_adjudicators_announcement(api, sheet):
    response = put(api, sheet, full_match()[:3], 1, key(sheet, 4), time_over_after_hand=3)
    assert response.status_code == 400
    [message] = response.json()["time_over_after_hand"]
    assert "table 1 has not ended" in message
    assert "TSR 8.5.1" in message
    assert not sheet.hands.exists()
    factories.round_end(sheet.table.round)
    response = put(api, sheet, full_match()[:3], 1, key(sheet, 4), time_over_after_hand=3)
    assert response.status_code == 200, response.json()
    assert response.json()["time_over_after_hand"] == 3


def test_a_table_of_five_notes_its_end_only_after_its_longer_match(api):
    """TSR 10.1.5: the round ended just after its start; a table of five plays on until its
    125 minutes of net playing time are over."""
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    ended = factories.round_end(round_)
    hands = full_match(size=5)[:4]
    response = put(api, sheet, hands, 1, key(sheet, 5), time_over_after_hand=4)
    assert response.status_code == 400
    ends = timezone.localtime(ended.started_at + datetime.timedelta(minutes=125))
    assert response.json()["time_over_after_hand"][0].startswith(
        f"The playing time of table 1 ends at {ends:%H:%M} (TSR 8.5.1, 10.1.5)"
    )
    # Left out, the note is kept as it is (empty): the table plays on and enters its hands.
    response = put(api, sheet, hands, 1, key(sheet, 5))
    assert response.status_code == 200
    assert response.json()["time_over_after_hand"] is None


# Ending the time marks the sheets (TSR 8.5.1, 8.5.3) -------------------------------------------


def end_time(api, tournament):
    adjudicator = factories.adjudicator(tournament)
    return api.post(
        reverse("api:round-end", args=[tournament.slug, 1]),
        {},
        format="json",
        headers=token(adjudicator),
    )


def test_ending_the_time_marks_every_running_sheet_at_the_hands_written(api, tournament, sheet):
    """Point 13: the sheets no longer say "n of 24 hands to play" until each scorekeeper types
    the mark himself; the mark is the hands written when the end was announced."""
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:8], version=1, by=factories.keeper(sheet)
    )
    other = Scoresheet.objects.get(table__round__tournament=tournament, table__number=2)
    assert end_time(api, tournament).status_code == 200
    data = api.get(url(sheet), headers=key(sheet, 4)).json()
    assert data["time_over_after_hand"] == 8
    assert data["version"] == 3
    # Seat 1 still owes his compulsory solo: only the forced solos follow (TSR 8.5.3, 8.6.1).
    assert data["check"]["next"]["hands_remaining"] == len(
        data["check"]["compulsory_played"]
    ) - sum(data["check"]["compulsory_played"].values())
    other.refresh_from_db()
    # Nothing written on it: it may be kept on paper and typed in later with the paper's mark.
    assert other.time_over_after_hand is None
    assert sheet.changes.filter(action="time_over").count() == 1


def test_the_scorekeeper_corrects_the_mark_within_the_hands_written(api, tournament, sheet):
    """A hand begun before the end is played to its end (TSR 8.5.1): the scorekeeper moves
    the mark to the hands the paper says, but not past the hands written."""
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:8], version=1, by=factories.keeper(sheet)
    )
    end_time(api, tournament)
    hands = full_match()[:9]
    response = put(api, sheet, hands, 3, key(sheet, 4), time_over_after_hand=9)
    assert response.status_code == 200, response.json()
    assert response.json()["time_over_after_hand"] == 9
    response = put(api, sheet, hands, 4, key(sheet, 4), time_over_after_hand=10)
    assert response.status_code == 400
    assert "TSR 8.5.1" in response.json()["time_over_after_hand"][0]


def test_ending_the_time_leaves_a_sheet_handed_in_as_it_is(api, tournament, sheet):
    sheet = handed_in(sheet)
    version = sheet.version
    end_time(api, tournament)
    sheet.refresh_from_db()
    assert (sheet.time_over_after_hand, sheet.version) == (None, version)


def test_ending_the_time_leaves_a_sheet_ended_early_as_it_is(api, tournament, sheet):
    """A sheet ended early has nothing left to play: no mark, no new version."""
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:8], version=1, by=factories.keeper(sheet)
    )
    sheet = services.scoresheet_end_early(
        scoresheet=sheet,
        version=sheet.version,
        reason="Spieler abgereist",
        by=services.Actor(user=factories.organiser(tournament)),
    )
    version = sheet.version
    end_time(api, tournament)
    sheet.refresh_from_db()
    assert (sheet.time_over_after_hand, sheet.version) == (None, version)


def test_where_sheets_are_kept_on_paper_ending_the_time_marks_none(api, tournament, sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:8], version=1, by=factories.keeper(sheet)
    )
    tournament.sheet_keeping = "paper"
    tournament.save(update_fields=["sheet_keeping"])
    end_time(api, tournament)
    sheet.refresh_from_db()
    assert sheet.time_over_after_hand is None


def test_where_sheets_are_kept_on_phones_an_empty_sheet_is_marked_too(api, tournament, sheet):
    tournament.sheet_keeping = "phones"
    tournament.save(update_fields=["sheet_keeping"])
    end_time(api, tournament)
    sheet.refresh_from_db()
    assert sheet.time_over_after_hand == 0


def test_a_table_with_extra_time_is_not_marked_at_the_announcement(api, tournament, sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:8], version=1, by=factories.keeper(sheet)
    )
    tournament_services.table_extra_time_grant(
        table=sheet.table, minutes=5, reason="Reklamation", by=factories.adjudicator(tournament)
    )
    end_time(api, tournament)
    sheet.refresh_from_db()
    assert sheet.time_over_after_hand is None


def test_a_table_of_five_whose_125_minutes_run_on_is_not_marked_at_the_announcement(api):
    """TSR 10.1.5: the five plays on until its 125 minutes are over; ended after them, it is
    marked with the fours."""
    tournament = factories.tournament(players=9, allow_tables_of_five=True, sheet_keeping="phones")
    start = timezone.now() - datetime.timedelta(minutes=110)
    tournament_services.round_start(round=factories.seated_round(tournament), at=start)
    end_time(api, tournament)
    marks = {
        sheet.table.seats.count(): sheet.time_over_after_hand
        for sheet in Scoresheet.objects.filter(table__round__tournament=tournament)
    }
    assert marks == {4: 0, 5: None}
    tournament = factories.tournament(players=9, allow_tables_of_five=True, sheet_keeping="phones")
    start = timezone.now() - datetime.timedelta(minutes=126)
    tournament_services.round_start(round=factories.seated_round(tournament), at=start)
    end_time(api, tournament)
    marks = {
        sheet.table.seats.count(): sheet.time_over_after_hand
        for sheet in Scoresheet.objects.filter(table__round__tournament=tournament)
    }
    assert marks == {4: 0, 5: 0}


# Versions ---------------------------------------------------------------------------------------


def test_a_stale_write_gets_409_with_the_current_sheet_and_changes_nothing(api, sheet):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], version=1, by=factories.keeper(sheet)
    )
    response = put(api, sheet, full_match()[:5], 1, key(sheet, 4))
    assert response.status_code == 409
    data = response.json()
    assert "version 2" in data["detail"]
    assert data["current"]["version"] == 2
    assert len(data["current"]["hands"]) == 3
    assert [change["version"] for change in data["changes"]] == [2]
    sheet.refresh_from_db()
    assert sheet.version == 2
    assert Hand.objects.filter(scoresheet=sheet).count() == 3


def test_of_two_writers_with_the_same_version_the_first_wins(api, sheet):
    first, second = APIClient(), APIClient()
    version = first.get(url(sheet), headers=key(sheet, 4)).json()["version"]
    assert second.get(url(sheet), headers=key(sheet, 4)).json()["version"] == version
    won = put(first, sheet, full_match()[:2], version, key(sheet, 4))
    lost = put(second, sheet, full_match()[:4], version, key(sheet, 4))
    assert won.status_code == 200
    assert lost.status_code == 409
    assert lost.json()["current"] == won.json()
    assert Hand.objects.filter(scoresheet=sheet).count() == 2


def test_a_stale_submit_gets_409(api, sheet):
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    response = post(api, sheet, "submit", {"version": 1}, key(sheet, 4))
    assert response.status_code == 409
    assert response.json()["current"]["status"] == "draft"


# Confirming and reopening -----------------------------------------------------------------------


def test_confirm_by_the_submitter_is_refused(api, sheet):
    sheet = handed_in(sheet)
    response = post(api, sheet, "confirm", {"version": sheet.version}, key(sheet, 4))
    assert response.status_code == 400
    assert "confirmed_by" in response.json()
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED


def test_another_players_key_confirms(api, sheet):
    sheet = handed_in(sheet)
    response = post(api, sheet, "confirm", {"version": sheet.version}, key(sheet, 2))
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "confirmed"
    player = sheet.table.seats.get(position=2).entry.player.name
    assert data["confirmed_by"] == f"{player} (seat 2)"


def playing_scorekeeper(sheet, position):
    """A scorekeeper account whose "plays as" is the player at ``position`` of the table."""
    user = factories.user()
    factories.role_grant(
        tournament=sheet.table.round.tournament,
        user=user,
        role=TournamentRole.Role.SCOREKEEPER,
        entry=sheet.table.seats.get(position=position).entry,
    )
    return user


@pytest.mark.parametrize("by", ["token", "session"])
def test_a_scorekeeper_account_playing_as_the_seat_that_handed_in_may_not_confirm(api, sheet, by):
    sheet = handed_in(sheet)  # by seat 4's link
    user = playing_scorekeeper(sheet, 4)
    headers = token(user) if by == "token" else {}
    if by == "session":
        api.force_login(user)
    response = post(api, sheet, "confirm", {"version": sheet.version}, headers)
    assert response.status_code == 400
    assert "seat 4" in response.json()["confirmed_by"][0]
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED


def test_the_key_of_the_seat_a_scorekeeper_account_handed_in_for_may_not_confirm(api, sheet):
    user = playing_scorekeeper(sheet, 3)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=services.Actor(user=user)
    )
    sheet = services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=services.Actor(user=user)
    )
    response = post(api, sheet, "confirm", {"version": sheet.version}, key(sheet, 3))
    assert response.status_code == 400
    assert "confirmed_by" in response.json()
    assert post(api, sheet, "confirm", {"version": sheet.version}, key(sheet, 1)).status_code == 200


def test_an_account_without_a_role_may_not_confirm_nor_see_the_sheet_by_a_stale_version(api, sheet):
    sheet = handed_in(sheet)
    stranger = token(factories.user())
    assert post(api, sheet, "confirm", {"version": sheet.version}, stranger).status_code == 403
    response = post(api, sheet, "confirm", {"version": 1}, stranger)
    assert response.status_code == 403
    assert "current" not in response.json()
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED


def test_the_organiser_reopens_with_a_reason(api, sheet, organiser):
    sheet = handed_in(sheet)
    response = post(
        api,
        sheet,
        "reopen",
        {"version": sheet.version, "reason": "Hand 5 mixed up"},
        token(organiser),
    )
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "draft"
    assert data["submitted_by"] is None
    assert sheet.changes.get(version=data["version"]).reason == "Hand 5 mixed up"


def test_reopening_without_a_reason_is_refused(api, sheet, organiser):
    sheet = handed_in(sheet)
    response = post(api, sheet, "reopen", {"version": sheet.version}, token(organiser))
    assert response.status_code == 400
    assert "reason" in response.json()


def test_a_players_key_cannot_reopen(api, sheet):
    sheet = handed_in(sheet)
    response = post(api, sheet, "reopen", {"version": sheet.version, "reason": "x"}, key(sheet, 4))
    assert response.status_code == 403
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED


def test_the_changes_are_listed_in_order(api, sheet, organiser):
    sheet = handed_in(sheet)
    sheet = services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )
    post(api, sheet, "reopen", {"version": sheet.version, "reason": "Check"}, token(organiser))
    response = api.get(url(sheet, "changes"), headers=key(sheet, 1))
    assert response.status_code == 200
    changes = response.json()
    assert [c["action"] for c in changes] == ["hands", "submit", "confirm", "reopen"]
    assert [c["version"] for c in changes] == [2, 3, 4, 5]
    assert changes[0]["hands_changed"] == list(range(1, 25))
    assert changes[0]["before"]["hands"] == []
    assert len(changes[0]["after"]["hands"]) == 24
    assert changes[-1]["reason"] == "Check"
    assert changes[-1]["by_name"] == "Olga Organ"
    since = api.get(url(sheet, "changes") + "?since=3", headers=key(sheet, 1)).json()
    assert [c["action"] for c in since] == ["confirm", "reopen"]


# Handing the sheet over (TSR 3.1.1, 8.4.1) ------------------------------------------------------


def test_the_organiser_hands_the_sheet_over_and_the_keys_follow(api, sheet, organiser):
    response = post(api, sheet, "keeper", {"version": 1, "seat": 2}, token(organiser))
    assert response.status_code == 200, response.json()
    data = response.json()
    assert (data["scorekeeper"], data["version"]) == (2, 2)
    assert [s["position"] for s in data["seats"]] == [1, 2, 3, 4]  # the seating order stays
    refused = put(api, sheet, full_match()[:2], 2, key(sheet, 4))
    assert refused.status_code == 403
    assert put(api, sheet, full_match()[:2], 2, key(sheet, 2)).status_code == 200
    changes = api.get(url(sheet, "changes"), headers=key(sheet, 4)).json()
    assert [c["action"] for c in changes] == ["keeper", "hands"]
    assert (changes[0]["before"].get("keeper"), changes[0]["after"]["keeper"]) == (None, 2)


def test_a_stale_hand_over_gets_409_and_changes_nothing(api, sheet, organiser):
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], version=1, by=factories.keeper(sheet)
    )
    response = post(api, sheet, "keeper", {"version": 1, "seat": 2}, token(organiser))
    assert response.status_code == 409
    assert response.json()["current"]["scorekeeper"] == 4
    sheet.refresh_from_db()
    assert sheet.keeper_seat is None


@pytest.mark.parametrize(
    "body",
    [
        {"version": 1, "seat": "²"},
        {"version": 1, "seat": 2**70},
        {"version": 1, "seat": 0},
        {"version": 1, "seat": [2]},
        {"version": 1, "seat": 2.5},
        {"version": 1},
        {"version": "eins", "seat": 2},
        [1, 2],
    ],
)
def test_hostile_hand_over_bodies_are_refused_by_field(api, sheet, organiser, body):
    response = post(api, sheet, "keeper", body, token(organiser))
    assert response.status_code == 400
    sheet.refresh_from_db()
    assert (sheet.keeper_seat, sheet.version) == (None, 1)


def test_a_seat_not_at_the_table_is_refused_on_seat(api, sheet, organiser):
    response = post(api, sheet, "keeper", {"version": 1, "seat": 5}, token(organiser))
    assert response.status_code == 400
    [message] = response.json()["seat"]
    assert message.startswith("Table 1 has seats 1 to 4; seat 5 is not at it (TSR 3.1.1)")


@pytest.mark.parametrize("who", ["keeper", "panel"])
def test_only_staff_who_run_the_round_hand_the_sheet_over(api, sheet, tournament, who):
    if who == "keeper":
        headers = key(sheet, 4)
    else:
        member = factories.user()
        factories.role_grant(tournament=tournament, user=member, role=who)
        headers = token(member)
    response = post(
        api, sheet, "keeper", {"version": 1, "seat": 4 if who == "keeper" else 2}, headers
    )
    assert response.status_code == 403
    assert "TSR 3.1.1, 8.4.1" in response.json()["detail"]
    sheet.refresh_from_db()
    assert (sheet.keeper_seat, sheet.version) == (None, 1)


# Schema -----------------------------------------------------------------------------------------


def test_the_seat_key_is_a_security_scheme_of_the_sheet_endpoints(api):
    schema = api.get(reverse("api-schema"), headers={"Accept": "application/json"}).json()
    assert schema["components"]["securitySchemes"]["seatKey"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Seat-Key",
        "description": schema["components"]["securitySchemes"]["seatKey"]["description"],
    }
    sheet_path = "/api/v1/tournaments/{slug}/rounds/{number}/tables/{table}/scoresheet"
    actions = ("submit", "confirm", "reopen", "keeper")
    for path in [sheet_path, *(f"{sheet_path}/{a}" for a in actions)]:
        operation = next(iter(schema["paths"][path].values()))
        assert {"seatKey": []} in operation["security"]
    assert Contract.FORCED_SOLO.value in schema["components"]["schemas"]["Contract"]["enum"]


# The round's count: 24 lines at four, 30 at five, compulsory solos included ------------------
# (TSR 8.5.1, 10.1.5, 10.2.1), and what a client gets when the check refuses a write


def with_forced_solos(lines, *, size=4, time_over_after_hand=None):
    """``lines`` followed by the forced solos the rules core says are owed (TSR 4.2.3)."""
    lines = list(lines)
    while True:
        due = check_sheet(
            table_size=size,
            hands_per_match=24 if size == 4 else 30,
            hands=lines,
            time_over_after_hand=time_over_after_hand,
        ).next
        if not due.must_be_forced_solo:
            return lines
        lines.append(
            solo(due.dealer, due.forced_soloist, 1, contract=Contract.FORCED_SOLO, size=size)
        )


def test_two_compulsory_solos_twenty_normal_hands_and_two_forced_solos_are_handed_in(api, sheet):
    lines = [solo(1, 2, 1), solo(1, 4, -1)]
    dealer = 1
    for _ in range(20):
        lines.append(normal(dealer, (1, 3), 2))
        dealer = dealer % 4 + 1
    lines = with_forced_solos(lines)
    assert len(lines) == 24
    response = put(api, sheet, lines, 1, key(sheet, 4))
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["check"]["complete"] is True
    assert [hand["section"] for hand in data["hands"]].count("compulsory_solo") == 4
    assert data["hands_per_match"] == 24
    submitted = post(api, sheet, "submit", {"version": 2}, key(sheet, 4))
    assert submitted.status_code == 200, submitted.json()
    assert submitted.json()["status"] == "submitted"


def test_a_twenty_fifth_line_is_refused_with_the_problem_by_hand_code_and_rule(api, sheet):
    lines = full_match()
    dealer = check_sheet(table_size=4, hands_per_match=24, hands=lines).next.dealer
    response = put(api, sheet, [*lines, normal(dealer, (1, 2), 1)], 1, key(sheet, 4))
    assert response.status_code == 400
    body = response.json()
    assert body["problems"] == [
        {
            "hand": 25,
            "code": "hand_count",
            "rule": "TSR 8.5.1",
            "message": "Hand 25: the round has 24 hands, compulsory solos included; no more "
            "may be played. (TSR 8.5.1)",
        }
    ]
    assert body["hands"] == [body["problems"][0]["message"]]
    assert not Hand.objects.filter(scoresheet=sheet).exists()


def test_handing_in_too_early_says_how_many_hands_are_left(api, sheet):
    put(api, sheet, full_match()[:10], 1, key(sheet, 4))
    response = post(api, sheet, "submit", {"version": 2}, key(sheet, 4))
    assert response.status_code == 400
    assert response.json()["problems"] == [
        {
            "hand": None,
            "code": "incomplete",
            "rule": "TSR 8.5.1, 8.6.1",
            "message": "The scoresheet is not complete: 14 of the round's 24 hands are still "
            "to be played, compulsory solos included. (TSR 8.5.1, 8.6.1)",
        }
    ]
    sheet.refresh_from_db()
    assert sheet.status == "draft"


def test_a_hand_dealt_out_of_turn_is_saved_with_a_warning(api, sheet):
    response = put(api, sheet, [normal(1, (1, 2), 1), normal(3, (1, 2), 1)], 1, key(sheet, 4))
    assert response.status_code == 200
    check = response.json()["check"]
    assert check["ok"] is True
    assert [(w["hand"], w["code"], w["rule"]) for w in check["warnings"]] == [
        (2, "dealer", "TSR 3.3.1, 9.7.3")
    ]
    assert check["next"]["dealer"] == 4  # the deal goes on from who dealt


def test_a_normal_game_split_three_to_one_is_refused(api, sheet):
    line = replace(normal(1, (1, 2), 1), points={1: 1, 2: 1, 3: 1, 4: -3}, game_value=None)
    response = put(api, sheet, [line], 1, key(sheet, 4))
    assert response.status_code == 400
    assert [(p["hand"], p["code"]) for p in response.json()["problems"]] == [(1, "value")]


def test_a_normal_game_worth_a_thousand_is_refused(api, sheet):
    response = put(api, sheet, [normal(1, (1, 2), 1000)], 1, key(sheet, 4))
    assert response.status_code == 400
    assert "at most 29 in a normal game" in response.json()["problems"][0]["message"]


@pytest.fixture
def five(organiser):
    """A table of five, round 1 running (TSR 10.1)."""
    tournament = factories.tournament(players=5, organiser=organiser, allow_tables_of_five=True)
    tournament_services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.get(table__round__tournament=tournament)


def test_at_five_when_only_the_dealer_owes_his_solo_the_next_seat_deals_it(api, five):
    # Seats 2 to 5 play theirs first; after 25 normal hands seat 1 is due to deal the 30th
    # line and he alone still owes his solo: the deal passes to seat 2 (TSR 4.2.3, 10.1.1).
    lines = [solo(1, seat, 1, size=5) for seat in (2, 3, 4, 5)]
    dealer = 1
    for _ in range(25):
        players = [seat for seat in range(1, 6) if seat != dealer]
        lines.append(normal(dealer, (players[0], players[2]), 1, size=5))
        dealer = dealer % 5 + 1
    response = put(api, five, lines, 1, key(five, 5))
    assert response.status_code == 200, response.json()
    assert response.json()["check"]["next"] == {
        "dealer": 2,
        "must_be_forced_solo": True,
        "forced_soloist": 1,
        "hands_remaining": 1,
    }
    refused = post(api, five, "submit", {"version": 2}, key(five, 5))
    assert refused.status_code == 400
    lines.append(solo(2, 1, 2, contract=Contract.FORCED_SOLO, size=5))
    response = put(api, five, lines, 2, key(five, 5))
    assert response.status_code == 200, response.json()
    assert response.json()["check"]["complete"] is True
    assert post(api, five, "submit", {"version": 3}, key(five, 5)).status_code == 200


# A stand-in dealer (TSR 3.3.2, 3.3.7) ------------------------------------------------------


def test_a_neighbour_dealing_for_the_dealer_keeps_the_rotation(api, sheet):
    """The dealer of hand 3 was away; his left neighbour dealt for him: recorded for the
    dealer whose turn it was, no warning, and the deal goes on as always."""
    hands = [hand_json(line) for line in full_match()[:4]]
    for hand in hands:
        del hand["dealer"]
    hands[2]["dealt_by_neighbour"] = True
    response = api.put(
        url(sheet), {"version": 1, "hands": hands}, format="json", headers=key(sheet, 4)
    )
    assert response.status_code == 200, response.json()
    data = response.json()
    assert [hand["dealer"] for hand in data["hands"]] == [h.dealer for h in full_match()[:4]]
    assert [hand["dealt_by_neighbour"] for hand in data["hands"]] == [False, False, True, False]
    assert data["check"]["warnings"] == []
    assert data["check"]["next"]["dealer"] == full_match()[4].dealer


def test_at_five_the_seat_whose_turn_it_was_sits_out_when_his_neighbour_deals(api, five):
    """Seat 1 was away at the first hand; seat 2 dealt for him. Seat 1 sits out (TSR 10.1.1),
    seat 2 plays: points for seat 1 are refused, points for seat 2 are taken."""
    line = normal(1, (2, 3), 1, size=5)
    body = hand_json(line) | {"dealt_by_neighbour": True}
    response = api.put(
        url(five), {"version": 1, "hands": [body]}, format="json", headers=key(five, 5)
    )
    assert response.status_code == 200, response.json()
    data = response.json()
    assert (data["hands"][0]["dealer"], data["hands"][0]["dealt_by_neighbour"]) == (1, True)
    assert data["check"]["warnings"] == []
    assert data["check"]["next"]["dealer"] == 2
    # Recorded instead as dealt by seat 2, seat 2 would sit out and the rotation would move.
    wrong = hand_json(line) | {"dealer": 2}
    response = api.put(
        url(five), {"version": 2, "hands": [wrong]}, format="json", headers=key(five, 5)
    )
    assert response.status_code == 400


def test_the_answer_is_the_sheet_as_its_serializer_represents_it(api, sheet, organiser):
    """``sheet_data`` builds the answer without running ``ScoresheetSerializer`` (the schema's):
    for a draft, a sheet handed in and one confirmed, the serializer gives back the very same
    answer, no field left out, added or represented otherwise."""
    from scoring.api.sheets import ScoresheetSerializer

    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=keeper
    )
    answers = [api.get(url(sheet), headers=token(organiser)).json()]
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    answers.append(api.get(url(sheet), headers=key(sheet, 1)).json())
    answers.append(post(api, sheet, "confirm", {"version": sheet.version}, key(sheet, 1)).json())
    assert [answer["status"] for answer in answers] == ["draft", "submitted", "confirmed"]
    for answer in answers:
        assert dict(ScoresheetSerializer(answer).data) == answer
