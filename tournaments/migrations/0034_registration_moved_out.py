"""The online registration (OnlineRegistration, Registration) moves to the registration app,
tables and rows untouched: this migration only tells Django's state that they are no longer
ours; ``registration 0001`` takes them over on the same tables (``db_table``)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0033_rankings_moved_out'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='registration',
                    name='claim_decided_by',
                ),
                migrations.RemoveField(
                    model_name='registration',
                    name='claimed_person',
                ),
                migrations.RemoveField(
                    model_name='registration',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='registration',
                    name='tournament',
                ),
                migrations.DeleteModel(
                    name='OnlineRegistration',
                ),
                migrations.DeleteModel(
                    name='Registration',
                ),
            ],
            database_operations=[],
        ),
    ]
