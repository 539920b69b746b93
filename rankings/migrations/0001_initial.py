"""The ranking lists move here from the tournaments app, tables and rows untouched: this
migration only tells Django's state that the three models are now ours, on their old tables
(``tournaments 0033`` forgets them there). Their content types move too, so that permissions
given on them and the administration's log stay."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ("rankinglist", "rankingadmission", "rankinglogentry")


def _content_types_to(app_label):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        old = "tournaments" if app_label == "rankings" else "rankings"
        for model in MODELS:
            if not ContentType.objects.filter(app_label=old, model=model).exists():
                continue
            # One made meanwhile under the new label (nothing refers to it yet) gives way.
            ContentType.objects.filter(app_label=app_label, model=model).delete()
            ContentType.objects.filter(app_label=old, model=model).update(app_label=app_label)

    return move


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0033_rankings_moved_out'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RankingList',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, verbose_name='name')),
                        ('slug', models.SlugField(max_length=80, unique=True, verbose_name='short name for links')),
                        ('months', models.PositiveSmallIntegerField(default=24, help_text='The rounds of the tournaments that ended within this many months count.', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(120)], verbose_name='months counted')),
                        ('min_rounds', models.PositiveSmallIntegerField(default=36, help_text='Players are ranked once they have played this many rounds.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='rounds needed')),
                        ('is_public', models.BooleanField(default=True, verbose_name='public')),
                        ('tournament_min_players', models.PositiveSmallIntegerField(default=8, help_text='A tournament is admitted with at least this many active players.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='players a tournament needs')),
                        ('tournament_min_rounds', models.PositiveSmallIntegerField(default=2, help_text='A tournament is admitted with at least this many rounds played (closed).', validators=[django.core.validators.MinValueValidator(1)], verbose_name='rounds a tournament needs')),
                        ('tournament_tables_of_four_only', models.BooleanField(default=False, help_text='A tournament with a table of five in any round is not admitted.', verbose_name='tables of four only')),
                        ('tournament_official_only', models.BooleanField(default=False, help_text='Only a tournament marked official, played by the TSR (TSR 8.1.1), is admitted.', verbose_name='official tournaments only')),
                        ('version', models.PositiveIntegerField(default=0, verbose_name='version')),
                        ('built_at', models.DateTimeField(blank=True, null=True, verbose_name='built')),
                        ('built_for', models.DateField(blank=True, null=True, verbose_name='as of')),
                        ('data', models.JSONField(blank=True, default=list, verbose_name='ranking')),
                        ('maintainers', models.ManyToManyField(blank=True, related_name='ranking_lists_maintained', to=settings.AUTH_USER_MODEL, verbose_name='maintainers')),
                    ],
                    options={
                        'verbose_name': 'ranking list',
                        'verbose_name_plural': 'ranking lists',
                        'db_table': 'tournaments_rankinglist',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='RankingAdmission',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('requested', 'requested'), ('admitted', 'admitted'), ('declined', 'declined'), ('withdrawn', 'withdrawn')], max_length=16, verbose_name='status')),
                        ('requested_at', models.DateTimeField(blank=True, null=True, verbose_name='requested')),
                        ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided')),
                        ('reason', models.TextField(blank=True, verbose_name='reason')),
                        ('snapshot', models.JSONField(blank=True, default=list, verbose_name='results when admitted')),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by')),
                        ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='requested by')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ranking_admissions', to='tournaments.tournament', verbose_name='tournament')),
                        ('ranking_list', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='admissions', to='rankings.rankinglist', verbose_name='ranking list')),
                    ],
                    options={
                        'verbose_name': 'ranking admission',
                        'verbose_name_plural': 'ranking admissions',
                        'db_table': 'tournaments_rankingadmission',
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
                        ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                        ('ranking_list', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='log', to='rankings.rankinglist', verbose_name='ranking list')),
                        ('tournament', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'ranking list log entry',
                        'verbose_name_plural': 'ranking list log',
                        'db_table': 'tournaments_rankinglogentry',
                        'ordering': ['-at', '-pk'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='rankinglist',
                    constraint=models.CheckConstraint(condition=models.Q(('months__gte', 1), ('months__lte', 120)), name='ranking_months_1_to_120'),
                ),
                migrations.AddConstraint(
                    model_name='rankinglist',
                    constraint=models.CheckConstraint(condition=models.Q(('min_rounds__gte', 1)), name='ranking_min_rounds'),
                ),
                migrations.AddConstraint(
                    model_name='rankinglist',
                    constraint=models.CheckConstraint(condition=models.Q(('tournament_min_players__gte', 1), ('tournament_min_rounds__gte', 1)), name='ranking_tournament_criteria_positive'),
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
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_to("rankings"), _content_types_to("tournaments")),
    ]
