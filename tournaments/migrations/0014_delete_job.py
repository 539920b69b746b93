"""The Job model moved to the printing app (``printing 0001``): forgotten here in Django's
state only, its table stays (and is renamed by ``printing 0002``)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0013_tournamentrole_deputy'),
        ('printing', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Job')],
            database_operations=[],
        ),
    ]
