"""Each entry keeps the name and club its tournament registered the player under, filled from the
player for the entries there are; and a log of the changes to persons."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_entry_names(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    player = Player._base_manager.filter(pk=OuterRef("player_id"))
    # The player's key is the key of the same names: copied, not made again.
    Entry._base_manager.update(
        **{
            field: Subquery(player.values(field)[:1])
            for field in ("first_name", "last_name", "club", "search_key")
        }
    )


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0021_ranking_governance"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="first_name",
            field=models.CharField(default="", max_length=100, verbose_name="first name"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="entry",
            name="last_name",
            field=models.CharField(default="", max_length=100, verbose_name="last name"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="entry",
            name="search_key",
            field=models.CharField(
                blank=True, editable=False, max_length=500, verbose_name="search key"
            ),
        ),
        migrations.AddField(
            model_name="entry",
            name="club",
            field=models.CharField(blank=True, max_length=200, verbose_name="club"),
        ),
        migrations.RunPython(fill_entry_names, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("first_name", ""), _negated=True),
                    models.Q(("last_name", ""), _negated=True),
                ),
                name="entry_name_not_empty",
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(("search_key", ""), _negated=True),
                name="entry_search_key_filled",
            ),
        ),
        migrations.CreateModel(
            name="PersonChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("corrected", "corrected"),
                            ("merged", "another record merged in"),
                            ("followed", "corrected with the registration"),
                            ("deleted", "deleted, no longer registered anywhere"),
                        ],
                        max_length=16,
                        verbose_name="change",
                    ),
                ),
                ("at", models.DateTimeField(auto_now_add=True, verbose_name="at")),
                ("before", models.JSONField(blank=True, default=dict, verbose_name="before")),
                ("after", models.JSONField(blank=True, default=dict, verbose_name="after")),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="by",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="changes",
                        to="tournaments.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "change to a person",
                "verbose_name_plural": "changes to persons",
                "ordering": ["-at", "-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ["corrected", "merged", "followed", "deleted"])
                        ),
                        name="person_change_kind_known",
                    )
                ],
            },
        ),
    ]
