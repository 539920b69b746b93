"""The hard cases of a real day through the scoresheet API: a table that cannot finish, its
sheet ended early by a recorded decision (and taken back), and a game broken off and dealt
again under TSR 9.1.3."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Hand, Scoresheet, ScoresheetChange
from scoring.selectors import hand_lines
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Round, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


@pytest.fixture
def organiser():
    return factories.user()


@pytest.fixture
def tournament(organiser):
    """Eight players at two tables, round 1 running."""
    tournament = factories.tournament(players=8, organiser=organiser)
    tournament_services.round_start(round=factories.seated_round(tournament))
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


def token(user) -> dict:
    return {
        "Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}",
        "Accept-Language": "en",
    }


def post(api, sheet, action, data, headers):
    return api.post(url(sheet, action), data, format="json", headers=headers)


def version(sheet) -> int:
    return Scoresheet.objects.get(pk=sheet.pk).version


def eight_hands(sheet) -> Scoresheet:
    """Eight hands entered: 16 lines and every compulsory solo still to play."""
    return services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:8], version=sheet.version, by=factories.keeper(sheet)
    )


def deputy_playing_at(sheet):
    """A deputy adjudicator who plays at seat 2 of the sheet's table."""
    deputy = factories.user()
    entry = sheet.table.seats.get(position=2).entry
    factories.role_grant(
        tournament=sheet.table.round.tournament, user=deputy, role=Role.DEPUTY, entry=entry
    )
    return deputy


# A table that cannot finish --------------------------------------------------------------------


def test_a_sheet_that_cannot_be_handed_in_is_ended_early_and_then_handed_in_and_confirmed(
    api, sheet
):
    sheet = eight_hands(sheet)
    refused = post(
        api,
        sheet,
        "submit",
        {"version": sheet.version},
        {"X-Seat-Key": factories.keeper(sheet).seat.token},
    )
    assert refused.status_code == 400
    adjudicator = factories.adjudicator(sheet.table.round.tournament)

    ended = post(
        api,
        sheet,
        "end-early",
        {"version": sheet.version, "reason": "Seat 3 left ill after hand 8."},
        token(adjudicator),
    )

    assert ended.status_code == 200, ended.json()
    body = ended.json()
    assert body["ended_early"]["reason"] == "Seat 3 left ill after hand 8."
    assert body["ended_early"]["hands_not_played"] == 16
    assert body["check"]["complete"] is True
    assert body["check"]["next"]["hands_remaining"] == 0
    change = ScoresheetChange.objects.filter(scoresheet=sheet).latest("version")
    assert change.action == ScoresheetChange.Action.END_EARLY
    assert change.reason == "Seat 3 left ill after hand 8."
    sheet.refresh_from_db()
    sheet = services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=services.Actor(user=adjudicator)
    )
    sheet = services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )
    assert sheet.status == Scoresheet.Status.CONFIRMED


def test_ending_early_without_a_reason_is_refused_by_field(api, sheet, organiser):
    response = post(
        api, sheet, "end-early", {"version": sheet.version, "reason": "  "}, token(organiser)
    )

    assert response.status_code == 400
    assert "reason" in response.json()
    assert Scoresheet.objects.get(pk=sheet.pk).ended_early_at is None


def test_a_player_may_not_end_his_tables_sheet_early(api, sheet):
    response = post(
        api,
        sheet,
        "end-early",
        {"version": sheet.version, "reason": "we are tired"},
        {"X-Seat-Key": factories.keeper(sheet).seat.token, "Accept-Language": "en"},
    )

    assert response.status_code == 403
    assert "TSR 8.2.1" in response.json()["detail"]


def test_a_deputy_who_plays_at_the_table_may_not_end_its_sheet_early(api, sheet):
    deputy = deputy_playing_at(sheet)

    response = post(
        api, sheet, "end-early", {"version": sheet.version, "reason": "left"}, token(deputy)
    )

    assert response.status_code == 403
    assert "seat 2 of table 1" in response.json()["detail"]
    assert "TSR 8.2.1" in response.json()["detail"]


def test_a_sheet_ended_early_takes_no_more_hands(api, sheet, organiser):
    sheet = eight_hands(sheet)
    services.scoresheet_end_early(
        scoresheet=sheet,
        version=sheet.version,
        reason="disqualified",
        by=services.Actor(user=organiser),
    )
    sheet.refresh_from_db()

    with pytest.raises(Exception, match="ended early"):
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:9],
            version=sheet.version,
            by=factories.keeper(sheet),
        )


def test_a_mistaken_end_is_taken_back_and_the_handed_in_sheet_is_a_draft_again(
    api, sheet, organiser
):
    sheet = eight_hands(sheet)
    actor = services.Actor(user=organiser)
    sheet = services.scoresheet_end_early(
        scoresheet=sheet, version=sheet.version, reason="wrong table", by=actor
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=actor)

    response = post(api, sheet, "end-undo", {"version": sheet.version}, token(organiser))

    assert response.status_code == 200, response.json()
    assert response.json()["ended_early"] is None
    assert response.json()["status"] == "draft"
    assert response.json()["check"]["complete"] is False


def test_a_confirmed_sheet_ended_early_is_not_taken_back(api, sheet, organiser):
    sheet = eight_hands(sheet)
    actor = services.Actor(user=organiser)
    sheet = services.scoresheet_end_early(
        scoresheet=sheet, version=sheet.version, reason="left", by=actor
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=actor)
    sheet = services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )

    response = post(api, sheet, "end-undo", {"version": sheet.version}, token(organiser))

    assert response.status_code == 400
    assert "TSR 8.5.2" in str(response.json())


def test_the_round_closes_once_the_ended_sheet_is_confirmed(sheet, organiser, tournament):
    other = Scoresheet.objects.get(table__round__tournament=tournament, table__number=2)
    factories.sheet_confirmed(other, full_match())
    sheet = eight_hands(sheet)
    actor = services.Actor(user=organiser)
    sheet = services.scoresheet_end_early(
        scoresheet=sheet, version=sheet.version, reason="left", by=actor
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=actor)
    services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
    )
    round_ = factories.round_end(sheet.table.round)

    closed = tournament_services.round_close(round=round_)

    assert closed.status == Round.Status.CLOSED


# A replay under TSR 9.1.3 ----------------------------------------------------------------------


def test_the_adjudicator_records_a_replay_by_consent_and_the_same_dealer_deals_again(api, sheet):
    sheet = eight_hands(sheet)
    adjudicator = factories.adjudicator(sheet.table.round.tournament)

    response = post(
        api, sheet, "replay", {"version": sheet.version, "replay": "consent"}, token(adjudicator)
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    replayed = body["hands"][-1]
    assert replayed["replay"] == "consent"
    assert replayed["not_played"] is True
    assert set(replayed["points"].values()) == {0}
    # Not one of the 24 lines: as many still to play as before; the same dealer deals again.
    assert body["check"]["next"]["hands_remaining"] == 16
    assert body["check"]["next"]["dealer"] == replayed["dealer"]
    hand = Hand.objects.get(scoresheet=sheet, number=len(body["hands"]))
    assert hand.replay == "consent"


def test_a_replay_by_ruling_needs_the_facts(api, sheet):
    adjudicator = factories.adjudicator(sheet.table.round.tournament)

    response = post(
        api, sheet, "replay", {"version": sheet.version, "replay": "ruling"}, token(adjudicator)
    )

    assert response.status_code == 400
    assert "TSR 9.1.3" in str(response.json()["note"])


def test_the_scorekeeper_may_not_record_a_replay(api, sheet):
    response = post(
        api,
        sheet,
        "replay",
        {"version": sheet.version, "replay": "consent"},
        {"X-Seat-Key": factories.keeper(sheet).seat.token, "Accept-Language": "en"},
    )

    assert response.status_code == 403
    assert "TSR 9.1.3" in response.json()["detail"]


def test_the_scorekeeper_keeps_the_replay_line_when_he_enters_the_next_hands(api, sheet):
    sheet = eight_hands(sheet)
    adjudicator = factories.adjudicator(sheet.table.round.tournament)
    sheet = services.scoresheet_hand_replay(
        scoresheet=sheet,
        version=sheet.version,
        replay="ruling",
        note="cards fell off the table",
        by=services.Actor(user=adjudicator),
    )
    stored = hand_lines(list(sheet.hands.all()))
    rest = full_match()
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet,
        hands=[*stored, *rest[8:]],
        version=sheet.version,
        by=factories.keeper(sheet),
    )
    sheet = services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )
    assert sheet.hands.count() == 25
    assert sheet.status == Scoresheet.Status.SUBMITTED


def test_the_scorekeeper_may_not_add_a_replay_line_himself(api, sheet):
    sheet = eight_hands(sheet)
    stored = [
        {"contract": "normal", "points": {"1": 0, "2": 0, "3": 0, "4": 0}, "replay": "consent"}
    ]

    response = api.put(
        url(sheet),
        {
            "version": sheet.version,
            "hands": [
                *[
                    {
                        "contract": str(line.contract),
                        "soloist": line.soloist,
                        "solo_type": str(line.solo_type) if line.solo_type else None,
                        "points": {str(s): p for s, p in line.points.items()},
                    }
                    for line in full_match()[:8]
                ],
                *stored,
            ],
        },
        format="json",
        headers={"X-Seat-Key": factories.keeper(sheet).seat.token, "Accept-Language": "en"},
    )

    assert response.status_code == 400
    assert "TSR 9.1.3" in str(response.json())


def test_the_database_refuses_an_early_end_without_its_reason(sheet):
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    with pytest.raises(IntegrityError), transaction.atomic():
        Scoresheet.objects.filter(pk=sheet.pk).update(
            ended_early_at=timezone.now(), ended_early_by="x", ended_early_hands_not_played=3
        )


def test_the_database_refuses_a_replay_on_a_line_that_counts(sheet):
    from django.db import IntegrityError, transaction

    sheet = eight_hands(sheet)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(scoresheet=sheet, number=1).update(replay="consent")
