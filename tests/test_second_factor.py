"""The second factor's edges (config/second_factor/, config/login.py): a login half done, a session
that did not give the factor the administration asks for, who removes one, bad input, and the
setting in production and in the demo. The attacks themselves are replayed through HTTP in
tests/security/test_logins.py."""

import time
import types

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from config.second_factor import services
from tests import factories
from tests.test_settings import run_django

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("steady_clock")]

PASSWORD = "a-long-test-password"


def with_second_factor(user):
    TOTPDevice.objects.create(user=user, name="authenticator app")
    return user


def password_step(client, username="organiser"):
    return client.post(
        reverse("login"),
        {"username": username, "password": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_the_code_page_without_the_password_first_leads_to_the_login(client):
    response = client.get(reverse("login-code"))
    assert response.status_code == 302
    assert response["Location"] == reverse("login")


def test_a_login_half_done_ends_after_five_minutes(client, monkeypatch):
    with_second_factor(factories.user(username="organiser"))
    assert password_step(client)["Location"] == reverse("login-code")
    assert client.get(reverse("login-code")).status_code == 200
    later = time.time() + 5 * 60 + 1
    monkeypatch.setattr(
        "config.second_factor.pending.time", types.SimpleNamespace(time=lambda: later)
    )
    response = client.get(reverse("login-code"))
    assert response["Location"] == reverse("login")


def test_a_password_changed_meanwhile_ends_the_login_half_done(client):
    user = with_second_factor(factories.user(username="organiser"))
    password_step(client)
    user.set_password("another-long-password")
    user.save()
    assert client.get(reverse("login-code"))["Location"] == reverse("login")


def test_a_code_of_no_codes_shape_is_a_wrong_code(client):
    with_second_factor(factories.user(username="organiser"))
    password_step(client)
    for code in ("", "12345", "١٢٣٤٥٦", "x" * 33, "abc\x00def"):
        response = client.post(reverse("login-code"), {"code": code}, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
        assert "code" in response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_a_staff_session_without_its_second_factor_logs_in_again_for_the_administration(
    client, settings
):
    settings.OTP_REQUIRED_FOR_ADMINS = True
    user = with_second_factor(factories.user(username="organiser", is_staff=True))
    client.force_login(user)  # a session begun before the setting was on
    admin = client.get(reverse("admin:index"))
    assert admin.status_code == 302
    led = client.get(admin["Location"])
    assert led.status_code == 302
    assert led["Location"].startswith(reverse("admin:login"))
    assert "_auth_user_id" not in client.session


def test_without_the_setting_a_staff_session_needs_no_second_factor(client, settings):
    settings.OTP_REQUIRED_FOR_ADMINS = False
    client.force_login(factories.user(username="organiser", is_staff=True))
    assert client.get(reverse("admin:index")).status_code == 200


def test_an_action_the_page_does_not_know_is_a_400_naming_it(client):
    client.force_login(factories.user(username="organiser"))
    response = client.post(reverse("second-factor"), {"action": "drop", "code": "123456"})
    assert response.status_code == 400
    assert "action" in response.content.decode()


def test_a_wrong_first_code_keeps_nothing(client):
    user = factories.user(username="organiser")
    client.force_login(user)
    assert client.get(reverse("second-factor")).status_code == 200
    response = client.post(reverse("second-factor"), {"action": "add", "code": "000000"})
    assert response.status_code == 400
    assert "code" in response.context["form"].errors
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert not StaticDevice.objects.filter(user=user).exists()


def test_nobody_but_the_owner_or_an_administrator_removes_a_second_factor():
    person = with_second_factor(factories.user(username="organiser"))
    with pytest.raises(PermissionDenied):
        services.second_factor_remove(person=person, by=factories.user(username="desk"))
    assert TOTPDevice.objects.filter(user=person).exists()
    chief = get_user_model().objects.create_superuser("chief", password=PASSWORD)
    assert services.second_factor_remove(person=person, by=chief) == 1
    assert not TOTPDevice.objects.filter(user=person).exists()


def test_an_administration_without_the_permission_removes_nothing(client):
    person = with_second_factor(factories.user(username="organiser"))
    clerk = factories.user(username="clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_user"))
    client = Client()
    client.force_login(clerk)
    response = client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "second_factor_remove", "_selected_action": [person.pk]},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert TOTPDevice.objects.filter(user=person).exists()


def test_the_page_and_the_code_step_speak_german(client):
    with_second_factor(factories.user(username="organiser"))
    password_step(client)
    page = client.get(reverse("login-code"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Notfallcodes" in page


@pytest.mark.parametrize(("debug", "required"), [("false", "True"), ("true", "False")])
def test_production_asks_administrators_for_a_second_factor_and_the_demo_does_not(
    debug, required, tmp_path
):
    result = run_django(
        "from django.conf import settings; print(settings.OTP_REQUIRED_FOR_ADMINS)",
        DEBUG=debug,
        SECRET_KEY="x" * 50,
        VAR_DIR=str(tmp_path),
        OTP_REQUIRED_FOR_ADMINS="",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == required
