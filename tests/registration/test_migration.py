"""The online registration moved from the tournaments app to its own without losing a row: the
migrations only move Django's state (the tables stay ``tournaments_onlineregistration`` and
``tournaments_registration``), and the content types move with them, so that the permissions
given on them stay."""

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from registration.models import OnlineRegistration, Registration
from tests import factories
from tests.migrating import migrate, migrate_to_latest

# The last migration of tournaments with the models, and the move.
BEFORE = [("tournaments", "0033_rankings_moved_out")]  # registration 0001 goes back with 0034
AFTER = [("tournaments", "0034_registration_moved_out"), ("registration", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_every_registration_its_claim_and_the_permissions():
    tournament = factories.tournament(players=4, planned_rounds=1)
    entry = factories.entries(tournament)[0]
    named = factories.player(first_name="Jürgen", last_name="Müller", ddv_number="4711")
    organiser = User.objects.create_user("leitung")
    clerk = User.objects.create_user("clerk")
    now = timezone.now()
    try:
        apps = migrate(BEFORE)
        OldSettings = apps.get_model("tournaments", "OnlineRegistration")
        OldRegistration = apps.get_model("tournaments", "Registration")
        ContentType = apps.get_model("contenttypes", "ContentType")
        Permission = apps.get_model("auth", "Permission")
        OldUser = apps.get_model("auth", "User")
        OldSettings.objects.create(
            tournament_id=tournament.pk,
            opens_at=now - timezone.timedelta(days=1),
            closes_at=now + timezone.timedelta(days=9),
            capacity=5,
            note="Startgeld 10 €",
        )
        admitted = OldRegistration.objects.create(
            tournament_id=tournament.pk,
            first_name="Jürgen",
            last_name="Müller",
            search_key="jurgen muller",
            email="juergen@example.org",
            ddv_number="4711",
            state="admitted",
            entry_id=entry.pk,
            key="key-of-juergen",
            person_key="a" * 64,
            claimed_person_id=named.pk,
            claim="confirmed",
            claim_decided_at=now,
            claim_decided_by_id=organiser.pk,
        )
        OldRegistration.objects.create(
            tournament_id=tournament.pk,
            first_name="Wartende",
            last_name="Erste",
            search_key="wartende erste",
            email="warte@example.org",
            state="waiting",
            waiting_position=1,
            key="key-of-the-first-waiting",
            person_key="b" * 64,
        )
        # A permission given on the registrations under the old app's label.
        content_type, _ = ContentType.objects.get_or_create(
            app_label="tournaments", model="registration"
        )
        permission, _ = Permission.objects.get_or_create(
            content_type=content_type, codename="change_registration", defaults={"name": "x"}
        )
        OldUser.objects.get(pk=clerk.pk).user_permissions.add(permission)
        counts = (OldSettings.objects.count(), OldRegistration.objects.count())
        migrate(AFTER)
    finally:
        migrate_to_latest()

    assert (OnlineRegistration.objects.count(), Registration.objects.count()) == counts == (1, 2)
    settings = tournament.online_registration
    assert (settings.capacity, settings.note) == (5, "Startgeld 10 €")
    moved = Registration.objects.get(pk=admitted.pk)
    assert (moved.entry, moved.key, moved.claimed_person, moved.claim_decided_by) == (
        entry,
        "key-of-juergen",
        named,
        organiser,
    )
    assert moved.claim == Registration.Claim.CONFIRMED
    assert entry.registration == moved
    assert list(named.claims.all()) == [moved]
    waiting = tournament.registrations.get(state=Registration.State.WAITING)
    assert (waiting.waiting_position, waiting.key) == (1, "key-of-the-first-waiting")
    # The permission moved with its content type.
    assert User.objects.get(pk=clerk.pk).has_perm("registration.change_registration")
    from django.contrib.contenttypes.models import ContentType as CurrentContentType

    CurrentContentType.objects.clear_cache()
    assert not CurrentContentType.objects.filter(
        app_label="tournaments", model__in=["onlineregistration", "registration"]
    ).exists()
