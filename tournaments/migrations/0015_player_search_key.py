"""Every player gets the key that name searches look in (``doko.names``): players already known
get theirs from their names, in batches, before the database insists on one."""

from django.db import migrations, models

import tournaments.models

BATCH = 500


def fill_search_keys(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    players = Player._base_manager.only("pk", "first_name", "last_name").order_by("pk")
    last_pk = 0
    while batch := list(players.filter(pk__gt=last_pk)[:BATCH]):
        for player in batch:
            player.search_key = tournaments.models.player_search_key(
                player.first_name, player.last_name
            )
        Player._base_manager.bulk_update(batch, ["search_key"])
        last_pk = batch[-1].pk


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0014_delete_job'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='search_key',
            field=models.CharField(blank=True, editable=False, max_length=500, verbose_name='search key'),
        ),
        migrations.RunPython(fill_search_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['search_key'], name='player_search_key'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('search_key', ''), _negated=True), name='player_search_key_filled'),
        ),
    ]
