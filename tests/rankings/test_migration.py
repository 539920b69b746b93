"""The ranking lists moved from the tournaments app to their own without losing a row: the
migrations only move Django's state (the tables stay ``tournaments_rankinglist`` and so on), and
the content types move with them, so that the permissions given on them stay."""

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from rankings.models import RankingAdmission, RankingList, RankingLogEntry
from tests import factories
from tests.migrating import migrate, migrate_to_latest

# The last migration of tournaments with the models, and the move.
BEFORE = [("tournaments", "0032_springer")]  # rankings 0001 goes back with 0033
AFTER = [("tournaments", "0033_rankings_moved_out"), ("rankings", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_the_move_keeps_every_list_admission_log_entry_maintainer_and_permission():
    tournament = factories.tournament(players=4, planned_rounds=1)
    keeper = User.objects.create_user("listkeeper")
    clerk = User.objects.create_user("clerk")
    now = timezone.now()
    try:
        apps = migrate(BEFORE)
        OldList = apps.get_model("tournaments", "RankingList")
        OldAdmission = apps.get_model("tournaments", "RankingAdmission")
        OldLog = apps.get_model("tournaments", "RankingLogEntry")
        ContentType = apps.get_model("contenttypes", "ContentType")
        Permission = apps.get_model("auth", "Permission")
        OldUser = apps.get_model("auth", "User")
        old = OldList.objects.create(
            name="Vereinsrangliste", slug="verein", months=12, min_rounds=3, data=[[1, 7, 3, 90]]
        )
        old.maintainers.add(keeper.pk)
        OldAdmission.objects.create(
            ranking_list=old,
            tournament_id=tournament.pk,
            status="admitted",
            requested_by_id=keeper.pk,
            requested_at=now,
            decided_at=now,
            reason="geprüft",
            snapshot=[[7, 3, 90, "active"]],
        )
        OldLog.objects.create(
            ranking_list=old,
            tournament_id=tournament.pk,
            tournament_name="Kreuzpokal",
            kind="admitted",
            by_id=keeper.pk,
            by_name="listkeeper",
            at=now,
        )
        # A permission given on the lists under the old app's label.
        content_type, _ = ContentType.objects.get_or_create(
            app_label="tournaments", model="rankinglist"
        )
        permission, _ = Permission.objects.get_or_create(
            content_type=content_type, codename="change_rankinglist", defaults={"name": "x"}
        )
        OldUser.objects.get(pk=clerk.pk).user_permissions.add(permission)
        counts = (OldList.objects.count(), OldAdmission.objects.count(), OldLog.objects.count())
        migrate(AFTER)
    finally:
        migrate_to_latest()

    assert (
        RankingList.objects.count(),
        RankingAdmission.objects.count(),
        RankingLogEntry.objects.count(),
    ) == counts
    ranking = RankingList.objects.get(slug="verein")
    assert (ranking.pk, ranking.months, ranking.min_rounds) == (old.pk, 12, 3)
    assert ranking.data == [[1, 7, 3, 90]]
    assert list(ranking.maintainers.all()) == [keeper]
    admission = RankingAdmission.objects.get(ranking_list=ranking)
    assert (admission.tournament, admission.status, admission.reason) == (
        tournament,
        "admitted",
        "geprüft",
    )
    assert admission.snapshot == [[7, 3, 90, "active"]]
    entry = RankingLogEntry.objects.get(ranking_list=ranking)
    assert (entry.kind, entry.by, entry.tournament) == ("admitted", keeper, tournament)
    assert list(tournament.ranking_admissions.all()) == [admission]
    # The permission moved with its content type.
    assert User.objects.get(pk=clerk.pk).has_perm("rankings.change_rankinglist")
    from django.contrib.contenttypes.models import ContentType as CurrentContentType

    CurrentContentType.objects.clear_cache()
    assert not CurrentContentType.objects.filter(
        app_label="tournaments", model__in=["rankinglist", "rankingadmission", "rankinglogentry"]
    ).exists()
