"""The jobs' table takes the printing app's name: tournaments_job becomes printing_job."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('printing', '0001_initial'),
        ('tournaments', '0014_delete_job'),
    ]

    operations = [
        migrations.AlterModelTable(name='job', table=None),
    ]
