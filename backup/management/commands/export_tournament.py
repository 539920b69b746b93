"""Write one tournament as a JSON backup (see ``backup/format.py``)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from backup.documents import document_export, document_write
from backup.selectors import tournament_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write one tournament (players, entries, rounds, seating, scoresheets with their history "
        "and the photos or scans of the signed sheets, adjudication) as a JSON document, to "
        "restore it elsewhere with import_tournament."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")
        parser.add_argument(
            "--without-scans",
            action="store_true",
            help="leave out the photos and scans of the signed sheets (they make the file large)",
        )

    def handle(self, *args, slug: str, output: str | None, without_scans: bool, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(_("No tournament has the short name “%(slug)s”.") % {"slug": slug})
        data = document_export(
            lambda: tournament_export(tournament=tournament, scans=not without_scans)
        )
        if document_write(data, output=output, stdout=self.stdout):
            self.stdout.write(
                _("Tournament “%(slug)s” written to %(file)s.") % {"slug": slug, "file": output}
            )
