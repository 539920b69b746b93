"""Fixtures of the registration API's tests: those of the tournaments API's (a tournament whose
first round is being played, one with an organiser and an adjudicator, each with a token)."""

from tests.tournaments.api.conftest import staffed, tournament

__all__ = ["staffed", "tournament"]
