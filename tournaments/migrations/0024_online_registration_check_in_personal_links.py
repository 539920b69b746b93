"""Online registration with a waiting list, check-in at the door, and one personal link per
player for the whole tournament: entries already made get a key each."""

import django.db.models.deletion
import tournaments.models
from django.db import migrations, models


def give_keys(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    entries = list(Entry.objects.only("pk"))
    for entry in entries:
        entry.link_key = tournaments.models.new_link_key()
    Entry.objects.bulk_update(entries, ["link_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0023_archived_and_former_slugs'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='arrived_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='arrived'),
        ),
        migrations.AddField(
            model_name='entry',
            name='email',
            field=models.EmailField(blank=True, max_length=254, verbose_name='e-mail address'),
        ),
        migrations.AddField(
            model_name='entry',
            name='link_key',
            field=models.CharField(editable=False, max_length=32, null=True, verbose_name='personal link key'),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry",
            name="link_key",
            field=models.CharField(
                default=tournaments.models.new_link_key,
                editable=False,
                max_length=32,
                unique=True,
                verbose_name="personal link key",
            ),
        ),
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
                ('entry', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='registration', to='tournaments.entry', verbose_name='entry')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'registration',
                'verbose_name_plural': 'registrations',
                'ordering': ['tournament', 'waiting_position', 'created_at', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('state__in', ['admitted', 'waiting', 'cancelled'])), name='registration_state_known'), models.CheckConstraint(condition=models.Q(models.Q(('state', 'waiting'), ('waiting_position__isnull', False)), models.Q(models.Q(('state', 'waiting'), _negated=True), ('waiting_position__isnull', True)), _connector='OR'), name='registration_waiting_has_position'), models.CheckConstraint(condition=models.Q(models.Q(('state', 'admitted'), _negated=True), ('entry__isnull', False), _connector='OR'), name='registration_admitted_has_entry'), models.CheckConstraint(condition=models.Q(models.Q(('first_name', ''), _negated=True), models.Q(('last_name', ''), _negated=True)), name='registration_name_not_empty'), models.CheckConstraint(condition=models.Q(('search_key', ''), _negated=True), name='registration_search_key_filled'), models.UniqueConstraint(condition=models.Q(('state', 'cancelled'), _negated=True), fields=('tournament', 'search_key', 'email'), name='registration_person_once', violation_error_message='This player is already registered for this tournament with this e-mail address.'), models.UniqueConstraint(condition=models.Q(models.Q(('state', 'cancelled'), _negated=True), models.Q(('ddv_number', ''), _negated=True)), fields=('tournament', 'ddv_number'), name='registration_ddv_number_once', violation_error_code='unique', violation_error_message='A player with this DDV membership number is already registered.')],
            },
        ),
    ]
