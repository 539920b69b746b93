import time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from demo.services import demo_build
from tournaments.models import Seat, Tournament


class Command(BaseCommand):
    help = (
        "Build three demo tournaments (a finished one of 32 players, a championship of 148 in "
        "round 4 of 8, and a club tournament taking registrations online), a league of 8 teams "
        "and a team championship, each match day a tournament, and an organiser login."
    )

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=2026, help="same seed, same tournaments")
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="do nothing, instead of failing, when the database already holds a tournament",
        )
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000/", help="the site's address, to print"
        )

    def handle(self, *args, seed: int, if_empty: bool, url: str, **options):
        if Tournament.objects.exists():
            if if_empty:
                self.stdout.write("The database already holds tournaments; no demo loaded.")
                return
            raise CommandError(
                "The database already holds tournaments; the demo needs an empty one. "
                "`make demo` starts over with a fresh SQLite database; "
                "`python manage.py changepassword organiser` sets a new organiser password."
            )
        began = time.monotonic()
        result = demo_build(seed=seed, now=timezone.now())
        seconds = time.monotonic() - began
        self.stdout.write(self.style.SUCCESS(f"Demo built in {seconds:.1f} s (seed {seed})."))
        for tournament in result.tournaments:
            self.stdout.write(f"  {tournament.name}: {url}tournaments/{tournament.slug}/")
        for competition in result.competitions:
            for match_day in competition.match_days.select_related("tournament").order_by("number"):
                tournament = match_day.tournament
                self.stdout.write(f"  {tournament.name}: {url}tournaments/{tournament.slug}/")
        self.stdout.write(
            f"\nSite:   {url}\n"
            f"Login:  {url}accounts/login/  (administration: {url}admin/)\n"
            f"        user {result.username}, password {result.password}\n"
            f"        ranking lists' maintainer: user {result.maintainer}, "
            f"password {result.maintainer_password}\n"
            f"API:    {url}api/docs/\n"
        )
        keeper = (
            Seat.objects.filter(
                round__status="running", position=4, table__scoresheet__status="draft"
            )
            .select_related("table__round")
            .order_by("table__number")
            .first()
        )
        if keeper is not None:
            other = keeper.table.seats.get(position=1)
            self.stdout.write(
                f"Scoresheet of table {keeper.table.number}, round {keeper.round.number}, "
                "through the players' own links (no login):\n"
                f"        scorekeeper (seat 4): {url}s/{keeper.token}/\n"
                f"        seat 1, to confirm:   {url}s/{other.token}/\n"
            )
