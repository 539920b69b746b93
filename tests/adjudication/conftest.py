"""Fixtures of the adjudication tests: a tournament of eight with its staff (an adjudicator, a
deputy adjudicator, a panel of three; none of them plays), its first round running, and table
1's scoresheet."""

import pytest

# Loaded before Django is set up: the application's modules are imported in the fixtures.


@pytest.fixture
def tournament(staff):
    from tests import factories
    from tournaments.models import TournamentRole

    Role = TournamentRole.Role
    tournament = factories.tournament(players=8, organiser=staff["organiser"])
    grant = factories.role_grant
    grant(tournament=tournament, user=staff["adjudicator"], role=Role.ADJUDICATOR)
    grant(tournament=tournament, user=staff["deputy"], role=Role.DEPUTY)
    grant(tournament=tournament, user=staff["keeper"], role=Role.SCOREKEEPER)
    for member in staff["panel"]:
        grant(tournament=tournament, user=member, role=Role.PANEL)
    return tournament


@pytest.fixture
def round_(tournament):
    from tests import factories
    from tournaments import services as tournament_services

    round_ = factories.seated_round(tournament)
    return tournament_services.round_start(round=round_)


@pytest.fixture
def sheet(round_):
    from scoring.models import Scoresheet

    return Scoresheet.objects.get(table__round=round_, table__number=1)
