"""Issue 44: a backup restored onto a site that others share takes nothing a registration or an
appointment would not. The import has no route over HTTP (a management command only), so the
findings are replayed through the commands, as an operator runs them:

- a DDV number that belongs here to a person of another name does not attach the backup's
  entries to that person: the player comes back as a new person without the number, and the
  command says so;
- the backup's roles go to no account of the same user name that exists here already, unless
  the operator asks (``--attach-roles-to-existing-accounts``); the command lists them.
"""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command

from backup.selectors import competition_export, tournament_export
from backup.services import competition_import, tournament_import
from teams.models import Competition
from tests import factories
from tests.teams.factories import league, organiser_of
from tournaments.models import Entry, Player, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def written(path, data: dict) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def imported(path, *options: str) -> str:
    """What ``import_tournament`` says when it restores ``path``."""
    out = StringIO()
    call_command("import_tournament", str(path), *options, stdout=out)
    return out.getvalue()


def test_a_ddv_number_held_here_under_another_name_does_not_attach_the_entry(tmp_path):
    holder = factories.player(first_name="Bernd", last_name="Fremd", ddv_number="4711")
    tournament = factories.tournament(players=4)
    data = json.loads(json.dumps(tournament_export(tournament=tournament)))
    data["tournament"]["slug"] = "restored"
    claim = data["players"][0]
    claim["ddv_number"] = "4711"

    said = imported(written(tmp_path / "backup.json", data))

    restored = Tournament.objects.get(slug="restored")
    assert not Entry.objects.filter(player=holder).exists()
    newcomer = restored.entries.get(first_name=claim["first_name"]).player
    assert (newcomer.first_name, newcomer.last_name) == (claim["first_name"], claim["last_name"])
    assert newcomer.ddv_number == ""
    assert Player.objects.get(ddv_number="4711") == holder
    assert "1 player's DDV number belongs here to a person registered under another name" in said
    assert f"{claim['first_name']} {claim['last_name']} (DDV number 4711)" in said
    assert "Fremd" not in said  # the other person's name is not the backup's to learn


def test_a_ddv_number_held_here_under_the_same_names_in_any_case_is_that_person():
    holder = factories.player(first_name="Anna", last_name="Müller", ddv_number="4712")
    tournament = factories.tournament(players=4)
    data = tournament_export(tournament=tournament)
    data["tournament"]["slug"] = "restored"
    data["players"][0].update(first_name="ANNA", last_name="MÜLLER", ddv_number="4712")
    data["entries"][0].update(first_name="ANNA", last_name="MÜLLER")
    restored = tournament_import(data=data)
    assert restored.entries.get(first_name="ANNA").player == holder


def test_a_competitions_players_are_found_by_number_and_name_too():
    holder = factories.player(first_name="Bernd", last_name="Fremd", ddv_number="4713")
    competition = league(teams=4)
    data = json.loads(json.dumps(competition_export(competition=competition)))
    data["competition"]["slug"] = "restored"
    data["players"][0]["ddv_number"] = "4713"
    result = competition_import(data=data)
    assert not holder.team_memberships.exists()
    assert [(p.ddv_number, p.last_name) for p in result.numbers_cleared] == [
        ("4713", data["players"][0]["last_name"])
    ]


def staffed(tmp_path) -> tuple[Tournament, str]:
    """A tournament with an organiser, a scorekeeper and a helper as staff, written to a file."""
    organiser = factories.user(username="organiser")
    tournament = factories.tournament(players=4, organiser=organiser)
    factories.role_grant(
        tournament=tournament,
        user=factories.user(username="desk"),
        role=TournamentRole.Role.SCOREKEEPER,
    )
    factories.role_grant(
        tournament=tournament,
        user=factories.user(username="helper"),
        role=TournamentRole.Role.ADJUDICATOR,
    )
    data = json.loads(json.dumps(tournament_export(tournament=tournament)))
    data["tournament"]["slug"] = "restored"
    return tournament, written(tmp_path / "backup.json", data)


def roles_of(slug: str) -> set[tuple[str, str]]:
    return set(
        TournamentRole.objects.filter(tournament__slug=slug).values_list("user__username", "role")
    )


def test_the_backups_roles_go_to_no_existing_account_unless_asked(tmp_path):
    """On a shared site the user names "organiser" and "desk" may be other people's: the
    backup's roles are not theirs to give. An account the import creates gets its roles."""
    _tournament, path = staffed(tmp_path)
    get_user_model().objects.filter(username="helper").delete()

    said = imported(path)

    assert roles_of("restored") == {("helper", "adjudicator")}
    helper = get_user_model().objects.get(username="helper")
    assert (helper.is_active, helper.has_usable_password()) == (False, False)
    assert "Roles not given" in said
    assert "desk (scorekeeper), organiser (organiser)" in said
    assert "--attach-roles-to-existing-accounts" in said


def test_the_backups_roles_go_to_existing_accounts_when_asked(tmp_path):
    tournament, path = staffed(tmp_path)
    said = imported(path, "--attach-roles-to-existing-accounts")
    assert roles_of("restored") == roles_of(tournament.slug)
    assert "Roles not given" not in said


def test_a_competitions_organisers_are_roles_given_only_when_asked(tmp_path):
    competition = league(teams=4)
    organiser = organiser_of(competition).get_username()
    data = json.loads(json.dumps(competition_export(competition=competition)))
    data["competition"]["slug"] = "restored"
    path = written(tmp_path / "league.json", data)
    out = StringIO()
    call_command("import_competition", path, stdout=out)
    restored = Competition.objects.get(slug="restored")
    assert not restored.organisers.exists()
    assert f"{organiser} (organiser of the team competition)" in out.getvalue()

    data["competition"]["slug"] = "again"
    competition_import(data=data, attach_roles_to_existing_accounts=True)
    again = Competition.objects.get(slug="again")
    assert [user.get_username() for user in again.organisers.all()] == [organiser]


def test_a_role_that_does_not_exist_is_refused_as_damage():
    tournament = factories.tournament(players=4, organiser=factories.user())
    data = tournament_export(tournament=tournament)
    data["tournament"]["slug"] = "restored"
    data["roles"][0]["role"] = "superuser"
    with pytest.raises(ValidationError, match="the role “superuser”, which does not exist"):
        tournament_import(data=data)
    assert not Tournament.objects.filter(slug="restored").exists()
