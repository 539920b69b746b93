"""The permission matrix as a whole (tests/permissions.py), and the site's own lines of it.

Every named route has its line. Who may do what on config's own routes (health, login,
languages, the API's token, schema and docs, Django's admin), for every role; CSRF on them, and
for the API's sessions. Each app checks its own lines in tests/<app>/test_permissions.py."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.permissions import (
    MATRIX,
    NONE,
    SITE,
    TB,
    R,
    T,
    csrf_refusal_test,
    csrf_token_test,
    fingerprint,
    form_pages_test,
    matrix_test,
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


test_matrix = matrix_test(SITE)


# CSRF -------------------------------------------------------------------------------------------

test_every_post_form_carries_the_csrf_token = csrf_token_test(SITE)


test_the_form_pages_have_post_forms = form_pages_test(
    [
        ("login", NONE, "anonymous"),
        ("password_reset", NONE, "anonymous"),
    ]
)


test_a_post_without_the_csrf_token_is_403 = csrf_refusal_test(SITE)


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
        ("api:rounds", T, {}),
        ("api:entries", T, {"first_name": "Neue", "last_name": "Spielerin"}),
        ("api:round-end", R, {}),
        ("api:scoresheet-submit", TB, {"version": 1}),
        ("api:offences-defaults", T, {}),
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
