"""A tournament's settings: created with all of them, copied from an earlier one, changed by its
organiser, and locked, with the reason, once a change would break what was drawn or played."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError

from doko.sample_sheets import full_match
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.tournaments.helpers import play
from tournaments import policies, selectors, services
from tournaments.models import Entry, Seat, Tournament, TournamentRole

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def creator(**fields):
    """A user in the Organisers group, which the migration made."""
    user = factories.user(**fields)
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


def locks(tournament) -> dict:
    return dict(
        selectors.settings_locks(tournament=Tournament.objects.get(pk=tournament.pk)).locked
    )


def update(tournament, organiser, **changes):
    return services.tournament_update(tournament=tournament, by=organiser, changes=changes)


# Creating --------------------------------------------------------------------------------------


def test_a_member_of_the_organisers_group_creates_a_tournament_with_every_setting():
    user = creator()
    tournament = services.tournament_create(
        name="  Münsteraner Herbstpokal ",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=1),
        venue="Münster, Halle Münsterland",
        planned_rounds=6,
        seating_method="standings",
        hands_per_match=20,
        match_minutes=90,
        allow_tables_of_five=True,
        hands_per_match_five=25,
        match_minutes_five=110,
        tiebreaks="start_number",
        counts_for_ranking=False,
        is_public=False,
        standings_public=False,
        by=user,
    )
    tournament.refresh_from_db()
    assert tournament.slug == "muensteraner-herbstpokal-2026"
    assert tournament.name == "Münsteraner Herbstpokal"
    assert (tournament.planned_rounds, tournament.seating_method) == (6, "standings")
    assert (tournament.hands_per_match, tournament.match_minutes) == (20, 90)
    assert tournament.allow_tables_of_five
    assert (tournament.hands_per_match_five, tournament.match_minutes_five) == (25, 110)
    assert tournament.tiebreaks == "start_number"
    assert (tournament.counts_for_ranking, tournament.is_public, tournament.standings_public) == (
        False,
        False,
        False,
    )
    assert list(tournament.roles.values_list("user", "role")) == [(user.pk, "organiser")]


def test_a_superuser_creates_tournaments_without_the_group():
    admin = factories.user(is_superuser=True)
    assert (
        services.tournament_create(name="Pokal", starts_on=DAY, by=admin).roles.get().user == admin
    )


def test_creating_a_tournament_without_the_permission_is_refused_with_the_reason():
    with pytest.raises(PermissionDenied, match="Organisers"):
        services.tournament_create(name="Pokal", starts_on=DAY, by=factories.user())
    assert not Tournament.objects.exists()


def test_the_permission_alone_is_enough():
    from django.contrib.auth.models import Permission

    user = factories.user()
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert policies.may_create_tournament(user=user) is None


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"ends_on": DAY - datetime.timedelta(days=1)}, "ends_on"),
        ({"hands_per_match": 7}, "hands_per_match"),
        ({"hands_per_match_five": 9}, "hands_per_match_five"),
        ({"planned_rounds": 0}, "planned_rounds"),
        ({"planned_rounds": 31}, "planned_rounds"),
        ({"match_minutes": 601}, "match_minutes"),
        ({"seating_method": "alphabetical"}, "seating_method"),
        ({"tiebreaks": "coin_toss"}, "tiebreaks"),
        ({"name": "   "}, "name"),
        ({"slug": "new"}, "slug"),
        ({"slug": "not a slug"}, "slug"),
    ],
)
def test_bad_settings_are_refused_on_their_field_and_nothing_is_saved(fields, field):
    with pytest.raises(ValidationError) as error:
        services.tournament_create(**{"name": "Pokal", "starts_on": DAY, **fields}, by=creator())
    assert field in error.value.message_dict
    assert not Tournament.objects.exists()


def test_a_short_name_taken_is_refused_on_its_field():
    factories.tournament(name="Pokal", slug="pokal")
    with pytest.raises(ValidationError) as error:
        services.tournament_create(name="Anderer", starts_on=DAY, slug="pokal", by=creator())
    assert "slug" in error.value.message_dict


# Copying ---------------------------------------------------------------------------------------


def test_a_copy_takes_every_setting_but_the_name_and_days():
    organiser = creator()
    source = factories.tournament(
        players=5,
        organiser=organiser,
        venue="Hannover",
        planned_rounds=5,
        seating_method="ddv",
        allow_tables_of_five=True,
        hands_per_match=28,
        tiebreaks="best_round,start_number",
        is_public=False,
    )
    copy = services.tournament_copy(
        source=source, by=organiser, name="Pokal 2027", starts_on=DAY.replace(year=2027)
    )
    for name in selectors.SETTINGS:
        if name not in {"name", "starts_on", "ends_on"}:
            assert getattr(copy, name) == getattr(source, name), name
    assert (copy.name, copy.starts_on, copy.ends_on) == (
        "Pokal 2027",
        DAY.replace(year=2027),
        DAY.replace(year=2027),
    )
    assert not copy.entries.exists()
    assert copy.roles.get().user == organiser


def test_a_copy_with_its_players_registers_them_again_under_their_start_numbers():
    organiser = creator()
    source = factories.tournament(players=6, organiser=organiser)
    services.entry_withdraw(entry=source.entries.get(start_number=2))
    source.entries.get(start_number=6).delete()
    copy = services.tournament_copy(
        source=source,
        by=organiser,
        name="Neu",
        starts_on=DAY,
        entries=[1, 2, 4],
        changes={"venue": "Celle"},
    )
    # The withdrawn player 2, chosen, is active again; 3 and 5, not chosen, are not copied.
    assert list(copy.entries.values_list("start_number", "player", "status")) == [
        (entry.start_number, entry.player_id, Entry.Status.ACTIVE)
        for entry in source.entries.filter(start_number__in=[1, 2, 4]).order_by("start_number")
    ]
    assert copy.venue == "Celle"


def test_only_an_organiser_of_the_earlier_tournament_copies_it():
    source = factories.tournament(players=4, organiser=factories.user())
    with pytest.raises(PermissionDenied):
        services.tournament_copy(source=source, by=creator(), name="Neu", starts_on=DAY)
    assert Tournament.objects.count() == 1


def test_the_tournaments_a_user_organises():
    user = factories.user()
    mine = factories.tournament(organiser=user)
    helped = factories.tournament()
    factories.role_grant(tournament=helped, user=user, role=TournamentRole.Role.ADJUDICATOR)
    assert list(selectors.tournaments_organised(user=user)) == [mine]


# Changing and locks ----------------------------------------------------------------------------


def test_the_organiser_changes_every_setting_before_the_first_draw():
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser)
    assert locks(tournament) == {}
    change = update(
        tournament,
        organiser,
        name="Umbenannt",
        venue=" Celle ",
        planned_rounds=4,
        seating_method="ddv",
        hands_per_match=20,
        match_minutes=80,
        allow_tables_of_five=True,
        counts_for_ranking=False,
    )
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue, tournament.planned_rounds) == (
        "Umbenannt",
        "Celle",
        4,
    )
    assert (tournament.seating_method, tournament.hands_per_match) == ("ddv", 20)
    assert set(change.changed) == {
        "name",
        "venue",
        "planned_rounds",
        "seating_method",
        "hands_per_match",
        "match_minutes",
        "allow_tables_of_five",
        "counts_for_ranking",
    }


@pytest.mark.parametrize("role", [None, "adjudicator", "deputy", "panel", "scorekeeper"])
def test_only_an_organiser_changes_the_settings(role):
    tournament = factories.tournament()
    user = factories.user()
    if role is not None:
        factories.role_grant(tournament=tournament, user=user, role=role)
    with pytest.raises(PermissionDenied):
        update(tournament, user, venue="Celle")
    tournament.refresh_from_db()
    assert tournament.venue == ""


def test_the_short_name_for_links_changes_until_the_seating_is_published():
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser)
    assert update(tournament, organiser, slug="anders").changed == ("slug",)
    factories.seated_round(Tournament.objects.get(slug="anders"))
    with pytest.raises(ValidationError) as error:
        update(Tournament.objects.get(slug="anders"), organiser, slug="wieder-anders")
    assert "published" in error.value.message_dict["slug"][0]


def test_a_drawn_round_locks_the_seating_draw():
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser)
    factories.seated_round(tournament, publish=False)
    assert set(locks(tournament)) == {"seating_method"}
    assert "Round 1 is drawn" in locks(tournament)["seating_method"]
    with pytest.raises(ValidationError) as error:
        update(tournament, organiser, seating_method="standings", venue="Celle")
    assert list(error.value.message_dict) == ["seating_method"]
    tournament.refresh_from_db()
    assert (tournament.seating_method, tournament.venue) == ("random", "")  # nothing saved


def test_the_same_value_of_a_locked_setting_is_no_change():
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser)
    factories.seated_round(tournament)
    change = update(tournament, organiser, seating_method="random", venue="Celle")
    assert change.changed == ("venue",)


def test_a_running_round_locks_the_playing_time_and_a_written_hand_the_hands():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = services.round_start(round=factories.seated_round(tournament))
    assert set(locks(tournament)) == {
        "seating_method",
        "match_minutes",
        "match_minutes_five",
        "official",  # TSR 8.1.1: played as it began
    }
    sheet = Scoresheet.objects.get(table__round=round_)
    scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], version=sheet.version, by=factories.keeper(sheet)
    )
    locked = locks(tournament)
    assert {"hands_per_match", "hands_per_match_five"} <= set(locked)
    assert "TSR 8.5.1" in locked["match_minutes"]
    with pytest.raises(ValidationError) as error:
        update(tournament, organiser, hands_per_match=20, match_minutes=90)
    assert set(error.value.message_dict) == {"hands_per_match", "match_minutes"}


def test_the_planned_rounds_cannot_fall_below_the_rounds_that_exist():
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=4)
    play(tournament, rounds=2)
    with pytest.raises(ValidationError) as error:
        update(tournament, organiser, planned_rounds=1)
    assert error.value.message_dict["planned_rounds"] == [
        "Round 2 exists already: plan at least 2 rounds."
    ]
    update(tournament, organiser, planned_rounds=6)
    tournament.refresh_from_db()
    assert tournament.planned_rounds == 6


def test_lowering_the_planned_rounds_to_those_played_finishes_the_tournament(
    django_capture_on_commit_callbacks,
):
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=4)
    play(tournament, rounds=2)
    update(tournament, organiser, planned_rounds=2)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "planned_rounds" in locks(tournament)


def test_the_ddv_draw_locks_the_planned_rounds():
    organiser = factories.user()
    tournament = factories.tournament(
        players=8, organiser=organiser, planned_rounds=3, seating_method="ddv"
    )
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    assert "in advance" in locks(tournament)["planned_rounds"]


def test_a_finished_tournament_locks_its_rounds_and_tables_of_five():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser, planned_rounds=1)
    play(tournament)
    locked = locks(tournament)
    assert {"planned_rounds", "allow_tables_of_five"} <= set(locked)
    assert "finished" in locked["planned_rounds"]
    # What the public sees and how ties are broken stay the organiser's.
    update(tournament, organiser, tiebreaks="start_number", standings_public=False, name="Alt")


def _five_seated():
    """Sixteen players by the DDV draw, round 1 running at tables of four, round 2 published;
    a disqualification leaves round 2 waiting until tables of five are allowed, which seats it at three of five."""
    organiser = factories.user()
    tournament = factories.tournament(
        players=16, organiser=organiser, planned_rounds=2, seating_method="ddv"
    )
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    services.round_start(round=tournament.rounds.get(number=1))
    services.tournament_seating_publish(tournament=tournament)
    services.entry_disqualify(entry=tournament.entries.first())
    return tournament, organiser


def test_allowing_tables_of_five_in_the_settings_seats_a_waiting_round_again():
    tournament, organiser = _five_seated()
    change = update(tournament, organiser, allow_tables_of_five=True, venue="Celle")
    assert set(change.changed) == {"allow_tables_of_five", "venue"}
    assert change.reseating.moved  # round 2 was published: its moves are reported
    second = tournament.rounds.get(number=2)
    assert sorted(table.seats.count() for table in second.tables.all()) == [5, 5, 5]


def test_tables_of_five_cannot_be_switched_off_under_a_table_of_five():
    tournament, organiser = _five_seated()
    services.tournament_tables_of_five_allow(tournament=tournament, by=organiser)
    assert Seat.objects.filter(round__tournament=tournament, position=5).exists()
    with pytest.raises(ValidationError) as error:
        update(tournament, organiser, allow_tables_of_five=False)
    assert "TSR 10.1" in error.value.message_dict["allow_tables_of_five"][0]


def test_tables_of_five_are_switched_off_again_while_none_is_seated():
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, allow_tables_of_five=True)
    factories.seated_round(tournament)
    update(tournament, organiser, allow_tables_of_five=False)
    tournament.refresh_from_db()
    assert not tournament.allow_tables_of_five


def test_new_tiebreaks_rerun_the_standings(django_capture_on_commit_callbacks):
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    play(tournament)
    version = Tournament.objects.get(pk=tournament.pk).standings_version
    with django_capture_on_commit_callbacks(execute=True):
        update(tournament, organiser, tiebreaks="start_number")
    tournament.refresh_from_db()
    assert tournament.standings_version > version
    assert [t.value for t in selectors.standings_read(tournament=tournament).tiebreaks] == [
        "start_number"
    ]


def test_a_change_of_venue_does_not_rerun_the_standings(django_capture_on_commit_callbacks):
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    play(tournament)
    version = Tournament.objects.get(pk=tournament.pk).standings_version
    with django_capture_on_commit_callbacks(execute=True):
        update(tournament, organiser, venue="Celle")
    assert Tournament.objects.get(pk=tournament.pk).standings_version == version
