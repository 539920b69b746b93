"""Restore one tournament from a JSON backup of export_tournament (see ``backup/format.py``)."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backup.documents import document_read
from backup.services import tournament_import_report


class Command(BaseCommand):
    help = (
        "Restore a tournament written by export_tournament, all of it or nothing; refused if a "
        "tournament with the same short name exists. Unknown users are created inactive, "
        "without a password; players are found again by their DDV number."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON backup, or - for stdin")

    def handle(self, *args, file: str, **options):
        data = document_read(file)
        try:
            result = tournament_import_report(data=data)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        tournament = result.tournament
        entries, rounds = tournament.entries.count(), tournament.rounds.count()
        self.stdout.write(
            _("Imported “%(name)s” (%(slug)s): %(entries)s, %(rounds)s.")
            % {
                "name": tournament.name,
                "slug": tournament.slug,
                "entries": ngettext("%(count)d player", "%(count)d players", entries)
                % {"count": entries},
                "rounds": ngettext("%(count)d round", "%(count)d rounds", rounds)
                % {"count": rounds},
            }
        )
        if result.players_reused:
            self.stdout.write(
                ngettext(
                    "%(count)d player was known already by their DDV number and is reused.",
                    "%(count)d players were known already by their DDV number and are reused.",
                    result.players_reused,
                )
                % {"count": result.players_reused}
            )
        if result.users_created:
            self.stdout.write(
                _(
                    "Created inactive user accounts without a password (set one and activate "
                    "them to let them log in): %(users)s"
                )
                % {"users": ", ".join(result.users_created)}
            )
        if result.tokens_renewed:
            self.stdout.write(
                ngettext(
                    "%(count)d seat got a new private link: its key is in use here already.",
                    "%(count)d seats got new private links: their keys are in use here already.",
                    result.tokens_renewed,
                )
                % {"count": result.tokens_renewed}
            )
