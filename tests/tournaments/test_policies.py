"""Who may do what with a tournament and its rounds: one policy per action, each saying why not."""

import pytest

from tournaments import policies
from tournaments.models import TournamentRole

Role = TournamentRole.Role
OTHERS = [Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL, Role.SCOREKEEPER]


def test_an_organiser_may_print():
    assert policies.may_print(roles={Role.ORGANISER}) is None


@pytest.mark.parametrize("role", OTHERS)
def test_printing_is_refused_to_other_staff_with_the_reason(role):
    assert policies.may_print(roles={role}) == (
        "Only an organiser starts printouts and downloads them."
    )


def test_printing_is_refused_to_a_reader_without_a_role():
    assert policies.may_print(roles=set()) is not None


@pytest.mark.parametrize("role", [Role.ADJUDICATOR, Role.ORGANISER])
def test_the_adjudicator_and_the_organiser_end_the_playing_time(role):
    assert policies.may_end_playing_time(round=None, roles={role}) is None


@pytest.mark.parametrize("role", [Role.DEPUTY, Role.PANEL, Role.SCOREKEEPER])
def test_others_may_not_end_the_playing_time_tsr_8_5_1(role):
    assert "TSR 8.5.1" in policies.may_end_playing_time(round=None, roles={role})


def test_only_an_organiser_allows_tables_of_five():
    assert policies.may_allow_tables_of_five(roles={Role.ORGANISER}) is None
    assert "TSR 8.3.1" in policies.may_allow_tables_of_five(roles={Role.ADJUDICATOR})
