"""Restore one tournament from a JSON backup of export_tournament (see ``backup/format.py``)."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backup.documents import document_read
from backup.imports import import_arguments, import_notes, import_refusal
from backup.services import tournament_import_report


class Command(BaseCommand):
    help = (
        "Restore a tournament written by export_tournament, all of it or nothing; refused if a "
        "tournament with the same short name exists. Unknown users are created inactive, "
        "without a password; players are found again by their DDV number and names (a number "
        "another person holds here is left off, and said); the photos and scans of the sheets "
        "are cleaned as an upload is. Roles go to existing accounts of their user names only "
        "with --attach-roles-to-existing-accounts."
    )

    def add_arguments(self, parser):
        import_arguments(parser)

    def handle(
        self,
        *args,
        file: str,
        attach_roles_to_existing_accounts: bool,
        without_scans: bool,
        **options,
    ):
        data = document_read(file)
        try:
            result = tournament_import_report(
                data=data,
                attach_roles_to_existing_accounts=attach_roles_to_existing_accounts,
                scans=not without_scans,
            )
        except ValidationError as error:
            raise import_refusal(error) from error
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
                    "%(count)d player was known already by their DDV number and name and is "
                    "reused.",
                    "%(count)d players were known already by their DDV numbers and names and "
                    "are reused.",
                    result.players_reused,
                )
                % {"count": result.players_reused}
            )
        import_notes(
            self.stdout,
            users_created=result.users_created,
            numbers_cleared=result.numbers_cleared,
            roles_not_given=result.roles_not_given,
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
