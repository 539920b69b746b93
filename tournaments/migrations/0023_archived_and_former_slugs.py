"""A tournament can be archived by its organiser: off the home page, still at its address; and
the short names for links it had before its organiser changed it lead to it."""

import django.db.models.deletion
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
        migrations.CreateModel(
            name="FormerSlug",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "slug",
                    models.SlugField(
                        max_length=80, unique=True, verbose_name="short name for links"
                    ),
                ),
                ("changed_at", models.DateTimeField(auto_now=True, verbose_name="changed")),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="former_slugs",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "former short name",
                "verbose_name_plural": "former short names",
            },
        ),
    ]
