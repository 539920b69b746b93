"""The printouts' Job moves here from the tournaments app, table and rows untouched: this
migration only tells Django's state that the model is now ours, on its old table
(``tournaments 0014`` forgets it there); ``0002`` then renames the table. The content type
moves too, so that permissions given on jobs stay."""

import django.db.models.deletion
import printing.models
import uuid
from django.conf import settings
from django.db import migrations, models


def _content_type_to(app_label):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        old = "tournaments" if app_label == "printing" else "printing"
        ContentType.objects.filter(app_label=old, model="job").update(app_label=app_label)

    return move


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0013_tournamentrole_deputy'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Job',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('kind', models.CharField(choices=[('entry_list_pdf', 'list of players (PDF)'), ('seating_by_table_pdf', 'seating by table (PDF)'), ('seating_alphabetical_pdf', 'seating by name (PDF)'), ('table_cards_pdf', 'table cards (PDF)'), ('scoresheets_pdf', 'blank scoresheets (PDF)'), ('scoresheet_pdf', 'completed scoresheet (PDF)'), ('standings_pdf', 'standings (PDF)'), ('round_results_pdf', 'results of the round (PDF)')], max_length=32, verbose_name='kind')),
                        ('language', models.CharField(choices=[('de', 'German'), ('en', 'English')], max_length=8, verbose_name='language')),
                        ('site_url', models.CharField(blank=True, max_length=200, verbose_name='site address')),
                        ('status', models.CharField(choices=[('queued', 'queued'), ('running', 'running'), ('done', 'done'), ('failed', 'failed')], default='queued', max_length=16, verbose_name='status')),
                        ('progress', models.PositiveSmallIntegerField(default=0, verbose_name='progress (%)')),
                        ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                        ('error', models.TextField(blank=True, verbose_name='error')),
                        ('file', models.FileField(blank=True, upload_to=printing.models.job_upload_to, verbose_name='file')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                        ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='started by')),
                        ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to='tournaments.round', verbose_name='round')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to='tournaments.table', verbose_name='table')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to='tournaments.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'job',
                        'verbose_name_plural': 'jobs',
                        'ordering': ['-created_at'],
                        'db_table': 'tournaments_job',
                        'constraints': [models.CheckConstraint(condition=models.Q(('progress__lte', 100)), name='job_progress_percent'), models.CheckConstraint(condition=models.Q(models.Q(('status', 'done'), _negated=True), models.Q(('file', ''), _negated=True), _connector='OR'), name='job_done_has_file'), models.CheckConstraint(condition=models.Q(('kind__in', ['entry_list_pdf', 'standings_pdf']), ('round__isnull', False), _connector='OR'), name='job_round_printout_has_round'), models.CheckConstraint(condition=models.Q(models.Q(('kind', 'scoresheet_pdf'), ('table__isnull', False)), models.Q(models.Q(('kind', 'scoresheet_pdf'), _negated=True), ('table__isnull', True)), _connector='OR'), name='job_table_only_for_a_scoresheet')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_type_to("printing"), _content_type_to("tournaments")),
    ]
