"""Invitation links (adjudication/invitations.py): valid for exactly seven days, whatever the
password reset's own timeout, once, and never a password-reset link."""

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.tokens import default_token_generator

from adjudication.invitations import VALID_FOR, invitation_path, invitation_tokens
from tests import factories

pytestmark = pytest.mark.django_db

MADE = datetime(2025, 3, 1, 9, 0, 0)


@pytest.fixture
def invitee():
    user = factories.user(username="neu", email="neu@example.org")
    user.set_unusable_password()
    user.save()
    return user


def made_at(monkeypatch, when: datetime) -> None:
    monkeypatch.setattr(invitation_tokens, "_now", lambda: when)


def test_the_link_is_valid_for_seven_days():
    assert timedelta(days=7) == VALID_FOR
    assert invitation_tokens.timeout == 7 * 24 * 60 * 60


def test_a_token_is_valid_to_the_last_second_of_its_seven_days(invitee, monkeypatch):
    made_at(monkeypatch, MADE)
    token = invitation_tokens.make_token(invitee)
    made_at(monkeypatch, MADE + timedelta(days=7))
    assert invitation_tokens.check_token(invitee, token)


def test_a_token_has_expired_after_seven_days(invitee, monkeypatch):
    made_at(monkeypatch, MADE)
    token = invitation_tokens.make_token(invitee)
    made_at(monkeypatch, MADE + timedelta(days=7, seconds=1))
    assert not invitation_tokens.check_token(invitee, token)


def test_the_seven_days_do_not_follow_the_password_resets_timeout(invitee, monkeypatch, settings):
    settings.PASSWORD_RESET_TIMEOUT = 60 * 60
    made_at(monkeypatch, MADE)
    token = invitation_tokens.make_token(invitee)
    made_at(monkeypatch, MADE + timedelta(days=5))
    assert invitation_tokens.check_token(invitee, token)


def test_a_token_is_dead_once_the_password_is_set(invitee):
    token = invitation_tokens.make_token(invitee)
    invitee.set_password("a-new-long-password")
    invitee.save()
    assert not invitation_tokens.check_token(invitee, token)


def test_an_invitation_is_not_a_password_reset_and_the_other_way_round(invitee):
    invitee.set_password("a-long-password-1")
    assert not default_token_generator.check_token(invitee, invitation_tokens.make_token(invitee))
    assert not invitation_tokens.check_token(invitee, default_token_generator.make_token(invitee))


@pytest.mark.parametrize("token", ["", "abc", "zzzzzzzzzzzzzzzz-abc", "1-2-3", "!-abc"])
def test_a_made_up_token_is_refused(invitee, token):
    assert not invitation_tokens.check_token(invitee, token)


def test_the_path_opens_the_invitation_page(invitee, client):
    response = client.get(invitation_path(invitee), follow=True)
    assert response.status_code == 200
    assert b'name="new_password1"' in response.content
