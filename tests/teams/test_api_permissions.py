"""Who may do what in the team competitions' API: its lines of the permission matrix
(tests/permissions.py) for every role."""

from tests.permissions import TEAMS_API, matrix_test

test_matrix = matrix_test(TEAMS_API)
