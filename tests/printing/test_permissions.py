"""Who may order printouts and follow their jobs: printing's lines of the permission matrix
(tests/permissions.py) for every role, and CSRF."""

import pytest

from tests.permissions import (
    CSRF,
    PRINTING,
    check,
    check_post_forms_carry_the_csrf_token,
    check_refused_without_the_csrf_token,
    matrix,
    page_reads,
    page_writes,
    pair_ids,
)


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), matrix(PRINTING))
def test_matrix(case, role, ctx):
    check(case, role, ctx)


# CSRF -------------------------------------------------------------------------------------------

PAGE_READS = page_reads(PRINTING)


@CSRF
@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGE_READS, ids=pair_ids(PAGE_READS))
def test_every_post_form_carries_the_csrf_token(case, role, ctx):
    check_post_forms_carry_the_csrf_token(case, role, ctx)


PAGE_WRITES = page_writes(PRINTING)


@CSRF
@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGE_WRITES, ids=pair_ids(PAGE_WRITES))
def test_a_post_without_the_csrf_token_is_403(case, role, ctx):
    check_refused_without_the_csrf_token(case, role, ctx)
