"""Who may do what on the adjudication's pages and API: their lines of the permission matrix
(tests/permissions.py) for every role, and CSRF."""

import pytest

from tests.permissions import (
    ADJUDICATION,
    CSRF,
    TB,
    D,
    T,
    check,
    check_has_post_forms,
    check_post_forms_carry_the_csrf_token,
    check_refused_without_the_csrf_token,
    matrix,
    page_reads,
    page_writes,
    pair_ids,
)


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), matrix(ADJUDICATION))
def test_matrix(case, role, ctx):
    check(case, role, ctx)


# CSRF -------------------------------------------------------------------------------------------

PAGE_READS = page_reads(ADJUDICATION)


@CSRF
@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGE_READS, ids=pair_ids(PAGE_READS))
def test_every_post_form_carries_the_csrf_token(case, role, ctx):
    check_post_forms_carry_the_csrf_token(case, role, ctx)


@CSRF
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "kwargs", "role"),
    [
        ("staff", T, "organiser"),
        ("offences", T, "adjudicator"),
        ("complaint-add", TB, "adjudicator"),
        ("sanction-add", T, "panel"),
        ("decision", D, "adjudicator"),
    ],
)
def test_the_form_pages_have_post_forms(name, kwargs, role, ctx):
    """The check above looks at something: these pages do have POST forms."""
    check_has_post_forms(name, kwargs, role, ctx)


PAGE_WRITES = page_writes(ADJUDICATION)


@CSRF
@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGE_WRITES, ids=pair_ids(PAGE_WRITES))
def test_a_post_without_the_csrf_token_is_403(case, role, ctx):
    check_refused_without_the_csrf_token(case, role, ctx)
