"""Every seat gets the key of its private scoresheet link; seats already drawn get one each."""

from django.db import migrations, models

import tournaments.models


def give_tokens(apps, schema_editor):
    Seat = apps.get_model("tournaments", "Seat")
    seats = list(Seat.objects.only("pk"))
    for seat in seats:
        seat.token = tournaments.models.new_seat_token()
    Seat.objects.bulk_update(seats, ["token"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_seating_publishing_extra_time"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="token",
            field=models.CharField(editable=False, max_length=32, null=True, verbose_name="link key"),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seat",
            name="token",
            field=models.CharField(
                default=tournaments.models.new_seat_token,
                editable=False,
                max_length=32,
                unique=True,
                verbose_name="link key",
            ),
        ),
    ]
