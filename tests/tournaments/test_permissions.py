"""Who may do what on the tournaments' pages and API: their lines of the permission matrix
(tests/permissions.py) for every role, private tournaments and hidden standings, CSRF, and the
seats' private keys."""

import re

import pytest

from tests.permissions import (
    NONE,
    PUBLIC,
    ROLES,
    TOURNAMENTS,
    Case,
    T,
    csrf_refusal_test,
    csrf_token_test,
    fingerprint,
    form_pages_test,
    matrix_test,
    request,
)

test_matrix = matrix_test(TOURNAMENTS)


# Private tournaments and hidden standings ---------------------------------------------------------

PRIVATE_READS = [
    ("tournaments:tournament", {}),
    ("tournaments:entries", {}),
    ("tournaments:player", {"start_number": 1}),
    ("tournaments:find", {}),
    ("tournaments:standings", {}),
    ("tournaments:standings-table", {}),
    ("tournaments:standings-csv", {}),
    ("tournaments:screen", {}),
    ("api:tournament", {}),
    ("api:rounds", {}),
    ("api:entries", {}),
    ("api:standings", {}),
    ("api:player", {"start_number": 1}),
    ("api:find", {}),
]
# The organiser of the private tournament and a superuser see it; everyone else gets 404, even
# staff of another tournament.
PRIVATE_SEES = {"organiser", "admin"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "extra"), PRIVATE_READS, ids=[n for n, _ in PRIVATE_READS])
def test_a_private_tournament_is_404_to_outsiders(name, extra, role, ctx):
    case = Case(
        name, "get", lambda c: {"slug": c.private, **extra}, PUBLIC, json=name.startswith("api:")
    )
    response = request(case, role, ctx)
    assert response.status_code == (200 if role in PRIVATE_SEES else 404)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_a_private_tournament_is_not_listed_to_outsiders(role, ctx):
    from tournaments.models import Tournament

    name = Tournament.objects.get(slug=ctx.private).name
    page = request(Case("tournaments:home", "get", NONE, PUBLIC), role, ctx).content.decode()
    listed = request(Case("api:tournaments", "get", NONE, PUBLIC, json=True), role, ctx)
    slugs = [t["slug"] for t in listed.json()["results"]]
    assert (name in page) == (role in PRIVATE_SEES)
    assert (ctx.private in slugs) == (role in PRIVATE_SEES)


@pytest.mark.django_db
@pytest.mark.parametrize("role", [role for role in ROLES if role not in PRIVATE_SEES])
def test_a_private_tournament_refuses_writes_from_outsiders_with_404(role, ctx):
    before = fingerprint()
    data = {"first_name": "Neue", "last_name": "Spielerin"}
    page = Case(
        "tournaments:entries", "post", lambda c: {"slug": c.private}, PUBLIC, lambda c: data
    )
    api_case = Case("api:entries", "post", page.kwargs, PUBLIC, page.data, json=True)
    assert request(page, role, ctx).status_code == 404
    assert request(api_case, role, ctx).status_code in {401, 404}
    assert fingerprint() == before


# Hidden standings: 403 to the public, the staff still see them.
HIDDEN_SEES = {"organiser", "admin"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", ["api:standings", "tournaments:standings-csv"])
def test_hidden_standings_are_403_to_the_public(name, role, ctx):
    case = Case(name, "get", lambda c: {"slug": c.hidden}, PUBLIC, json=name.startswith("api:"))
    response = request(case, role, ctx)
    assert response.status_code == (200 if role in HIDDEN_SEES else 403)


# CSRF -------------------------------------------------------------------------------------------

test_every_post_form_carries_the_csrf_token = csrf_token_test(TOURNAMENTS)


test_the_form_pages_have_post_forms = form_pages_test(
    [
        ("tournaments:tournament", T, "organiser"),
        ("tournaments:entries", T, "organiser"),
    ]
)


test_a_post_without_the_csrf_token_is_403 = csrf_refusal_test(TOURNAMENTS)


# Private links -------------------------------------------------------------------------------------
# The key itself; what it opens: tests/scoring/test_permissions.py.


def test_a_seat_key_is_192_random_bits():
    import base64

    from tournaments.models import Seat, new_seat_token

    keys = {new_seat_token() for _ in range(1000)}
    assert len(keys) == 1000
    for key in keys:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", key)
        assert len(base64.urlsafe_b64decode(key)) == 24  # 192 bits
    field = Seat._meta.get_field("token")
    assert field.default is new_seat_token
    assert field.unique
    assert not field.editable
