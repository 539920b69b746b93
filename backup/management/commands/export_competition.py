"""Write one team competition with its match days' tournaments as a JSON backup (see
``backup/format.py``)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from backup.documents import document_export, document_write
from backup.selectors import competition_export
from teams.models import Competition


class Command(BaseCommand):
    help = (
        "Write one team competition (its settings, organisers, teams and their players, and "
        "each match day with its groups, line-ups and whole tournament) as a JSON document, "
        "to restore it elsewhere with import_competition."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the competition's short name")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")
        parser.add_argument(
            "--without-scans",
            action="store_true",
            help="leave out the photos and scans of the signed sheets (they make the file large)",
        )

    def handle(self, *args, slug: str, output: str | None, without_scans: bool, **options):
        competition = Competition.objects.filter(slug=slug).first()
        if competition is None:
            raise CommandError(
                _("No team competition has the short name “%(slug)s”.") % {"slug": slug}
            )
        data = document_export(
            lambda: competition_export(competition=competition, scans=not without_scans)
        )
        if document_write(data, output=output, stdout=self.stdout):
            self.stdout.write(
                _("Team competition “%(slug)s” written to %(file)s.")
                % {"slug": slug, "file": output}
            )
