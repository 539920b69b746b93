"""Registration that cannot be hijacked (issue 44): a registration names a person on record
(``claimed_person``) and is that person's only once confirmed (``claim``); the same person is
told in any spelling at the same address (``person_key``); two registrations may name one DDV
number, only one of them confirmed.

The rows already there: a registration bound to the person of its DDV number under the old
rules stays bound and counts as confirmed, by nobody (``claim_decided_by`` empty), when it was
made; every other one has nothing to confirm. The same person registered twice in spellings the
old rule told apart ("Jurgen MUELLER", "Jürgen Müller") keeps both rows: the later one's key
is made its own, and only new registrations are refused."""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from doko.names import person_key


def _key(first_name: str, last_name: str, email: str) -> str:
    # ``tournaments.models.registration_person_key`` as it was written with this migration.
    typed = f"{person_key(first_name, last_name)}\n{email.strip().casefold()}"
    return hashlib.sha256(typed.encode("utf-8", "surrogatepass")).hexdigest()


def keys_and_claims(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    rows = list(
        Registration.objects.select_related("entry__player").order_by("created_at", "pk")
    )
    taken: set[tuple[int, str]] = set()
    for row in rows:
        key = _key(row.first_name, row.last_name, row.email)
        if row.state != "cancelled":
            if (row.tournament_id, key) in taken:
                key = _key(row.first_name, row.last_name, f"{row.email}\n{row.pk}")
            taken.add((row.tournament_id, key))
        row.person_key = key
        player = row.entry.player if row.entry_id is not None else None
        if row.ddv_number and player is not None and player.ddv_number == row.ddv_number:
            row.claim, row.claimed_person_id = "confirmed", player.pk
            row.claim_decided_at = row.created_at
    Registration.objects.bulk_update(
        rows,
        ["person_key", "claim", "claimed_person", "claim_decided_at"],
        batch_size=500,
    )


def refuse_two_numbers(apps, schema_editor):
    """Back to one registration per DDV number and tournament: refused while two name one,
    rather than cancelling either."""
    Registration = apps.get_model("tournaments", "Registration")
    twice = (
        Registration.objects.exclude(state="cancelled")
        .exclude(ddv_number="")
        .values("tournament__name", "ddv_number")
        .annotate(count=models.Count("pk"))
        .filter(count__gt=1)
        .order_by("tournament__name", "ddv_number")
    )
    if found := [f"{row['tournament__name']} ({row['ddv_number']})" for row in twice]:
        raise RuntimeError(
            "Registrations that name one DDV number twice cannot go back to the rule of one "
            "per number: cancel one of each first: " + ", ".join(found)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0027_role_history"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="registration",
            name="registration_person_once",
        ),
        migrations.RemoveConstraint(
            model_name="registration",
            name="registration_ddv_number_once",
        ),
        migrations.AddField(
            model_name="registration",
            name="claim",
            field=models.CharField(
                choices=[
                    ("none", "nothing to confirm"),
                    ("open", "not confirmed"),
                    ("confirmed", "confirmed"),
                    ("set_aside", "set aside"),
                ],
                default="none",
                max_length=16,
                verbose_name="claim",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="claim_decided_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="claim decided"),
        ),
        migrations.AddField(
            model_name="registration",
            name="claim_decided_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="claim decided by",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="claimed_person",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="claims",
                to="tournaments.player",
                verbose_name="person named",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="person_key",
            field=models.CharField(
                default="", editable=False, max_length=64, verbose_name="person key"
            ),
            preserve_default=False,
        ),
        migrations.RunPython(keys_and_claims, refuse_two_numbers),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                condition=models.Q(("state", "cancelled"), _negated=True),
                fields=("tournament", "person_key"),
                name="registration_person_once",
                violation_error_code="duplicate",
                violation_error_message=(
                    "This player is already registered for this tournament with this e-mail "
                    "address (the name in any spelling)."
                ),
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.CheckConstraint(
                condition=models.Q(("person_key", ""), _negated=True),
                name="registration_person_key_filled",
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.CheckConstraint(
                condition=models.Q(("claim__in", ["none", "open", "confirmed", "set_aside"])),
                name="registration_claim_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("claim__in", ["confirmed", "set_aside"]),
                        ("claim_decided_at__isnull", False),
                    ),
                    models.Q(
                        ("claim__in", ["none", "open"]),
                        ("claim_decided_at__isnull", True),
                        ("claim_decided_by__isnull", True),
                    ),
                    _connector="OR",
                ),
                name="registration_claim_decided",
            ),
        ),
        migrations.AddConstraint(
            model_name="registration",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    ("claim", "confirmed"),
                    models.Q(("state", "cancelled"), _negated=True),
                    models.Q(("ddv_number", ""), _negated=True),
                ),
                fields=("tournament", "ddv_number"),
                name="registration_ddv_number_confirmed_once",
                violation_error_code="unique",
                violation_error_message=(
                    "Another registration with this DDV membership number is confirmed already."
                ),
            ),
        ),
    ]
