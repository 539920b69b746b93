"""The permission matrix (tests/permissions.py) checked for every role: what each may do on
every named route, private tournaments and hidden standings, CSRF, and the seats' private keys."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.permissions import (
    LINK,
    MATRIX,
    NONE,
    PUBLIC,
    ROLES,
    TB,
    Case,
    D,
    R,
    T,
    case_id,
    check,
    check_has_post_forms,
    check_post_forms_carry_the_csrf_token,
    check_refused_without_the_csrf_token,
    fingerprint,
    hand_json,
    page_reads,
    page_writes,
    pair_ids,
    request,
)

# Admin pages: Django's admin checks is_staff and the model permissions on every one of them.
ADMIN_NAMESPACE = "admin"


def route_names() -> set[str]:
    """Every named pattern of config.urls, with its namespace."""
    names = set()

    def walk(resolver, namespace):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace
                walk(pattern, f"{namespace}:{inner}" if namespace and inner else inner or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver("config.urls"), None)
    return names


def test_every_route_is_in_the_matrix():
    listed = {case.name for case in MATRIX}
    missing = {
        name for name in route_names() - listed if not name.startswith(f"{ADMIN_NAMESPACE}:")
    }
    assert not missing, f"routes without a line in the permission matrix: {sorted(missing)}"
    assert not listed - route_names(), "lines in the matrix for routes that do not exist"
    assert all(case.statuses() for case in MATRIX)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", MATRIX, ids=case_id)
def test_matrix(case, role, ctx):
    check(case, role, ctx)


# Private tournaments and hidden standings ---------------------------------------------------------

PRIVATE_READS = [
    ("tournament", {}),
    ("entries", {}),
    ("player", {"start_number": 1}),
    ("find", {}),
    ("standings", {}),
    ("standings-table", {}),
    ("standings-csv", {}),
    ("screen", {}),
    ("api-tournament", {}),
    ("api-rounds", {}),
    ("api-entries", {}),
    ("api-standings", {}),
    ("api-player", {"start_number": 1}),
    ("api-find", {}),
]
# The organiser of the private tournament and a superuser see it; everyone else gets 404, even
# staff of another tournament.
PRIVATE_SEES = {"organiser", "admin"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "extra"), PRIVATE_READS, ids=[n for n, _ in PRIVATE_READS])
def test_a_private_tournament_is_404_to_outsiders(name, extra, role, ctx):
    case = Case(
        name, "get", lambda c: {"slug": c.private, **extra}, PUBLIC, json=name[:4] == "api-"
    )
    response = request(case, role, ctx)
    assert response.status_code == (200 if role in PRIVATE_SEES else 404)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_a_private_tournament_is_not_listed_to_outsiders(role, ctx):
    from tournaments.models import Tournament

    name = Tournament.objects.get(slug=ctx.private).name
    page = request(Case("home", "get", NONE, PUBLIC), role, ctx).content.decode()
    listed = request(Case("api-tournaments", "get", NONE, PUBLIC, json=True), role, ctx)
    slugs = [t["slug"] for t in listed.json()["results"]]
    assert (name in page) == (role in PRIVATE_SEES)
    assert (ctx.private in slugs) == (role in PRIVATE_SEES)


@pytest.mark.django_db
@pytest.mark.parametrize("role", [role for role in ROLES if role not in PRIVATE_SEES])
def test_a_private_tournament_refuses_writes_from_outsiders_with_404(role, ctx):
    before = fingerprint()
    data = {"first_name": "Neue", "last_name": "Spielerin"}
    page = Case("entries", "post", lambda c: {"slug": c.private}, PUBLIC, lambda c: data)
    api_case = Case("api-entries", "post", page.kwargs, PUBLIC, page.data, json=True)
    assert request(page, role, ctx).status_code == 404
    assert request(api_case, role, ctx).status_code in {401, 404}
    assert fingerprint() == before


# Hidden standings: 403 to the public, the staff still see them.
HIDDEN_SEES = {"organiser", "admin"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", ["api-standings", "standings-csv"])
def test_hidden_standings_are_403_to_the_public(name, role, ctx):
    case = Case(name, "get", lambda c: {"slug": c.hidden}, PUBLIC, json=name[:4] == "api-")
    response = request(case, role, ctx)
    assert response.status_code == (200 if role in HIDDEN_SEES else 403)


# CSRF -------------------------------------------------------------------------------------------

PAGE_READS = page_reads(MATRIX)


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGE_READS, ids=pair_ids(PAGE_READS))
def test_every_post_form_carries_the_csrf_token(case, role, ctx):
    check_post_forms_carry_the_csrf_token(case, role, ctx)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "kwargs", "role"),
    [
        ("login", NONE, "anonymous"),
        ("tournament", T, "organiser"),
        ("entries", T, "organiser"),
        ("staff", T, "organiser"),
        ("offences", T, "adjudicator"),
        ("complaint-add", TB, "adjudicator"),
        ("sanction-add", T, "panel"),
        ("decision", D, "adjudicator"),
        ("sheet", TB, "organiser"),
        ("sheet-link", LINK, "keeper"),
    ],
)
def test_the_form_pages_have_post_forms(name, kwargs, role, ctx):
    """The check above looks at something: these pages do have POST forms."""
    check_has_post_forms(name, kwargs, role, ctx)


PAGE_WRITES = page_writes(MATRIX)


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGE_WRITES, ids=pair_ids(PAGE_WRITES))
def test_a_post_without_the_csrf_token_is_403(case, role, ctx):
    check_refused_without_the_csrf_token(case, role, ctx)


@pytest.mark.django_db
def test_the_login_form_needs_the_csrf_token(ctx):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("login"), {"username": "matrix-organiser", "password": "a-long-test-password"}
    )
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "kwargs", "data"),
    [
        ("api-rounds", T, {}),
        ("api-entries", T, {"first_name": "Neue", "last_name": "Spielerin"}),
        ("api-round-end", R, {}),
        ("api-scoresheet-submit", TB, {"version": 1}),
        ("api-offences-defaults", T, {}),
    ],
)
def test_a_session_api_post_without_the_csrf_token_is_403(name, kwargs, data, ctx):
    """DRF checks CSRF for session authentication; a token needs none (see the matrix)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(ctx.users["organiser"])
    before = fingerprint()
    response = client.post(reverse(name, kwargs=kwargs(ctx)), data, content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert fingerprint() == before


# Private links -------------------------------------------------------------------------------------
# Also: tests/scoring/test_services.py::test_a_link_opens_only_its_own_table,
# tests/scoring/test_sheet_api.py::test_a_key_of_another_table_is_refused and
# ::test_an_unknown_key_is_refused, tests/scoring/test_sheet_pages.py::test_an_unknown_key_is_not_found,
# tests/tournaments/test_round_pages.py::test_only_the_organiser_sees_the_seats_private_links.


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


@pytest.mark.django_db
def test_a_seat_key_opens_its_own_tables_sheet_only(ctx):
    from tournaments.models import Seat

    other = Seat.objects.get(
        table__round__tournament__slug=ctx.slug, table__number=2, position=4
    ).token
    client = Client()
    page = client.get(reverse("sheet-link", args=[other]), headers={"Accept-Language": "en"})
    assert page.status_code == 200
    assert page.context["table"].number == 2
    # In the API, the key of table 2 opens neither table 1's sheet nor anything but sheets.
    headers = {"X-Seat-Key": other, "Accept-Language": "en"}
    sheet_1 = reverse("api-scoresheet", kwargs=TB(ctx))
    assert client.get(sheet_1, headers=headers).status_code == 403
    before = fingerprint()
    put = client.put(sheet_1, hand_json(ctx), content_type="application/json", headers=headers)
    assert put.status_code == 403
    assert fingerprint() == before
    decisions = reverse("api-decisions", kwargs=T(ctx))
    assert client.get(decisions, headers=headers).status_code == 403
    # A key that is one character off opens nothing.
    wrong = other[:-1] + ("A" if other[-1] != "A" else "B")
    assert client.get(reverse("sheet-link", args=[wrong])).status_code == 404
    assert client.get(sheet_1, headers={"X-Seat-Key": wrong}).status_code in {401, 403}
