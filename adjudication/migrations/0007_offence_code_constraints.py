"""The constraints that go with the offences' codes: one offence per code in a catalogue, and a
complaint says what happened in words or by its offence. Apart from the data migration before
it, because PostgreSQL builds no index in a transaction that has just changed the table's rows.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('adjudication', '0006_offences_stored_by_code'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='decision',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('description', ''), _negated=True), ('offence__isnull', False), _connector='OR'), name='decision_says_what_happened'),
        ),
        migrations.AddConstraint(
            model_name='offence',
            constraint=models.UniqueConstraint(condition=models.Q(('code', ''), _negated=True), fields=('tournament', 'code'), name='offence_code_unique'),
        ),
    ]
