from dataclasses import dataclass, replace

import pytest


@dataclass
class DeskWorld:
    """A running round of eight tables, one in each state the desk tells apart (and two
    confirmed), in a tournament that checks paper sheets by double entry; its desk staff."""

    tournament: object
    round: object
    organiser: object  # types paper sheets in, the first entry
    second: object  # a scorekeeper account, types the second entry
    adjudicator: object
    sheets: dict  # by table number


@pytest.fixture
def desk_world(desk_world_built, db):
    """Table 1 has no hand yet; 2 has five hands typed through the scorekeeper's link; 3 was
    handed in through the link; 4 was confirmed by its table; 5 has three hands and a
    complaint about hand 2; 6 was typed at the desk and its second entry has five hands; 7 was
    typed at the desk and its second entry differs in hand 7; 8 was confirmed by double
    entry.

    Built once per test module (``tests/worlds.py``: a second of services, asked for by some
    hundred tests); each test reads its rows afresh, and what it changes is rolled back."""
    from tests.worlds import fresh

    world = desk_world_built
    return DeskWorld(
        tournament=fresh(world.tournament),
        round=fresh(world.round),
        organiser=fresh(world.organiser),
        second=fresh(world.second),
        adjudicator=fresh(world.adjudicator),
        sheets={
            number: fresh(sheet, "table__round__tournament")
            for number, sheet in world.sheets.items()
        },
    )


@pytest.fixture(scope="module")
def desk_world_built(django_db_setup, django_db_blocker):
    """``desk_world`` as built, once for the module."""
    from tests.worlds import built_once

    with built_once(django_db_blocker):
        yield _desk_world_build()


def _desk_world_build() -> DeskWorld:
    from adjudication.services import complaint_record
    from doko.sample_sheets import full_match
    from scoring import services
    from scoring.models import Scoresheet
    from scoring.services import Actor
    from tests import factories
    from tournaments import services as tournament_services
    from tournaments.models import SheetKeeping, TournamentRole

    Role = TournamentRole.Role
    organiser = factories.user(username="orga", first_name="Olga", last_name="Ordner")
    tournament = factories.tournament(players=32, organiser=organiser, seating_method="random")
    tournament.sheet_keeping = SheetKeeping.BOTH
    tournament.double_entry = True
    tournament.save()
    second = factories.user(username="zweite", first_name="Zora", last_name="Zweit")
    factories.role_grant(tournament=tournament, user=second, role=Role.SCOREKEEPER)
    adjudicator = factories.adjudicator(tournament)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)

    def sheet(number):
        return Scoresheet.objects.select_related("table__round__tournament").get(
            table__round=round_, table__number=number
        )

    def typed(number, hands, by):
        current = sheet(number)
        return services.scoresheet_hands_replace(
            scoresheet=current, hands=hands, version=current.version, by=by
        )

    def submitted(number, by):
        current = sheet(number)
        return services.scoresheet_submit(scoresheet=current, version=current.version, by=by)

    desk = Actor(user=organiser)
    typed(2, full_match()[:5], factories.keeper(sheet(2)))
    typed(3, full_match(), factories.keeper(sheet(3)))
    submitted(3, factories.keeper(sheet(3)))
    factories.sheet_confirmed(sheet(4), full_match())
    typed(5, full_match()[:3], factories.keeper(sheet(5)))
    complaint_record(
        scoresheet=sheet(5), hand_number=2, offender=2, description="Revoke", by=adjudicator
    )
    for number in (6, 7, 8):
        typed(number, full_match(), desk)
        submitted(number, desk)
    services.second_entry_hands_replace(
        scoresheet=sheet(6), hands=full_match()[:5], by=second, version=0
    )
    hands = full_match()
    hands[6] = replace(hands[6], points={seat: -points for seat, points in hands[6].points.items()})
    services.second_entry_submit(scoresheet=sheet(7), hands=hands, by=second)
    services.second_entry_submit(scoresheet=sheet(8), hands=full_match(), by=second)
    return DeskWorld(
        tournament=tournament,
        round=round_,
        organiser=organiser,
        second=second,
        adjudicator=adjudicator,
        sheets={number: sheet(number) for number in range(1, 9)},
    )
