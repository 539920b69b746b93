"""Ranking lists are governed: a tournament counts for a list only once a maintainer of the list
who is none of its staff has admitted it, if it meets the list's criteria; what changed since is
shown to the maintainers; every step is logged."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from doko import sample_sheets
from rankings.models import RankingAdmission, RankingList, RankingLogEntry
from rankings.policies import may_decide_admission
from rankings.selectors import ranking_keeping
from rankings.services.admissions import (
    ranking_admission_admit,
    ranking_admission_decline,
    ranking_admission_request,
    ranking_maintainer_add,
)
from rankings.services.lists import ranking_list_save, rankings_rebuild
from scoring import services as scoring_services
from scoring.models import Scoresheet
from scoring.services import Actor
from tests import factories
from tests.tournaments.helpers import MATCH, play
from tournaments import policies, services
from tournaments.models import SheetKeeping, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def capture(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def keeper_of_lists():
    """The list's first maintainer, appointed by an administrator."""
    return factories.user(username="listkeeper", email="keeper@example.org")


@pytest.fixture
def ranking(capture, keeper_of_lists):
    admin = factories.user(username="list-admin", is_superuser=True, is_staff=True)
    with capture():
        ranking = ranking_list_save(name="Clubliste", slug="club", months=6, min_rounds=1)
        RankingList.objects.filter(pk=ranking.pk).update(
            tournament_min_players=4, tournament_min_rounds=1
        )
        ranking.refresh_from_db()
        ranking_maintainer_add(ranking_list=ranking, who="listkeeper", by=admin)
    return ranking


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


def finished(capture, players: int = 4, **fields) -> tuple[Tournament, object]:
    """A tournament ended today, its one round played and closed: finished."""
    organiser = factories.user()
    today = datetime.date.today()
    with capture():
        tournament = factories.tournament(
            players=players,
            planned_rounds=1,
            organiser=organiser,
            starts_on=today,
            ends_on=today,
            **fields,
        )
        play(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament, organiser


def ranked_players(slug: str = "club") -> set[int]:
    return {player_id for _rank, player_id, *_ in RankingList.objects.get(slug=slug).data}


def players_of(tournament: Tournament) -> set[int]:
    return set(tournament.entries.values_list("player_id", flat=True))


def request_and_admit(capture, ranking, tournament, organiser, maintainer):
    with capture():
        admission = ranking_admission_request(
            ranking_list=ranking, tournament=tournament, by=organiser
        )
        return ranking_admission_admit(admission=admission, by=maintainer)


# N6: an organiser cannot put invented results into the lists on his own -----------------------


def invented_tournament(capture, mallory) -> Tournament:
    """What the finding did: a one-round tournament of his own, the sheet typed at the desk
    and confirmed by himself from the 'signed' sheet, the round closed."""
    today = datetime.date.today()
    with capture():
        tournament = services.tournament_create(
            name="Mein Turnier",
            starts_on=today,
            planned_rounds=1,
            sheet_keeping=SheetKeeping.PAPER,
            by=mallory,
        )
        for _ in range(4):
            services.entry_create(tournament=tournament, player=factories.player())
        round_ = services.round_start(round=factories.seated_round(tournament))
        sheet = Scoresheet.objects.get(table__round=round_)
        desk = Actor(user=mallory)
        sheet = scoring_services.scoresheet_hands_replace(
            scoresheet=sheet, hands=MATCH, version=sheet.version, by=desk
        )
        scoring_services.scoresheet_confirm(
            scoresheet=sheet, version=sheet.version, by=desk, from_signed_sheet=True
        )
        services.round_end(round=round_, by=mallory)
        services.round_close(round=round_)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def test_replay_n6_an_organiser_alone_changes_no_ranking_list(capture, ranking, keeper_of_lists):
    shown, its_organiser = finished(capture)
    request_and_admit(capture, ranking, shown, its_organiser, keeper_of_lists)
    before = RankingList.objects.get(slug="club").data
    assert {player for _r, player, *_ in before} == players_of(shown)

    mallory = factories.user(username="mallory")
    mallory.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    tournament = invented_tournament(capture, mallory)
    with capture():
        rankings_rebuild()
    assert RankingList.objects.get(slug="club").data == before

    api = api_as(mallory)
    with capture():
        asked = api.post(
            reverse("api:ranking-requests", args=[tournament.slug]), {"list": "club"}, "json"
        )
    assert asked.status_code == 201, asked.content
    assert asked.json()["status"] == "requested"
    with capture():
        rankings_rebuild()
    assert RankingList.objects.get(slug="club").data == before

    admit = reverse("api:ranking-admit", args=["club", tournament.slug])
    refused = api.post(admit, {}, "json")
    assert refused.status_code == 403
    assert "Only a maintainer" in refused.json()["detail"]

    # A maintainer now, he still does not admit his own tournament.
    with capture():
        added = api_as(keeper_of_lists).post(
            reverse("api:ranking-maintainers", args=["club"]), {"user": "mallory"}, "json"
        )
    assert added.status_code == 201, added.content
    refused = api.post(admit, {}, "json")
    assert refused.status_code == 403
    assert "another maintainer of the list decides" in refused.json()["detail"]
    assert RankingAdmission.objects.get(tournament=tournament).status == "requested"
    assert RankingList.objects.get(slug="club").data == before

    # Only another maintainer's admission makes it count.
    with capture():
        admitted = api_as(keeper_of_lists).post(admit, {"reason": "Checked the sheet."}, "json")
    assert admitted.status_code == 200, admitted.content
    assert ranked_players() == players_of(shown) | players_of(tournament)
    kinds = list(
        RankingLogEntry.objects.filter(tournament=tournament)
        .order_by("at", "pk")
        .values_list("kind", "by__username")
    )
    assert kinds == [("requested", "mallory"), ("admitted", "listkeeper")]


def test_a_finished_tournament_counts_only_once_admitted(capture, ranking, keeper_of_lists):
    tournament, organiser = finished(capture)
    assert ranked_players() == set()
    with capture():
        admission = ranking_admission_request(
            ranking_list=ranking, tournament=tournament, by=organiser
        )
    assert ranked_players() == set()
    with capture():
        ranking_admission_admit(admission=admission, by=keeper_of_lists)
    assert ranked_players() == players_of(tournament)
    # Declined later, with a reason, it drops out.
    with capture():
        ranking_admission_decline(
            admission=admission, by=keeper_of_lists, reason="Not a club tournament."
        )
    assert ranked_players() == set()


def test_the_organiser_switching_counting_off_drops_an_admitted_tournament(
    capture, ranking, keeper_of_lists
):
    tournament, organiser = finished(capture)
    request_and_admit(capture, ranking, tournament, organiser, keeper_of_lists)
    assert ranked_players() == players_of(tournament)
    with capture():
        services.tournament_update(
            tournament=tournament, by=organiser, changes={"counts_for_ranking": False}
        )
    assert ranked_players() == set()


def test_a_staff_member_of_the_tournament_does_not_admit_it(capture, ranking, keeper_of_lists):
    tournament, organiser = finished(capture)
    factories.role_grant(tournament=tournament, user=keeper_of_lists, role="scorekeeper")
    with capture():
        ranking_admission_request(ranking_list=ranking, tournament=tournament, by=organiser)
    response = api_as(keeper_of_lists).post(
        reverse("api:ranking-admit", args=["club", tournament.slug]), {}, "json"
    )
    assert response.status_code == 403
    assert "staff of this tournament" in response.json()["detail"]


def test_a_maintainer_whose_role_in_the_tournament_was_taken_away_does_not_admit_it(
    capture, ranking, keeper_of_lists
):
    tournament, organiser = finished(capture)
    grant = factories.role_grant(tournament=tournament, user=keeper_of_lists, role="scorekeeper")
    with capture():
        ranking_admission_request(ranking_list=ranking, tournament=tournament, by=organiser)
    grant.delete()  # he leaves the staff, and then comes to decide
    admission = RankingAdmission.objects.get(tournament=tournament)
    refusal = may_decide_admission(admission=admission, user=keeper_of_lists)
    assert refusal is not None
    assert "were on the staff" in refusal.message
    response = api_as(keeper_of_lists).post(
        reverse("api:ranking-admit", args=["club", tournament.slug]), {}, "json"
    )
    assert response.status_code == 403
    assert admission.status == RankingAdmission.Status.REQUESTED


# Criteria and reasons ---------------------------------------------------------------------------


def test_admitting_a_tournament_that_breaks_a_criterion_is_a_400_naming_it(
    capture, ranking, keeper_of_lists
):
    RankingList.objects.filter(pk=ranking.pk).update(
        tournament_min_players=8, tournament_min_rounds=2
    )
    tournament, organiser = finished(capture)
    with capture():
        ranking_admission_request(ranking_list=ranking, tournament=tournament, by=organiser)
    response = api_as(keeper_of_lists).post(
        reverse("api:ranking-admit", args=["club", tournament.slug]), {}, "json"
    )
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"tournament_min_players", "tournament_min_rounds"}
    assert "at least 8 active players; this one has 4" in errors["tournament_min_players"][0]
    assert "at least 2 rounds played; this one closed 1" in errors["tournament_min_rounds"][0]
    assert RankingAdmission.objects.get(tournament=tournament).status == "requested"
    assert ranked_players() == set()


def test_a_table_of_five_breaks_a_list_of_tables_of_four_only(capture, ranking, keeper_of_lists):
    RankingList.objects.filter(pk=ranking.pk).update(tournament_tables_of_four_only=True)
    organiser = factories.user()
    today = datetime.date.today()
    with capture():
        tournament = factories.tournament(
            players=5,
            planned_rounds=1,
            organiser=organiser,
            starts_on=today,
            allow_tables_of_five=True,
        )
        round_ = services.round_start(round=factories.seated_round(tournament))
        factories.sheet_confirmed(
            Scoresheet.objects.get(table__round=round_), sample_sheets.full_match(size=5)
        )
        factories.round_end(round_)
        services.round_close(round=round_)
    with capture():
        admission = ranking_admission_request(
            ranking_list=ranking, tournament=tournament, by=organiser
        )
    with pytest.raises(ValidationError) as refused:
        ranking_admission_admit(admission=admission, by=keeper_of_lists)
    assert set(refused.value.message_dict) == {"tournament_tables_of_four_only"}


def test_declining_without_a_reason_is_a_400_on_reason(capture, ranking, keeper_of_lists):
    tournament, organiser = finished(capture)
    with capture():
        ranking_admission_request(ranking_list=ranking, tournament=tournament, by=organiser)
    url = reverse("api:ranking-decline", args=["club", tournament.slug])
    response = api_as(keeper_of_lists).post(url, {"reason": "  "}, "json")
    assert response.status_code == 400
    assert list(response.json()) == ["reason"]
    response = api_as(keeper_of_lists).post(url, {"reason": "Too small."}, "json")
    assert response.status_code == 200
    assert response.json()["status"] == "declined"
    # The organiser asks again.
    asked = api_as(organiser).post(
        reverse("api:ranking-requests", args=[tournament.slug]), {"list": "club"}, "json"
    )
    assert asked.status_code == 201
    assert asked.json()["reason"] == ""


def test_the_organiser_withdraws_his_request(capture, ranking, keeper_of_lists):
    tournament, organiser = finished(capture)
    api = api_as(organiser)
    api.post(reverse("api:ranking-requests", args=[tournament.slug]), {"list": "club"}, "json")
    withdraw = reverse("api:ranking-request-withdraw", args=[tournament.slug, "club"])
    assert api_as(keeper_of_lists).post(withdraw).status_code == 403
    response = api.post(withdraw)
    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"
    # Nothing left to decide.
    response = api_as(keeper_of_lists).post(
        reverse("api:ranking-admit", args=["club", tournament.slug]), {}, "json"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["status"]
    assert [
        line["status"]
        for line in api.get(reverse("api:ranking-requests", args=[tournament.slug])).json()
        if line["list"] == "club"
    ] == ["withdrawn"]


# Maintainers --------------------------------------------------------------------------------------


def test_a_stranger_learns_nothing_of_accounts_when_adding_a_maintainer(ranking, keeper_of_lists):
    stranger = api_as(factories.user())
    url = reverse("api:ranking-maintainers", args=["club"])
    for who in ("listkeeper", "nobody-at-all", "keeper@example.org"):
        response = stranger.post(url, {"user": who}, "json")
        assert response.status_code == 403
        assert "Only a maintainer" in response.json()["detail"]
    # A maintainer is told.
    response = api_as(keeper_of_lists).post(url, {"user": "nobody-at-all"}, "json")
    assert response.status_code == 400
    assert list(response.json()) == ["user"]


def test_a_maintainer_is_added_by_address_and_the_last_one_stays(ranking, keeper_of_lists):
    other = factories.user(username="other", email="Other@Example.org")
    api = api_as(keeper_of_lists)
    url = reverse("api:ranking-maintainers", args=["club"])
    assert api.post(url, {"user": "other@example.org"}, "json").status_code == 201
    assert api.get(url).json() == {"maintainers": ["listkeeper", "other"]}
    assert api.delete(reverse("api:ranking-maintainer", args=["club", "other"])).status_code == 204
    last = api.delete(reverse("api:ranking-maintainer", args=["club", "listkeeper"]))
    assert last.status_code == 400
    assert "at least one maintainer" in last.json()["user"][0]
    assert list(ranking.maintainers.all()) == [keeper_of_lists]
    kinds = list(
        RankingLogEntry.objects.filter(ranking_list=ranking)
        .order_by("at", "pk")
        .values_list("kind", "maintainer")
    )
    assert kinds == [
        ("maintainer_added", "listkeeper"),
        ("maintainer_added", "other"),
        ("maintainer_removed", "other"),
    ]
    assert other.pk not in ranking.maintainers.values_list("pk", flat=True)


# Changes since admission ------------------------------------------------------------------------


def test_a_result_changed_after_admission_is_shown_to_the_maintainers(
    capture, client, ranking, keeper_of_lists
):
    tournament, organiser = finished(capture, players=8)
    request_and_admit(capture, ranking, tournament, organiser, keeper_of_lists)
    assert ranking_keeping(ranking_list=ranking, user=keeper_of_lists).changes == []
    # The arbitration panel disqualifies a player after the end (TSR 9.6.2 c).
    entry = tournament.entries.select_related("player").first()
    with capture():
        services.entry_disqualify(entry=entry)
    (changed,) = ranking_keeping(ranking_list=ranking, user=keeper_of_lists).changes
    (line,) = changed.lines
    assert line.player == entry.player
    assert (line.change.then.status, line.change.now.status) == ("active", "disqualified")
    assert line.change.then.points == line.change.now.points

    client.force_login(keeper_of_lists)
    page = client.get(reverse("rankings:ranking", args=["club"])).content.decode()
    assert "Changes since admission" in page
    assert "(disqualified)" in page
    assert line.player.name in page
    # The public reads no changes.
    client.logout()
    assert (
        "Changes since admission"
        not in client.get(reverse("rankings:ranking", args=["club"])).content.decode()
    )
    api = APIClient().get(reverse("api:ranking-admissions", args=["club"])).json()
    assert api["changes"] == []
    data = api_as(keeper_of_lists).get(reverse("api:ranking-admissions", args=["club"])).json()
    assert data["changes"][0]["tournament"] == tournament.slug
    assert data["changes"][0]["changes"][0]["now"]["status"] == "disqualified"

    # Acknowledged: admitted again, with the results as they are now.
    with capture():
        ranking_admission_admit(
            admission=RankingAdmission.objects.get(tournament=tournament),
            by=keeper_of_lists,
            reason="Sheet being corrected.",
        )
    assert ranking_keeping(ranking_list=ranking, user=keeper_of_lists).changes == []
    assert RankingLogEntry.objects.filter(kind="readmitted", tournament=tournament).exists()


# The list's page ----------------------------------------------------------------------------------


def test_the_list_page_states_criteria_admitted_tournaments_and_log(
    capture, client, ranking, keeper_of_lists
):
    tournament, organiser = finished(capture)
    request_and_admit(capture, ranking, tournament, organiser, keeper_of_lists)
    pending, its_organiser = finished(capture)
    with capture():
        ranking_admission_request(ranking_list=ranking, tournament=pending, by=its_organiser)
    page = client.get(reverse("rankings:ranking", args=["club"])).content.decode()
    assert "at least 4 active players" in page
    assert tournament.name in page
    assert "listkeeper" in page
    assert pending.name not in page  # a pending request is the maintainers'
    client.force_login(keeper_of_lists)
    page = client.get(reverse("rankings:ranking", args=["club"])).content.decode()
    assert pending.name in page
    assert "Requests waiting" in page


@pytest.mark.parametrize("tournaments", [1, 4])
def test_the_list_page_takes_a_fixed_number_of_queries(
    capture, client, ranking, keeper_of_lists, django_assert_max_num_queries, tournaments
):
    """However many tournaments the list admitted and changed since: five queries for the
    public (the list, its players, maintainers, admissions, log), ten for a maintainer (his
    session and account, the results now, the changed players, his roles)."""
    for _ in range(tournaments):
        tournament, organiser = finished(capture)
        request_and_admit(capture, ranking, tournament, organiser, keeper_of_lists)
        with capture():
            services.entry_disqualify(entry=tournament.entries.first())
    url = reverse("rankings:ranking", args=["club"])
    with django_assert_max_num_queries(5):
        assert client.get(url).status_code == 200
    client.force_login(keeper_of_lists)
    with django_assert_max_num_queries(10):
        response = client.get(url)
    assert len(response.context["keeping"].changes) == tournaments


# The administration -------------------------------------------------------------------------------


def _admin_form(ranking, **changes) -> dict:
    data = {
        "name": ranking.name,
        "slug": ranking.slug,
        "months": ranking.months,
        "min_rounds": ranking.min_rounds,
        "tournament_min_players": ranking.tournament_min_players,
        "tournament_min_rounds": ranking.tournament_min_rounds,
        "is_public": "on",
        "admissions-TOTAL_FORMS": 0,
        "admissions-INITIAL_FORMS": 0,
    }
    data.update(changes)
    return data


def test_the_administration_appoints_maintainers_logged_and_keeps_one(
    admin_client, capture, ranking, keeper_of_lists
):
    admin_client.cookies["django_language"] = "en"
    other = factories.user(username="other")
    url = reverse("admin:rankings_rankinglist_change", args=[ranking.pk])
    assert admin_client.get(url).status_code == 200
    with capture():
        response = admin_client.post(
            url, _admin_form(ranking, maintainer_accounts=[keeper_of_lists.pk, other.pk])
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert set(ranking.maintainers.all()) == {keeper_of_lists, other}
    assert RankingLogEntry.objects.filter(kind="maintainer_added", maintainer="other").exists()
    # None left: refused, with the reason, and nothing changed.
    response = admin_client.post(url, _admin_form(ranking, maintainer_accounts=[]))
    assert response.status_code == 200
    assert "keeps at least one maintainer" in response.content.decode()
    assert set(ranking.maintainers.all()) == {keeper_of_lists, other}
    assert admin_client.get(reverse("admin:rankings_rankinglogentry_changelist")).status_code == 200


def test_a_superuser_is_no_maintainer_unless_appointed(capture, ranking):
    """Superusers appoint maintainers in the administration but admit nothing themselves."""
    tournament, organiser = finished(capture)
    admin = factories.user(username="boss", is_superuser=True)
    with capture():
        ranking_admission_request(ranking_list=ranking, tournament=tournament, by=organiser)
    response = api_as(admin).post(
        reverse("api:ranking-admit", args=["club", tournament.slug]), {}, "json"
    )
    assert response.status_code == 403
    assert ranked_players() == set()
