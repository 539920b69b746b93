"""A tournament can be archived by its organiser: off the home page, still at its address."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0022_entry_names_person_changes"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="archived_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="archived"),
        ),
    ]
