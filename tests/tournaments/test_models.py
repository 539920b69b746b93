"""The database itself refuses what must never be stored."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from tests import factories
from tournaments.models import Entry, Player, Round, Seat, Table, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


@pytest.fixture
def seated():
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    return tournament, round_


def test_player_cannot_sit_twice_in_one_round(seated):
    _tournament, round_ = seated
    seat = Seat.objects.filter(round=round_).first()
    other_table = Table.objects.filter(round=round_).exclude(pk=seat.table_id).first()
    refused(
        lambda: Seat.objects.create(round=round_, table=other_table, position=5, entry=seat.entry)
    )


def test_seat_position_is_taken_once_per_table(seated):
    tournament, round_ = seated
    seat = Seat.objects.filter(round=round_, position=2).first()
    newcomer = factories.player()
    entry = Entry.objects.create(tournament=tournament, player=newcomer, start_number=99)
    refused(lambda: Seat.objects.create(round=round_, table=seat.table, position=2, entry=entry))


@pytest.mark.parametrize("position", [0, 8])
def test_seat_positions_are_1_to_7(seated, position):  # seven at most (TSR 10)
    tournament, round_ = seated
    table = Table.objects.filter(round=round_).first()
    entry = Entry.objects.create(tournament=tournament, player=factories.player(), start_number=50)
    refused(lambda: Seat.objects.create(round=round_, table=table, position=position, entry=entry))


def test_same_player_can_sit_again_in_the_next_round(seated):
    tournament, round_ = seated
    second = factories.seated_round(tournament, seed=2)
    entry = Seat.objects.filter(round=round_).first().entry
    assert Seat.objects.filter(entry=entry).count() == 2
    assert second.number == 2


def test_player_enters_a_tournament_once():
    tournament = factories.tournament()
    player = factories.player()
    Entry.objects.create(tournament=tournament, player=player, start_number=1)
    refused(lambda: Entry.objects.create(tournament=tournament, player=player, start_number=2))


def test_start_numbers_are_unique_per_tournament_and_positive():
    tournament = factories.tournament()
    Entry.objects.create(tournament=tournament, player=factories.player(), start_number=1)
    refused(
        lambda: Entry.objects.create(
            tournament=tournament, player=factories.player(), start_number=1
        )
    )
    refused(
        lambda: Entry.objects.create(
            tournament=tournament, player=factories.player(), start_number=0
        )
    )
    other = factories.tournament()
    Entry.objects.create(tournament=other, player=factories.player(), start_number=1)


def test_ddv_numbers_are_unique_but_may_be_empty():
    Player.objects.create(first_name="A", last_name="B", ddv_number="")
    Player.objects.create(first_name="C", last_name="D", ddv_number="")
    Player.objects.create(first_name="E", last_name="F", ddv_number="12345")
    refused(lambda: Player.objects.create(first_name="G", last_name="H", ddv_number="12345"))


def test_player_needs_a_name():
    refused(lambda: Player.objects.create(first_name="", last_name="Müller"))


def test_tournament_cannot_end_before_it_starts():
    refused(
        lambda: Tournament.objects.create(
            name="X",
            slug="x",
            starts_on=datetime.date(2026, 5, 2),
            ends_on=datetime.date(2026, 5, 1),
        )
    )


def test_tournament_slug_is_unique():
    day = datetime.date(2026, 5, 2)
    Tournament.objects.create(name="X", slug="x", starts_on=day, ends_on=day)
    refused(lambda: Tournament.objects.create(name="Y", slug="x", starts_on=day, ends_on=day))


def test_round_numbers_are_unique_per_tournament():
    tournament = factories.tournament()
    Round.objects.create(tournament=tournament, number=1)
    refused(lambda: Round.objects.create(tournament=tournament, number=1))


def test_running_round_needs_a_start_time():
    tournament = factories.tournament()
    refused(lambda: Round.objects.create(tournament=tournament, number=1, status="running"))


def test_finished_round_needs_an_end_time_after_its_start():
    tournament = factories.tournament()
    start = datetime.datetime(2026, 5, 2, 10, tzinfo=datetime.UTC)
    refused(
        lambda: Round.objects.create(
            tournament=tournament, number=1, status="finished", started_at=start
        )
    )
    refused(
        lambda: Round.objects.create(
            tournament=tournament,
            number=1,
            status="finished",
            started_at=start,
            ended_at=start - datetime.timedelta(minutes=1),
        )
    )


def test_table_numbers_are_unique_per_round(seated):
    _, round_ = seated
    refused(lambda: Table.objects.create(round=round_, number=1))


def test_a_role_is_granted_once():
    tournament = factories.tournament()
    user = factories.user()
    TournamentRole.objects.create(tournament=tournament, user=user, role="adjudicator")
    refused(
        lambda: TournamentRole.objects.create(tournament=tournament, user=user, role="adjudicator")
    )
