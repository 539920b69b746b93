"""The migration that gives the ranking lists maintainers admits what counted before, with its
results and a line in the log, so that the lists read the same the day after."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests import factories
from tests.tournaments.helpers import play
from tournaments import services
from tournaments.models import RankingAdmission, RankingList, RankingLogEntry, Tournament

BEFORE = [("tournaments", "0020_standings_wanted")]
AFTER = [("tournaments", "0021_ranking_governance")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_what_counted_before_is_admitted_by_nobody_with_its_results():
    today = datetime.date.today()
    counted = factories.tournament(players=4, planned_rounds=1, starts_on=today)
    play(counted)
    hidden = factories.tournament(players=4, planned_rounds=1, starts_on=today)
    play(hidden)
    running = factories.tournament(players=4, planned_rounds=2, starts_on=today)
    play(running)
    assert Tournament.objects.get(pk=counted.pk).status == "finished"
    try:
        apps = migrate(BEFORE)
        OldTournament = apps.get_model("tournaments", "Tournament")
        OldTournament.objects.filter(pk=hidden.pk).update(standings_public=False)
        OldRankingList = apps.get_model("tournaments", "RankingList")
        OldRankingList.objects.create(name="Clubliste", slug="club", months=6, min_rounds=1)
        migrate(AFTER)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    # "club", and the default list of migration 0007 unless a transactional test before this
    # one emptied the tables.
    lists = set(RankingList.objects.values_list("slug", flat=True))
    assert "club" in lists
    admissions = RankingAdmission.objects.all()
    assert {(a.ranking_list.slug, a.tournament_id) for a in admissions} == {
        (slug, counted.pk) for slug in lists
    }
    admission = admissions.get(ranking_list__slug="club")
    assert admission.status == "admitted"
    assert admission.decided_by is None
    assert admission.reason.startswith("Admitted when the ranking lists got maintainers")
    assert sorted(player for player, *_ in admission.snapshot) == sorted(
        counted.entries.values_list("player_id", flat=True)
    )
    assert all(
        rounds == 1 and status == "active" for _p, rounds, _pts, status in admission.snapshot
    )
    assert RankingLogEntry.objects.filter(
        kind="admitted", tournament=counted, by__isnull=True
    ).count() == len(lists)
    assert not RankingList.objects.get(slug="club").maintainers.exists()
    # The list counts it as before.
    club = services.ranking_rebuild(ranking_list=RankingList.objects.get(slug="club"))
    assert {player for _r, player, *_ in club.data} == set(
        counted.entries.values_list("player_id", flat=True)
    )
