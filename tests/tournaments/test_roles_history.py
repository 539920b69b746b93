"""The role history (tournaments/roles_history.py): every change to a role is kept, whichever
path made it, so that the four-eyes rules read who ever held a role and whom he ever played
as."""

import pytest
from django.contrib.auth.models import Group

from adjudication import services as adjudication_services
from adjudication.models import RoleOffer
from tests import factories
from tournaments import policies, services
from tournaments.models import RoleRecord, Tournament, TournamentRole
from tournaments.roles_history import held_roles, plays_as

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


def history(tournament: Tournament) -> list[tuple[str, str, str, int | None]]:
    return list(
        RoleRecord.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("user__username", "role", "change", "entry_id")
    )


def test_granting_changing_and_taking_away_a_role_are_each_kept():
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=4, organiser=organiser)
    helper = factories.user(username="helper")
    first, second = factories.entries(tournament)[:2]
    grant = adjudication_services.role_grant(
        tournament=tournament, user=helper, role=Role.PANEL, by=organiser
    )
    adjudication_services.role_grant(
        tournament=tournament, user=helper, role=Role.PANEL, entry=first, by=organiser
    )
    adjudication_services.role_grant(
        tournament=tournament, user=helper, role=Role.PANEL, entry=second, by=organiser
    )
    adjudication_services.role_revoke(grant=grant, by=organiser)
    assert history(tournament) == [
        ("orga", Role.ORGANISER, "granted", None),
        ("helper", Role.PANEL, "granted", None),
        ("helper", Role.PANEL, "changed", first.pk),
        ("helper", Role.PANEL, "changed", second.pk),
        ("helper", Role.PANEL, "removed", second.pk),
    ]
    assert not TournamentRole.objects.filter(user=helper).exists()
    # Taken away, held all the same; and whom he played as, both players.
    assert held_roles(tournament_ids=[tournament.pk], user_id=helper.pk) == {tournament.pk}
    assert plays_as(user_ids=[helper.pk]) == {(helper.pk, first.pk), (helper.pk, second.pk)}
    assert plays_as(entry_ids=[first.pk]) == {(helper.pk, first.pk)}


def test_roles_deleted_in_a_query_or_by_the_administration_are_kept_as_taken_away():
    organiser = factories.user(username="orga")
    tournament = factories.tournament(organiser=organiser)
    helper = factories.user(username="helper")
    factories.role_grant(tournament=tournament, user=helper, role=Role.SCOREKEEPER)
    TournamentRole.objects.filter(user=helper).delete()
    assert [change for _user, _role, change, _entry in history(tournament)] == [
        "granted",
        "granted",
        "removed",
    ]


def test_a_copied_tournaments_staff_is_kept_though_written_in_bulk():
    organiser = factories.user(username="orga")
    organiser.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    source = factories.tournament(organiser=organiser)
    referee = factories.user(username="ref")
    factories.role_grant(tournament=source, user=referee, role=Role.ADJUDICATOR)
    copy = services.tournament_copy(
        source=source, by=organiser, name="Zweite Runde", starts_on=source.starts_on, staff=True
    )
    # The organiser's own role is given at once (in bulk); the others are offered again.
    assert {(user, role, change) for user, role, change, _entry in history(copy)} == {
        ("orga", Role.ORGANISER, "granted"),
    }
    offer = RoleOffer.objects.get(tournament=copy, user=referee)
    adjudication_services.role_offer_accept(offer=offer, by=referee)
    assert {(user, role, change) for user, role, change, _entry in history(copy)} == {
        ("orga", Role.ORGANISER, "granted"),
        ("ref", Role.ADJUDICATOR, "granted"),
    }


def test_a_tournament_deleted_takes_its_roles_and_their_history_with_it():
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=4, organiser=organiser)
    factories.role_grant(tournament=tournament, user=factories.user(), role=Role.PANEL)
    tournament.delete()
    assert not RoleRecord.objects.exists()


def test_an_account_deleted_takes_its_roles_and_their_history_with_it():
    tournament = factories.tournament(organiser=factories.user(username="orga"))
    helper = factories.user(username="helper")
    factories.role_grant(tournament=tournament, user=helper, role=Role.PANEL)
    helper.delete()
    assert [user for user, _role, _change, _entry in history(tournament)] == ["orga"]
