"""Every cookie the site sets is HttpOnly and SameSite=Lax, and Secure when secure cookies are on
(``SECURE_COOKIES``, config/settings.py): the session, CSRF, messages and language cookies, the
scoresheet's way of entry (``sheet_mode``), the rate limits' client id and the device's cookie of
the login's limits (``doko_device``)."""

import json
import os
import re
import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.test_deploy_check import PRODUCTION, ROOT
from tools.servers import HANG_SECONDS
from tournaments import services

COOKIE_SETTINGS = [
    f"{cookie}_COOKIE_{flag}"
    for cookie in ("SESSION", "CSRF", "LANGUAGE")
    for flag in ("SECURE", "HTTPONLY", "SAMESITE")
]


def production_settings(tmp_path, **env) -> dict[str, object]:
    """The cookie settings that config/settings.py makes of the production environment."""
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "import json; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {COOKIE_SETTINGS!r}}}))"
    )
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "SYSTEMROOT"}}
    environment = {**keep, **PRODUCTION, "VAR_DIR": str(tmp_path), **env}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_secure_cookies_every_cookie_setting_is_secure(tmp_path):
    found = production_settings(tmp_path, SECURE_COOKIES="true")
    assert found == {
        name: True if name.endswith(("SECURE", "HTTPONLY")) else "Lax" for name in COOKIE_SETTINGS
    }


def test_over_plain_http_the_cookies_are_not_secure_but_still_httponly(tmp_path):
    found = production_settings(tmp_path, SECURE_COOKIES="false")
    assert {name for name, value in found.items() if value is True} == {
        name for name in COOKIE_SETTINGS if name.endswith("HTTPONLY")
    }


@pytest.fixture
def secure_cookies(settings):
    """What config/settings.py sets with SECURE_COOKIES on (the tests above)."""
    settings.SECURE_COOKIES = True
    for name in COOKIE_SETTINGS:
        setattr(settings, name, True if name.endswith(("SECURE", "HTTPONLY")) else "Lax")


@pytest.mark.django_db
def test_every_cookie_the_site_sets_is_secure_httponly_and_lax(secure_cookies):
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    key = round_.seats.get(position=4).token
    client = Client()
    seen: dict[str, str] = {}

    def visit(response) -> None:
        for name, morsel in response.cookies.items():
            seen[name] = morsel.OutputString()

    visit(client.get(reverse("login")))  # csrftoken
    visit(
        client.post(reverse("login"), {"username": "orga", "password": "a-long-test-password"})
    )  # sessionid, doko_device
    visit(
        client.post(reverse("tournaments:round-action", args=[tournament.slug, 1, "publish"]))
    )  # messages
    visit(client.get(reverse("language", args=["en"]) + "?next=/"))  # django_language
    visit(client.post(reverse("set_language"), {"language": "de"}))  # Django's own view
    visit(Client().get(reverse("scoring:sheet-link", args=[key]) + "?mode=raw"))  # sheet_mode
    visit(
        Client().post(reverse("api:rules-hand-value"), {}, content_type="application/json")
    )  # the public API's client id
    assert {
        "csrftoken",
        "sessionid",
        "messages",
        "django_language",
        "sheet_mode",
        "doko_device",
    } <= set(seen)
    assert len(seen) >= 7, seen
    for header in seen.values():
        flags = {flag.strip().lower() for flag in header.split(";")[1:]}
        assert "secure" in flags, header
        assert "httponly" in flags, header
        assert "samesite=lax" in flags, header


@pytest.mark.django_db
def test_without_secure_cookies_the_sheet_mode_is_not_secure(settings):
    """A venue's plain-http address: a Secure cookie would never come back."""
    settings.SECURE_COOKIES = False
    sheet_round = factories.seated_round(factories.tournament(players=4))
    services.round_start(round=sheet_round)
    response = Client().get(reverse("scoring:sheet-link", args=[sheet_round.seats.first().token]))
    header = response.cookies["sheet_mode"].OutputString()
    assert not re.search(r";\s*secure", header, re.I)
    assert re.search(r";\s*httponly", header, re.I)
