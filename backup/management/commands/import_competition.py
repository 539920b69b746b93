"""Restore one team competition from a JSON backup of export_competition (see
``backup/format.py``)."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backup.documents import document_read
from backup.services import competition_import


class Command(BaseCommand):
    help = (
        "Restore a team competition written by export_competition, with its match days' "
        "tournaments, all of it or nothing; refused if a competition or tournament with the "
        "same short name exists. Unknown users are created inactive, without a password; "
        "players are found again by their DDV number."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON backup, or - for stdin")

    def handle(self, *args, file: str, **options):
        data = document_read(file)
        try:
            result = competition_import(data=data)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        competition = result.competition
        teams, match_days = competition.teams.count(), len(result.tournaments)
        self.stdout.write(
            _("Imported “%(name)s” (%(slug)s): %(teams)s, %(match_days)s.")
            % {
                "name": str(competition),
                "slug": competition.slug,
                "teams": ngettext("%(count)d team", "%(count)d teams", teams) % {"count": teams},
                "match_days": ngettext("%(count)d match day", "%(count)d match days", match_days)
                % {"count": match_days},
            }
        )
        if result.users_created:
            self.stdout.write(
                _(
                    "Created inactive user accounts without a password (set one and activate "
                    "them to let them log in): %(users)s"
                )
                % {"users": ", ".join(result.users_created)}
            )
