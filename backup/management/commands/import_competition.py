"""Restore one team competition from a JSON backup of export_competition (see
``backup/format.py``)."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backup.documents import document_read
from backup.imports import import_arguments, import_notes, import_refusal
from backup.services import competition_import


class Command(BaseCommand):
    help = (
        "Restore a team competition written by export_competition, with its match days' "
        "tournaments, all of it or nothing; refused if a competition or tournament with the "
        "same short name exists. Users, players, scans and roles as import_tournament restores "
        "them; the competition's organisers are roles too."
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
            result = competition_import(
                data=data,
                attach_roles_to_existing_accounts=attach_roles_to_existing_accounts,
                scans=not without_scans,
            )
        except ValidationError as error:
            raise import_refusal(error) from error
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
        import_notes(
            self.stdout,
            users_created=result.users_created,
            numbers_cleared=result.numbers_cleared,
            roles_not_given=result.roles_not_given,
        )
