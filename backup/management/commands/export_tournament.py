"""Write one tournament as a JSON backup (see ``backup/format.py``)."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from backup.selectors import tournament_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write one tournament (players, entries, rounds, seating, scoresheets with their history, "
        "adjudication) as a JSON document, to restore it elsewhere with import_tournament."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, slug: str, output: str | None, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(_("No tournament has the short name “%(slug)s”.") % {"slug": slug})
        text = json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
        if output is None:
            self.stdout.write(text)
            return
        with open(output, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        self.stdout.write(
            _("Tournament “%(slug)s” written to %(file)s.") % {"slug": slug, "file": output}
        )
