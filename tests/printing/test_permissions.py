"""Who may order printouts and follow their jobs: printing's lines of the permission matrix
(tests/permissions.py) for every role, and CSRF."""

from tests.permissions import (
    PRINTING,
    csrf_refusal_test,
    csrf_token_test,
    matrix_test,
)

test_matrix = matrix_test(PRINTING)


# CSRF -------------------------------------------------------------------------------------------

test_every_post_form_carries_the_csrf_token = csrf_token_test(PRINTING)


test_a_post_without_the_csrf_token_is_403 = csrf_refusal_test(PRINTING)
