"""Who may do what on the adjudication's pages and API: their lines of the permission matrix
(tests/permissions.py) for every role, and CSRF."""

from tests.permissions import (
    ADJUDICATION,
    TB,
    D,
    T,
    csrf_refusal_test,
    csrf_token_test,
    form_pages_test,
    matrix_test,
)

test_matrix = matrix_test(ADJUDICATION)


# CSRF -------------------------------------------------------------------------------------------

test_every_post_form_carries_the_csrf_token = csrf_token_test(ADJUDICATION)


test_the_form_pages_have_post_forms = form_pages_test(
    [
        ("adjudication:staff", T, "organiser"),
        ("adjudication:offences", T, "adjudicator"),
        ("adjudication:complaint-add", TB, "adjudicator"),
        ("adjudication:sanction-add", T, "panel"),
        ("adjudication:decision", D, "adjudicator"),
    ]
)


test_a_post_without_the_csrf_token_is_403 = csrf_refusal_test(ADJUDICATION)
