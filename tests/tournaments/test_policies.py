"""Who may do what with a tournament and its rounds: one policy per action, each saying why not."""

import pytest
from django.utils import timezone

from tournaments import policies
from tournaments.models import Round, Tournament, TournamentRole

Role = TournamentRole.Role
OTHERS = [Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL, Role.SCOREKEEPER]


def test_an_organiser_may_print():
    assert policies.may_print(roles={Role.ORGANISER}) is None


@pytest.mark.parametrize("role", OTHERS)
def test_printing_is_refused_to_other_staff_with_the_reason(role):
    assert policies.may_print(roles={role}) == policies.Refusal(
        "Only an organiser starts printouts and downloads them."
    )


def test_printing_is_refused_to_a_reader_without_a_role():
    assert policies.may_print(roles=set()) is not None


@pytest.mark.parametrize("role", [Role.ADJUDICATOR, Role.ORGANISER])
def test_the_adjudicator_and_the_organiser_end_the_playing_time(role):
    assert policies.may_end_playing_time(round=None, roles={role}) is None


@pytest.mark.parametrize("role", [Role.DEPUTY, Role.PANEL, Role.SCOREKEEPER])
def test_others_may_not_end_the_playing_time_tsr_8_5_1(role):
    assert "TSR 8.5.1" in policies.may_end_playing_time(round=None, roles={role}).message


def test_only_an_organiser_allows_tables_of_five():
    assert policies.may_allow_tables_of_five(roles={Role.ORGANISER}) is None
    assert "TSR 8.3.1" in policies.may_allow_tables_of_five(roles={Role.ADJUDICATOR}).message


ROUND_POLICIES = {
    policies.may_seat_round: {Role.ORGANISER},
    policies.may_publish_seating: {Role.ORGANISER},
    policies.may_start_round: {Role.ORGANISER, Role.ADJUDICATOR},
    policies.may_close_round: {Role.ORGANISER},
}


@pytest.mark.parametrize("policy", list(ROUND_POLICIES))
@pytest.mark.parametrize("role", [*OTHERS, Role.ORGANISER])
def test_who_may_run_a_round_and_why_not(policy, role):
    refusal = policy(round=None, roles={role})
    if role in ROUND_POLICIES[policy]:
        assert refusal is None
    else:
        assert refusal.message.startswith("Only an")


def test_the_page_and_the_api_share_one_table_of_round_actions():
    from tournaments.round_actions import API_ROUND_ACTIONS, ROUND_ACTIONS

    assert set(API_ROUND_ACTIONS) <= set(ROUND_ACTIONS)
    assert ROUND_ACTIONS["start"].may is policies.may_start_round
    assert ROUND_ACTIONS["end"].may is policies.may_end_playing_time


@pytest.mark.parametrize("role", [Role.ORGANISER, Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL])
def test_staff_read_hidden_standings(role):
    hidden = Tournament(standings_public=False)
    assert policies.may_read_standings(tournament=hidden, roles={role}) is None


@pytest.mark.parametrize("roles", [set(), {Role.SCOREKEEPER}])
def test_hidden_standings_are_refused_to_the_public_with_the_reason(roles):
    hidden = Tournament(standings_public=False)
    assert policies.may_read_standings(tournament=hidden, roles=roles) == policies.Refusal(
        "The organiser has hidden the standings for now."
    )
    assert (
        policies.may_read_standings(tournament=Tournament(standings_public=True), roles=set())
        is None
    )


@pytest.mark.parametrize("role", [Role.ORGANISER, Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL])
def test_staff_read_the_seating_before_it_is_published(role):
    drawn = Round(number=2, status=Round.Status.SEATED)
    assert policies.may_read_seating(round=drawn, roles={role}) is None
    assert policies.may_read_unpublished_seating(roles={role}) is None


@pytest.mark.parametrize("roles", [set(), {Role.SCOREKEEPER}])
def test_the_seating_is_read_by_everyone_else_once_published(roles):
    drawn = Round(number=2, status=Round.Status.SEATED)
    assert policies.may_read_seating(round=drawn, roles=roles) == policies.Refusal(
        "The seating of round 2 has not been published yet."
    )
    assert policies.may_read_unpublished_seating(roles=roles) is not None
    drawn.published_at = timezone.now()
    assert policies.may_read_seating(round=drawn, roles=roles) is None


def test_creating_tournaments_is_for_the_organisers_group_and_superusers(django_user_model, db):
    from django.contrib.auth.models import AnonymousUser, Group

    user = django_user_model.objects.create_user(username="neu")
    refusal = policies.may_create_tournament(user=user)
    assert refusal is not None
    assert refusal.field is None  # a 403
    assert "Organisers" in refusal.message
    assert policies.may_create_tournament(user=AnonymousUser()) is not None
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    user = django_user_model.objects.get(pk=user.pk)  # permissions are cached on the object
    assert policies.may_create_tournament(user=user) is None
    admin = django_user_model.objects.create_superuser(username="admin", password="x-y-z-long")
    assert policies.may_create_tournament(user=admin) is None


@pytest.mark.parametrize("role", OTHERS)
def test_only_an_organiser_changes_settings_and_copies_a_tournament(role):
    assert policies.may_change_settings(tournament=None, roles={Role.ORGANISER}) is None
    assert policies.may_copy_tournament(roles={Role.ORGANISER}) is None
    assert policies.may_change_settings(tournament=None, roles={role}) is not None
    assert policies.may_copy_tournament(roles={role}) is not None


@pytest.mark.django_db
def test_may_change_person_works_with_no_app_hooked_in(monkeypatch):
    """Tournaments asks the apps above who else keeps persons (rankings: a list's
    maintainers) only through ``person_keeper_register``; with none registered, the
    permission alone decides, and nothing above is read."""
    from django.contrib.auth.models import AnonymousUser, Permission, User

    monkeypatch.setattr(policies, "_person_keepers", {})
    someone = User.objects.create_user("someone")
    assert policies.may_change_person(user=someone) is not None
    assert policies.may_change_person(user=AnonymousUser()) is not None
    someone.user_permissions.add(Permission.objects.get(codename="change_player"))
    someone = User.objects.get(pk=someone.pk)
    assert policies.may_change_person(user=someone) is None
