"""`python -m bench [suite ...]`: run the benchmark suites and print their figures."""

import os
import sys

import django

SUITES = {
    "rules": "bench.rules",
    "seating": "bench.seating",
    "printouts": "bench.printouts",
    "sheet_check": "bench.sheet_check",
    "scoresheets": "bench.scoresheets",
    "standings": "bench.standings",
}


def main(names: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "true")
    django.setup()
    import dataclasses
    from importlib import import_module

    from bench.figures import report

    names = names or list(SUITES)
    everything = []
    for name in names:
        figures = import_module(SUITES[name]).figures()
        path = report(name, figures)
        print(f"written to {path.relative_to(path.parents[2])}")
        everything += [dataclasses.replace(f, name=f"{name}: {f.name}") for f in figures]
    if len(names) > 1:
        # All of the run in one table and one file, each figure against its own baseline.
        path = report("all", everything)
        print(f"written to {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main(sys.argv[1:])
