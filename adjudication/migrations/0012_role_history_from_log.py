from django.db import migrations


def roles_from_the_log(apps, schema_editor):
    """The roles the adjudication log says were held before the role history began: each
    appointment, acceptance and removal it names (``Event.Action.ROLE`` with the account's user
    name in its details) as granted, a removal also as taken away, so that a role taken away
    before the history still counts for the four-eyes rules (``doko.four_eyes``)."""
    Event = apps.get_model("adjudication", "Event")
    RoleRecord = apps.get_model("tournaments", "RoleRecord")
    User = apps.get_model("auth", "User")
    users = dict(User.objects.values_list("username", "pk"))
    known = {"organiser", "adjudicator", "deputy", "panel", "scorekeeper"}
    records = []
    for event in Event.objects.filter(action="role").order_by("pk").iterator():
        details = event.details if isinstance(event.details, dict) else {}
        user_id = users.get(details.get("user"))
        role = details.get("role")
        if user_id is None or role not in known:
            continue  # an invitation (an address, no account), or an account since deleted
        fields = {"tournament_id": event.tournament_id, "user_id": user_id, "role": role}
        records.append(RoleRecord(**fields, change="granted", at=event.at))
        message = event.message if isinstance(event.message, dict) else {}
        if str(message.get("text", "")).startswith("No longer"):
            records.append(RoleRecord(**fields, change="removed", at=event.at))
    RoleRecord.objects.bulk_create(records)


class Migration(migrations.Migration):
    dependencies = [
        ("adjudication", "0011_staff_invitation_key_seed"),
        ("tournaments", "0027_role_history"),
    ]

    operations = [migrations.RunPython(roles_from_the_log, migrations.RunPython.noop)]
