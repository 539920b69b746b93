"""Who may do what in the team competitions' API: its lines of the permission matrix
(tests/permissions.py) for every role."""

import pytest

from tests.permissions import TEAMS_API, check, matrix


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), matrix(TEAMS_API))
def test_matrix(case, role, ctx):
    check(case, role, ctx)
