"""Who may do what on the pages of team competitions: their lines of the permission matrix
(tests/permissions.py) for every role, a hidden competition, and CSRF on their forms."""

import pytest
from django.urls import reverse

from tests.permissions import (
    ROLES,
    TEAMS,
    C,
    client_for,
    csrf_refusal_test,
    csrf_token_test,
    form_pages_test,
    matrix_test,
)

test_matrix = matrix_test(TEAMS)


# A hidden competition -----------------------------------------------------------------------------

HIDDEN_READS = [
    "teams:competition",
    "teams:season-table",
    "teams:bracket",
    "teams:competition-settings",
    "teams:team-new",
]
# Its organiser and a superuser see it; everyone else gets 404 (the organiser's form pages send
# the anonymous to log in first).
HIDDEN_SEES = {"organiser", "admin"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", HIDDEN_READS)
def test_a_hidden_competition_is_404_for_all_but_its_organisers(name, role, ctx):
    response = client_for(role, ctx).get(reverse(name, args=[ctx.hidden_competition]))
    if role in HIDDEN_SEES:
        assert response.status_code == 200
    elif response.status_code == 302:  # a form page: log in first
        assert name in {"teams:competition-settings", "teams:team-new"}
        assert role in {"anonymous", "player", "keeper"}
    else:
        assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_the_list_shows_a_hidden_competition_to_its_organisers_only(role, ctx):
    html = client_for(role, ctx).get(reverse("teams:competitions")).content.decode()
    assert ("Matrix-Geheim" in html) == (role in HIDDEN_SEES)
    assert "Matrix-Liga" in html


# CSRF -------------------------------------------------------------------------------------------

test_every_post_form_carries_the_csrf_token = csrf_token_test(TEAMS)


test_the_form_pages_have_post_forms = form_pages_test(
    [
        ("teams:competition-new", lambda ctx: {}),
        ("teams:competition-settings", C),
        ("teams:team", lambda ctx: {"slug": ctx.competition, "pk": ctx.team}),
        ("teams:match-day-new", C),
    ]
)


test_a_post_without_the_csrf_token_is_403 = csrf_refusal_test(TEAMS)
