"""Ranking lists get maintainers, and a tournament counts for a list only once they admit it
(``RankingAdmission``). What counted before is admitted here, by nobody, with the results it
had, and the admission is logged: the lists read the same the day after. Nobody becomes a
maintainer: the administration appoints the first of each list."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, Q, Sum
from django.utils import timezone

from doko import rankings

# Stored as written here, shown in the reader's language (``selectors.ranking_log``).
MIGRATED_REASON = "Admitted when the ranking lists got maintainers: it counted before."


def admit_what_counted(apps, schema_editor):
    """Admit to every list each tournament that counted for the lists before: finished,
    counting by the organiser's choice, public with public standings."""
    RankingList = apps.get_model("tournaments", "RankingList")
    Tournament = apps.get_model("tournaments", "Tournament")
    Entry = apps.get_model("tournaments", "Entry")
    RankingAdmission = apps.get_model("tournaments", "RankingAdmission")
    RankingLogEntry = apps.get_model("tournaments", "RankingLogEntry")
    counted = list(
        Tournament.objects.filter(
            status="finished", counts_for_ranking=True, is_public=True, standings_public=True
        ).order_by("ends_on", "pk")
    )
    lists = list(RankingList.objects.all())
    if not counted or not lists:
        return
    confirmed = Q(results__confirmed=True)
    results: dict[int, list] = {tournament.pk: [] for tournament in counted}
    for row in (
        Entry.objects.filter(tournament__in=counted)
        .values("tournament_id", "player_id", "status")
        .annotate(rounds=Count("results", filter=confirmed), points=Sum("results__points", filter=confirmed))
        .order_by()
    ):
        results[row["tournament_id"]].append(
            rankings.Counted(row["player_id"], row["rounds"], row["points"] or 0, row["status"])
        )
    now = timezone.now()
    for ranking_list in lists:
        for tournament in counted:
            RankingAdmission.objects.get_or_create(
                ranking_list=ranking_list,
                tournament=tournament,
                defaults={
                    "status": "admitted",
                    "requested_at": now,
                    "decided_at": now,
                    "reason": MIGRATED_REASON,
                    "snapshot": rankings.snapshot(results[tournament.pk]),
                },
            )
            RankingLogEntry.objects.create(
                ranking_list=ranking_list,
                tournament=tournament,
                tournament_name=tournament.name,
                kind="admitted",
                at=now,
                reason=MIGRATED_REASON,
            )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0020_standings_wanted'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='RankingAdmission',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('requested', 'requested'), ('admitted', 'admitted'), ('declined', 'declined'), ('withdrawn', 'withdrawn')], max_length=16, verbose_name='status')),
                ('requested_at', models.DateTimeField(blank=True, null=True, verbose_name='requested')),
                ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided')),
                ('reason', models.TextField(blank=True, verbose_name='reason')),
                ('snapshot', models.JSONField(blank=True, default=list, verbose_name='results when admitted')),
            ],
            options={
                'verbose_name': 'ranking admission',
                'verbose_name_plural': 'ranking admissions',
                'ordering': ['ranking_list', '-requested_at'],
            },
        ),
        migrations.CreateModel(
            name='RankingLogEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('tournament_name', models.CharField(blank=True, max_length=200, verbose_name='tournament')),
                ('kind', models.CharField(choices=[('requested', 'admission requested'), ('withdrawn', 'request withdrawn'), ('admitted', 'admitted'), ('readmitted', 'admitted again with the changed results'), ('declined', 'declined'), ('maintainer_added', 'maintainer appointed'), ('maintainer_removed', 'maintainer removed')], max_length=24, verbose_name='what')),
                ('by_name', models.CharField(blank=True, max_length=150, verbose_name='by')),
                ('at', models.DateTimeField(db_index=True, verbose_name='when')),
                ('reason', models.TextField(blank=True, verbose_name='reason')),
                ('maintainer', models.CharField(blank=True, max_length=150, verbose_name='maintainer')),
            ],
            options={
                'verbose_name': 'ranking list log entry',
                'verbose_name_plural': 'ranking list log',
                'ordering': ['-at', '-pk'],
            },
        ),
        migrations.AddField(
            model_name='rankinglist',
            name='maintainers',
            field=models.ManyToManyField(blank=True, related_name='ranking_lists_maintained', to=settings.AUTH_USER_MODEL, verbose_name='maintainers'),
        ),
        migrations.AddField(
            model_name='rankinglist',
            name='tournament_min_players',
            field=models.PositiveSmallIntegerField(default=8, help_text='A tournament is admitted with at least this many active players.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='players a tournament needs'),
        ),
        migrations.AddField(
            model_name='rankinglist',
            name='tournament_min_rounds',
            field=models.PositiveSmallIntegerField(default=2, help_text='A tournament is admitted with at least this many rounds played (closed).', validators=[django.core.validators.MinValueValidator(1)], verbose_name='rounds a tournament needs'),
        ),
        migrations.AddField(
            model_name='rankinglist',
            name='tournament_tables_of_four_only',
            field=models.BooleanField(default=False, help_text='A tournament with a table of five in any round is not admitted.', verbose_name='tables of four only'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='counts_for_ranking',
            field=models.BooleanField(default=True, help_text='Off: it counts for no ranking list. On: its confirmed rounds count, once it is finished, in each list whose maintainers admit it.', verbose_name='counts for the ranking list'),
        ),
        migrations.AddConstraint(
            model_name='rankinglist',
            constraint=models.CheckConstraint(condition=models.Q(('tournament_min_players__gte', 1), ('tournament_min_rounds__gte', 1)), name='ranking_tournament_criteria_positive'),
        ),
        migrations.AddField(
            model_name='rankingadmission',
            name='decided_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by'),
        ),
        migrations.AddField(
            model_name='rankingadmission',
            name='ranking_list',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='admissions', to='tournaments.rankinglist', verbose_name='ranking list'),
        ),
        migrations.AddField(
            model_name='rankingadmission',
            name='requested_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by'),
        ),
        migrations.AddField(
            model_name='rankingadmission',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ranking_admissions', to='tournaments.tournament', verbose_name='tournament'),
        ),
        migrations.AddField(
            model_name='rankinglogentry',
            name='by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by'),
        ),
        migrations.AddField(
            model_name='rankinglogentry',
            name='ranking_list',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='log', to='tournaments.rankinglist', verbose_name='ranking list'),
        ),
        migrations.AddField(
            model_name='rankinglogentry',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.tournament', verbose_name='tournament'),
        ),
        migrations.AddConstraint(
            model_name='rankingadmission',
            constraint=models.UniqueConstraint(fields=('ranking_list', 'tournament'), name='ranking_admission_once'),
        ),
        migrations.AddConstraint(
            model_name='rankingadmission',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['requested', 'admitted', 'declined', 'withdrawn'])), name='ranking_admission_status_known'),
        ),
        migrations.AddConstraint(
            model_name='rankingadmission',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'declined'), _negated=True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='ranking_admission_declined_has_reason', violation_error_message='Say why the tournament is declined.'),
        ),
        migrations.AddConstraint(
            model_name='rankingadmission',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status__in', ['admitted', 'declined']), _negated=True), ('decided_at__isnull', False), _connector='OR'), name='ranking_admission_decided_has_time'),
        ),
        migrations.AddConstraint(
            model_name='rankingadmission',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'requested'), _negated=True), models.Q(('requested_at__isnull', False), ('decided_at__isnull', True)), _connector='OR'), name='ranking_admission_request_open'),
        ),
        migrations.AddConstraint(
            model_name='rankinglogentry',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['requested', 'withdrawn', 'admitted', 'readmitted', 'declined', 'maintainer_added', 'maintainer_removed'])), name='ranking_log_kind_known'),
        ),
        migrations.AddConstraint(
            model_name='rankinglogentry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'declined'), _negated=True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='ranking_log_declined_has_reason'),
        ),
        migrations.RunPython(admit_what_counted, migrations.RunPython.noop),
    ]
