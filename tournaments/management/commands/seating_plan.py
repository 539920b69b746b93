"""Print a seating plan for players numbered 1..N, to check the draw from outside."""

import json
import random

from django.core.management.base import BaseCommand, CommandError

from doko.seating import Method, SeatingError, SeatingPlan, draw, quality


class Command(BaseCommand):
    help = (
        "Draw a seating plan for players 1..N over R rounds and print it with its quality "
        'report. JSON: {"rounds": [{"tables": [[p, p, p, p], ...]}, ...], "quality": {...}}; '
        "each table lists its players in seat order (seat 1 deals first)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="players 1..N")
        parser.add_argument("--rounds", type=int, default=1)
        parser.add_argument("--method", choices=[method.value for method in Method], default="ddv")
        parser.add_argument("--seed", type=int, default=1, help="same seed, same plan")
        parser.add_argument(
            "--five-tables",
            action="store_true",
            help="allow tables of five when N is not divisible by four (TSR 10.1)",
        )
        parser.add_argument("--format", choices=["json", "text"], default="text")

    def handle(self, *args, players, rounds, method, seed, five_tables, format, **options):
        if players < 4 or rounds < 1:
            raise CommandError("--players must be at least 4 and --rounds at least 1")
        everyone = list(range(1, players + 1))
        method = Method(method)
        try:
            plans = self._draw(everyone, rounds, method, seed, five_tables)
        except SeatingError as error:
            raise CommandError(str(error)) from error
        report = quality(plans)
        if format == "json":
            self.stdout.write(
                json.dumps(
                    {
                        "rounds": [{"tables": [list(t) for t in plan.tables]} for plan in plans],
                        "quality": report.as_dict(),
                    }
                )
            )
            return
        for number, plan in enumerate(plans, start=1):
            self.stdout.write(f"Round {number}")
            for table_number, table in enumerate(plan.tables, start=1):
                self.stdout.write(
                    f"  table {table_number:>3}: " + " ".join(f"{p:>4}" for p in table)
                )
        self.stdout.write("Quality: " + ", ".join(f"{k} {v}" for k, v in report.as_dict().items()))

    @staticmethod
    def _draw(everyone, rounds, method, seed, five_tables) -> list[SeatingPlan]:
        if method is Method.DDV:
            return list(
                draw(
                    everyone, method=method, seed=seed, tables_of_five=five_tables, rounds=rounds
                ).rounds
            )
        # One round at a time. For standings, results are made up (seeded) to rank the players
        # between rounds, as a tournament's scoresheets would.
        results = random.Random(seed)
        points = dict.fromkeys(everyone, 0)
        plans: list[SeatingPlan] = []
        for number in range(rounds):
            ranking = sorted(everyone, key=lambda p: (-points[p], p))
            plan = draw(
                everyone,
                method=method,
                seed=seed + number,
                tables_of_five=five_tables,
                history=plans,
                ranking=ranking,
            ).rounds[0]
            plans.append(plan)
            for p in everyone:
                points[p] += results.randint(-30, 30)
        return plans
