"""`python -m bench [suite ...]`: run the benchmark suites and print their figures.

The run's database and cache are started first (``bench.backends``: a throwaway PostgreSQL and
Redis, or ``BENCH_DB=sqlite``), then Django, then the suites; the synthetic tournament they share
(``bench.tournament``) is built once, by the first suite that asks for it.
"""

import os
import sys
import time

import django

SUITES = {
    "rules": "bench.rules",
    "seating": "bench.seating",
    "printouts": "bench.printouts",
    "sheet_check": "bench.sheet_check",
    "scoresheets": "bench.scoresheets",
    "standings": "bench.standings",
    "desk": "bench.desk",
    "day": "bench.day",
    "writes": "bench.writes",
    "mix": "bench.mix",
    "day2": "bench.day2",  # the day on two servers behind HAProxy: only when named
}
DEFAULT = [name for name in SUITES if name != "day2"]


def main(names: list[str]) -> None:
    from bench import backends

    names = names or DEFAULT
    if unknown := [name for name in names if name not in SUITES]:
        sys.exit(f"Unknown suite {', '.join(unknown)}; the suites are: {', '.join(SUITES)}.")
    try:
        kind = backends.chosen()
        with backends.started(kind) as description:
            print(f"database and cache: {description}", flush=True)
            run(names)
    except backends.BackendError as error:
        sys.exit(str(error))
    except KeyboardInterrupt:
        sys.exit("Interrupted; the run's servers are stopped.")


def run(names: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "true")
    django.setup()
    import dataclasses
    from importlib import import_module

    from django.core.management import call_command

    from bench import backends
    from bench.figures import report

    backends.tasks_in_process()
    began = start = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    print(f"migrated in {time.perf_counter() - start:.1f} s", flush=True)
    everything = []
    for name in names:
        start = time.perf_counter()
        figures = import_module(SUITES[name]).figures()
        path = report(name, figures)
        print(f"written to {path.relative_to(path.parents[2])}")
        print(f"({name}: {time.perf_counter() - start:.0f} s)", flush=True)
        everything += [dataclasses.replace(f, name=f"{name}: {f.name}") for f in figures]
    if len(names) > 1:
        # All of the run in one table and one file, each figure against its own baseline.
        path = report("all", everything)
        print(f"written to {path.relative_to(path.parents[2])}")
    from bench import tournament

    if tournament.built is not None:
        print(f"synthetic tournament: built once, in {tournament.built.seconds:.1f} s")
    print(f"suites run in {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
