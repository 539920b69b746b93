from django.core.management.base import BaseCommand

from tournaments import ranked, services
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Rewrite every seat's result from the scoresheets and the adjudication, rebuild the "
        "standings and then the ranking lists: after restoring a backup, or to check that the "
        "stored standings are what the sheets say."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="only these tournaments (default: all)")
        parser.add_argument(
            "--missing",
            action="store_true",
            help="only tournaments whose standings were never built (after an upgrade)",
        )

    def handle(self, *args, slugs: list[str], missing: bool, **options):
        tournaments = Tournament.objects.order_by("pk")
        if slugs:
            tournaments = tournaments.filter(slug__in=slugs)
        if missing:
            tournaments = tournaments.filter(standings_version=0)
        for tournament in tournaments:
            results = services.results_refresh_all(tournament=tournament)
            snapshot = services.standings_rebuild(tournament_id=tournament.pk)
            if snapshot is None:  # deleted since it was listed: on to the next
                self.stdout.write(f"{tournament.slug}: deleted meanwhile")
                continue
            self.stdout.write(
                f"{tournament.slug}: {results} results, standings version {snapshot.version}"
            )
        # What the apps above rebuild from the finished tournaments (the ranking lists).
        for line in ranked.rebuild():
            self.stdout.write(line)
