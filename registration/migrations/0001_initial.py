"""The online registration (OnlineRegistration) and what players sent through it
(Registration) move here from the tournaments app, tables and rows untouched: this migration
only tells Django's state that the two models are now ours, on their old tables
(``tournaments 0034`` forgets them there). Their content types move too, so that permissions
given on them and the administration's log stay."""

import django.db.models.deletion
import tournaments.models
from django.conf import settings
from django.db import migrations, models


MODELS = ("onlineregistration", "registration")


def _content_types_to(app_label):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        old = "tournaments" if app_label == "registration" else "registration"
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
        ('tournaments', '0034_registration_moved_out'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='OnlineRegistration',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('opens_at', models.DateTimeField(verbose_name='opens')),
                        ('closes_at', models.DateTimeField(verbose_name='closes')),
                        ('capacity', models.PositiveIntegerField(blank=True, help_text='How many players can take part; empty: no limit.', null=True, verbose_name='places')),
                        ('waiting_list', models.BooleanField(default=True, help_text='When every place is taken, further players join a waiting list and move up by themselves, in order, when someone withdraws before the first draw.', verbose_name='waiting list')),
                        ('note', models.TextField(blank=True, help_text='Shown on the registration page, for example the entry fee.', max_length=2000, verbose_name='note for players')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed by the organiser')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='online_registration', to='tournaments.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'online registration',
                        'verbose_name_plural': 'online registrations',
                        'db_table': 'tournaments_onlineregistration',
                        'constraints': [models.CheckConstraint(condition=models.Q(('closes_at__gt', models.F('opens_at'))), name='online_registration_closes_after_opening', violation_error_message='Registration must close after it opens.'), models.CheckConstraint(condition=models.Q(('capacity__isnull', True), ('capacity__gte', 1), _connector='OR'), name='online_registration_capacity_positive', violation_error_message='A tournament needs at least one place.')],
                    },
                ),
                migrations.CreateModel(
                    name='Registration',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('first_name', models.CharField(max_length=100, verbose_name='first name')),
                        ('last_name', models.CharField(max_length=100, verbose_name='last name')),
                        ('search_key', models.CharField(blank=True, editable=False, max_length=500, verbose_name='search key')),
                        ('club', models.CharField(blank=True, max_length=200, verbose_name='club')),
                        ('email', models.EmailField(max_length=254, verbose_name='e-mail address')),
                        ('ddv_number', models.CharField(blank=True, max_length=20, verbose_name='DDV membership number')),
                        ('state', models.CharField(choices=[('admitted', 'registered'), ('waiting', 'on the waiting list'), ('cancelled', 'cancelled')], max_length=16, verbose_name='state')),
                        ('waiting_position', models.PositiveIntegerField(blank=True, null=True, verbose_name='place on the waiting list')),
                        ('key', models.CharField(default=tournaments.models.new_link_key, editable=False, max_length=32, unique=True, verbose_name='personal link key')),
                        ('language', models.CharField(blank=True, max_length=16, verbose_name='language')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='registered')),
                        ('person_key', models.CharField(editable=False, max_length=64, verbose_name='person key')),
                        ('claim', models.CharField(choices=[('none', 'nothing to confirm'), ('open', 'not confirmed'), ('confirmed', 'confirmed'), ('set_aside', 'set aside')], default='none', max_length=16, verbose_name='claim')),
                        ('claim_decided_at', models.DateTimeField(blank=True, null=True, verbose_name='claim decided')),
                        ('claim_decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='claim decided by')),
                        ('claimed_person', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='claims', to='tournaments.player', verbose_name='person named')),
                        ('entry', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='registration', to='tournaments.entry', verbose_name='entry')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'registration',
                        'verbose_name_plural': 'registrations',
                        'db_table': 'tournaments_registration',
                        'ordering': ['tournament', 'waiting_position', 'created_at', 'id'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('state__in', ['admitted', 'waiting', 'cancelled'])), name='registration_state_known'), models.CheckConstraint(condition=models.Q(models.Q(('state', 'waiting'), ('waiting_position__isnull', False)), models.Q(models.Q(('state', 'waiting'), _negated=True), ('waiting_position__isnull', True)), _connector='OR'), name='registration_waiting_has_position'), models.CheckConstraint(condition=models.Q(models.Q(('state', 'admitted'), _negated=True), ('entry__isnull', False), _connector='OR'), name='registration_admitted_has_entry'), models.CheckConstraint(condition=models.Q(models.Q(('first_name', ''), _negated=True), models.Q(('last_name', ''), _negated=True)), name='registration_name_not_empty'), models.CheckConstraint(condition=models.Q(('search_key', ''), _negated=True), name='registration_search_key_filled'), models.UniqueConstraint(condition=models.Q(('state', 'cancelled'), _negated=True), fields=('tournament', 'person_key'), name='registration_person_once', violation_error_code='duplicate', violation_error_message='This player is already registered for this tournament with this e-mail address (the name in any spelling).'), models.CheckConstraint(condition=models.Q(('person_key', ''), _negated=True), name='registration_person_key_filled'), models.CheckConstraint(condition=models.Q(('claim__in', ['none', 'open', 'confirmed', 'set_aside'])), name='registration_claim_known'), models.CheckConstraint(condition=models.Q(models.Q(('claim__in', ['confirmed', 'set_aside']), ('claim_decided_at__isnull', False)), models.Q(('claim__in', ['none', 'open']), ('claim_decided_at__isnull', True), ('claim_decided_by__isnull', True)), _connector='OR'), name='registration_claim_decided'), models.UniqueConstraint(condition=models.Q(('claim', 'confirmed'), models.Q(('state', 'cancelled'), _negated=True), models.Q(('ddv_number', ''), _negated=True)), fields=('tournament', 'ddv_number'), name='registration_ddv_number_confirmed_once', violation_error_code='unique', violation_error_message='Another registration with this DDV membership number is confirmed already.')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_content_types_to("registration"), _content_types_to("tournaments")),
    ]
