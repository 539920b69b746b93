"""Fixtures of the tournaments API's tests: a tournament whose first round is being played,
and a tournament with an organiser and an adjudicator, each with a token."""

import pytest


@pytest.fixture
def tournament():
    """Eight players; round 1 running, every sheet filled with a whole match."""
    # Imported here: a conftest is read before Django's apps are ready.
    from doko.sample_sheets import full_match
    from scoring import services as scoring_services
    from scoring.models import Scoresheet
    from tests import factories
    from tournaments import services

    tournament = factories.tournament(players=8, name="API-Pokal")
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        scoring_services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
        )
    return tournament


@pytest.fixture
def staffed():
    """A tournament of 12 with an organiser and an adjudicator, each with an API token."""
    from rest_framework.authtoken.models import Token

    from tests import factories
    from tournaments.models import TournamentRole

    organiser, adjudicator = factories.user(), factories.user()
    tournament = factories.tournament(players=12, organiser=organiser, planned_rounds=2)
    factories.role_grant(
        tournament=tournament, user=adjudicator, role=TournamentRole.Role.ADJUDICATOR
    )
    headers = {
        role: {"Authorization": f"Token {Token.objects.create(user=user).key}"}
        for role, user in (("organiser", organiser), ("adjudicator", adjudicator))
    }
    return tournament, headers
