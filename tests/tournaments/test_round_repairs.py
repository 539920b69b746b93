"""Repairs of rounds that have not started: a draw undone (by the DDV method, the advance plan
from that round on), the last round deleted; and the door through which their empty sheets go
(tournaments/play.py)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import RestrictedError

from doko.sample_sheets import full_match
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tournaments import play, selectors, services
from tournaments.models import Round, Seat, SeatingMethod, Table, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


@pytest.fixture
def organiser():
    return factories.user(username="orga")


def rows(tournament) -> tuple:
    """Every round's state, table, seat and sheet of the tournament: what a refusal keeps."""
    return (
        list(tournament.rounds.order_by("number").values_list("number", "status", "published_at")),
        Table.objects.filter(round__tournament=tournament).count(),
        Seat.objects.filter(round__tournament=tournament).count(),
        Scoresheet.objects.filter(table__round__tournament=tournament).count(),
    )


def statuses(tournament) -> list[tuple[int, str]]:
    return list(tournament.rounds.order_by("number").values_list("number", "status"))


def test_an_undone_draw_leaves_the_round_planned_without_tables_seats_or_sheets(organiser):
    tournament = factories.tournament(players=12, organiser=organiser, planned_rounds=3)
    first = factories.seated_round(tournament)
    undone = services.round_unseat(round=first, by=organiser)
    assert [each.number for each in undone] == [1]
    first.refresh_from_db()
    assert (first.status, first.published_at, first.seating_seed) == ("planned", None, None)
    assert rows(tournament)[1:] == (0, 0, 0)
    drawn = services.round_seat(round=first, seed=3)  # drawn anew
    assert drawn.tables.count() == 3
    assert Scoresheet.objects.filter(table__round=drawn).count() == 3


def test_by_other_methods_only_the_round_is_undone(organiser):
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=2)
    first = factories.seated_round(tournament)
    second = services.round_seat(round=services.round_create(tournament=tournament), seed=2)
    services.round_unseat(round=first, by=organiser)
    assert statuses(tournament) == [(1, "planned"), (2, "seated")]
    assert second.tables.count() == 2


def test_by_the_ddv_method_the_advance_plan_is_undone_from_the_round_on(organiser):
    """TSR 8.3 by the DDV's way: one draw seats round 1 and every later one in advance.
    Undoing round 2's draw while round 1 runs plans rounds 2 and 3 again, to be drawn together
    anew with round 1 as their history; round 1 keeps its seating."""
    tournament = factories.tournament(
        players=16, organiser=organiser, planned_rounds=3, seating_method=SeatingMethod.DDV
    )
    first = services.round_seat(round=services.round_create(tournament=tournament), seed=5)
    services.round_start(round=first)
    second = tournament.rounds.get(number=2)
    assert [r.number for r in selectors.rounds_drawn_with(round=second)] == [2, 3]
    undone = services.round_unseat(round=second, by=organiser)
    assert [each.number for each in undone] == [2, 3]
    assert statuses(tournament) == [(1, "running"), (2, "planned"), (3, "planned")]
    assert first.tables.count() == 4
    assert not Table.objects.filter(round__number__in=[2, 3], round__tournament=tournament)
    again = services.round_seat(round=second, seed=6)
    assert statuses(tournament) == [(1, "running"), (2, "seated"), (3, "seated")]
    assert again.seating_seed == 6


def test_by_the_ddv_method_undoing_the_first_round_plans_every_round_again(organiser):
    tournament = factories.tournament(
        players=8, organiser=organiser, planned_rounds=3, seating_method=SeatingMethod.DDV
    )
    first = services.round_seat(round=services.round_create(tournament=tournament), seed=5)
    services.tournament_seating_publish(tournament=tournament)
    services.round_unseat(round=first, by=organiser)
    assert statuses(tournament) == [(1, "planned"), (2, "planned"), (3, "planned")]
    assert not tournament.rounds.exclude(published_at=None).exists()
    assert rows(tournament)[1:] == (0, 0, 0)


@pytest.mark.parametrize("state", ["planned", "running", "finished"])
def test_a_draw_is_undone_only_before_the_round_starts(organiser, state):
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = services.round_create(tournament=tournament)
    if state != "planned":
        round_ = services.round_start(round=services.round_seat(round=round_, seed=1))
    if state == "finished":
        round_ = factories.round_end(round_)
    before = rows(tournament)
    with pytest.raises(ValidationError) as error:
        services.round_unseat(round=round_, by=organiser)
    assert list(error.value.message_dict) == ["status"]
    assert rows(tournament) == before


@pytest.mark.parametrize("role", [None, Role.ADJUDICATOR, Role.SCOREKEEPER])
def test_only_an_organiser_undoes_a_draw_or_deletes_a_round(organiser, role):
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    other = factories.user()
    if role:
        factories.role_grant(tournament=tournament, user=other, role=role)
    before = rows(tournament)
    with pytest.raises(PermissionDenied):
        services.round_unseat(round=round_, by=other)
    with pytest.raises(PermissionDenied):
        services.round_delete(round=round_, by=other)
    assert rows(tournament) == before


def test_the_last_round_is_deleted_planned_or_drawn(organiser):
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=3)
    factories.seated_round(tournament)
    second = factories.seated_round(tournament)
    third = services.round_create(tournament=tournament)
    assert services.round_delete(round=third, by=organiser) == 3
    assert services.round_delete(round=second, by=organiser) == 2
    assert statuses(tournament) == [(1, "seated")]
    assert rows(tournament)[1:] == (2, 8, 2)  # round 1's
    assert services.round_create(tournament=tournament).number == 2  # no gap
    tournament.refresh_from_db()
    assert tournament.planned_rounds == 3


def test_only_the_last_round_is_deleted(organiser):
    tournament = factories.tournament(players=4, organiser=organiser, planned_rounds=2)
    first = factories.seated_round(tournament)
    services.round_create(tournament=tournament)
    before = rows(tournament)
    with pytest.raises(ValidationError) as error:
        services.round_delete(round=first, by=organiser)
    assert list(error.value.message_dict) == ["number"]
    assert rows(tournament) == before


def test_a_round_that_started_is_not_deleted(organiser):
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = services.round_start(round=factories.seated_round(tournament))
    before = rows(tournament)
    with pytest.raises(ValidationError) as error:
        services.round_delete(round=round_, by=organiser)
    assert list(error.value.message_dict) == ["status"]
    assert rows(tournament) == before


def test_a_round_named_elsewhere_is_refused_whole_and_keeps_its_seating(organiser, monkeypatch):
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    before = rows(tournament)

    def restricted(self, *args, **kwargs):
        raise RestrictedError("named by a sanction", set())

    monkeypatch.setattr(Round, "delete", restricted)
    with pytest.raises(ValidationError, match="named elsewhere"):
        services.round_delete(round=round_, by=organiser)
    assert rows(tournament) == before  # the sheets, tables and seats taken first came back


# The door: scoring takes the empty sheets off ---------------------------------------------------


def test_the_play_takes_only_empty_sheets_off_the_tables():
    tournament = factories.tournament(players=8)
    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.filter(table__round=round_).first()
    scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:1], version=1, by=factories.keeper(sheet)
    )
    with pytest.raises(ValidationError, match="written on"):
        play.recorded().tables_undrawn(tables=round_.tables.all())
    assert Scoresheet.objects.filter(table__round=round_).count() == 2
    assert play.recorded().has_sheets(round=round_)
    play.recorded().tables_undrawn(tables=round_.tables.exclude(pk=sheet.table_id))
    assert list(Scoresheet.objects.filter(table__round=round_)) == [sheet]
