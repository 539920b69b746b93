"""The demo: three realistic tournaments built through the services."""

import datetime
import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from demo.services import demo_build
from scoring.models import Hand, Scoresheet
from scoring.selectors import hand_lines, scoresheet_check
from tournaments.models import Player, RankingList, Round, Seat, Tournament

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 22, 15, 30, tzinfo=datetime.UTC)


def fingerprint() -> str:
    """Everything the seed decides: players, seating and every hand."""
    rows = [
        *Player.objects.order_by("last_name", "first_name").values_list(
            "first_name", "last_name", "club", "ddv_number"
        ),
        *Seat.objects.order_by(
            "round__tournament__name", "round__number", "table__number", "position"
        ).values_list("round__number", "table__number", "position", "entry__player__last_name"),
        *Hand.objects.order_by(
            "scoresheet__table__round__tournament__name",
            "scoresheet__table__round__number",
            "scoresheet__table__number",
            "number",
        ).values_list(
            "contract", "dealer", "soloist", "points_1", "points_2", "points_3", "points_4"
        ),
    ]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        result = demo_build(seed=7, now=NOW)
        yield result
        Tournament.objects.all().delete()
        RankingList.objects.filter(slug="doko-freunde").delete()
        Player.objects.all().delete()
        get_user_model().objects.all().delete()


def test_finished_tournament_has_32_players_and_three_closed_rounds(demo):
    finished = demo.tournaments[0]
    assert finished.status == Tournament.Status.FINISHED
    assert finished.entries.count() == 32
    assert list(finished.rounds.values_list("status", flat=True)) == ["closed"] * 3
    assert (
        Scoresheet.objects.filter(table__round__tournament=finished)
        .exclude(status="confirmed")
        .count()
        == 0
    )


def test_championship_has_148_players_in_round_4_of_8(demo):
    championship = demo.tournaments[1]
    assert championship.entries.count() == 148
    assert championship.planned_rounds == 8
    assert list(championship.rounds.values_list("number", "status")) == [
        (1, "closed"),
        (2, "closed"),
        (3, "closed"),
        (4, "running"),
        # drawn in advance (DDV) and published
        (5, "seated"),
        (6, "seated"),
        (7, "seated"),
        (8, "seated"),
    ]
    assert not championship.rounds.filter(published_at=None).exists()
    running = championship.rounds.get(number=4)
    assert running.tables.count() == 37
    statuses = set(Scoresheet.objects.filter(table__round=running).values_list("status", flat=True))
    assert statuses == {"draft", "submitted", "confirmed"}


def test_home_page_says_round_4_of_8_is_running(demo, client):
    client.cookies["django_language"] = "en"
    page = client.get("/").content.decode()
    assert "round 4 of 8 running" in page
    assert "round 3 of 3 closed" in page


def test_the_demo_organiser_creates_tournaments(demo):
    from django.contrib.auth.models import Group

    from tournaments import policies

    organiser = get_user_model().objects.get(username=demo.username)
    assert organiser.groups.filter(name=policies.ORGANISERS_GROUP).exists()
    assert (
        Group.objects.get(name=policies.ORGANISERS_GROUP)
        .permissions.filter(codename="add_tournament")
        .exists()
    )
    assert organiser.has_perm(policies.CREATE_PERMISSION)
    assert policies.may_create_tournament(user=organiser) is None


def test_every_demo_sheet_follows_the_tsr(demo):
    sheets = Scoresheet.objects.select_related("table__round__tournament").prefetch_related(
        "hands", "table__seats"
    )
    for sheet in sheets:
        result = scoresheet_check(
            scoresheet=sheet,
            hands=hand_lines(list(sheet.hands.all())),
            table_size=len(sheet.table.seats.all()),
        )
        assert result.ok, (sheet, [p.message for p in result.problems])
        if sheet.status != "draft":
            assert result.complete


def test_demo_sheets_include_compulsory_and_forced_solos(demo):
    contracts = set(Hand.objects.values_list("contract", flat=True))
    assert {"compulsory_solo", "forced_solo", "normal", "wedding"} <= contracts
    confirmed_rounds = Round.objects.filter(status="closed")
    for round_ in confirmed_rounds[:2]:
        for sheet in Scoresheet.objects.filter(table__round=round_):
            solos = sheet.hands.filter(contract__in=["compulsory_solo", "forced_solo"])
            assert sorted(solos.values_list("soloist", flat=True)) == [1, 2, 3, 4]


def test_organiser_can_log_in_with_the_printed_password(demo, client):
    assert client.login(username=demo.username, password=demo.password)
    assert set(demo.tournaments[1].roles.values_list("role", flat=True)) == {
        "organiser",
        "adjudicator",
        "panel",
    }


def test_the_club_list_is_kept_by_its_maintainer_not_by_the_organiser(demo, client):
    """The finished tournament counts for the club's list because its maintainer, who is no
    staff of it, admitted it on the organiser's request; the organiser may not appoint
    maintainers."""
    from tournaments import policies
    from tournaments.models import RankingAdmission

    club = RankingList.objects.get(slug="doko-freunde")
    admission = RankingAdmission.objects.get(ranking_list=club)
    assert admission.tournament == demo.tournaments[0]
    assert admission.status == "admitted"
    assert admission.decided_by.username == demo.maintainer
    assert admission.requested_by.username == demo.username
    assert len(club.data) == 32
    organiser = get_user_model().objects.get(username=demo.username)
    assert policies.may_change_maintainers(ranking_list=club, user=organiser) is not None
    assert client.login(username=demo.maintainer, password=demo.maintainer_password)
    assert policies.may_change_maintainers(ranking_list=club, user=admission.decided_by) is None


def test_same_seed_builds_the_same_tournaments(demo):
    first = fingerprint()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    demo_build(seed=7, now=NOW)
    assert fingerprint() == first


def test_demo_command_with_if_empty_leaves_a_filled_database_alone(demo, capsys):
    before = Tournament.objects.count()
    call_command("demo", "--if-empty")
    assert Tournament.objects.count() == before
    assert "already holds" in capsys.readouterr().out


def test_demo_command_refuses_a_filled_database(demo):
    with pytest.raises(CommandError, match="needs an empty one"):
        call_command("demo")


def test_the_club_tournament_takes_registrations_online(demo, client):
    """24 places taken through the public page, each with a personal link, two waiting; the
    registration page is open and says the next one joins the waiting list."""
    upcoming = demo.tournaments[2]
    states = list(upcoming.registrations.values_list("state", flat=True))
    assert states.count("admitted") == 24
    assert states.count("waiting") == 2
    entry = upcoming.entries.get(start_number=1)
    assert entry.link_key == entry.registration.key
    client.cookies["django_language"] = "en"
    page = client.get(f"/tournaments/{upcoming.slug}/register/").content.decode()
    assert "Full: you join the waiting list as number 3." in page
    assert client.get(f"/p/{entry.link_key}/").status_code == 200
