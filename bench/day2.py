"""The tournament day on two servers as one (issue 45): ``bench.day`` with two gunicorn
instances behind HAProxy (round robin), sharing the run's PostgreSQL and Redis. ``make bench
SUITES=day2`` (which installs HAProxy from the distribution if it is missing); not part of a
run of every suite. Its figures carry the same names as the one-server day's, and the run ends
with both side by side (the one-server figures from the newest ``bench/results/day-*.json``)."""

import json
import re

from bench import day
from bench.figures import RESULTS, Figure


def figures() -> list[Figure]:
    result = day.figures(servers=2)
    beside(result)
    return result


def beside(two: list[Figure]) -> None:
    """The two-server figures beside the newest one-server run's of the same name."""
    runs = sorted(RESULTS.glob("day-*.json"))
    if not runs:
        print("\nday2: no one-server run in bench/results/ to set beside (make bench SUITES=day)")
        return
    one = {_plain(figure["name"]): figure for figure in json.loads(runs[-1].read_text())["figures"]}
    print(f"\nday2: two servers beside one ({runs[-1].name})")
    print(f"  {'figure':<62} {'one server':>26} {'two servers':>26}")
    for figure in two:
        name = _plain(figure.name)
        other = one.get(name)
        mine = f"{figure.value:,.1f} {figure.unit} ({figure.reading})"
        theirs = f"{other['value']:,.1f} {other['unit']} ({other['reading']})" if other else "-"
        print(f"  {name[:62]:<62} {theirs:>26} {mine:>26}")


def _plain(name: str) -> str:
    """A figure's name without its verdict and the counts in brackets ("(37 of 37)", "(148
    hands stored …: …)"), to match across runs."""
    for word in (" target met", " target MISSED", " within the targets", " beyond the targets"):
        name = name.replace(word, "")
    while (plain := re.sub(r" \([^()]*(?::| of )[^()]*\)", "", name)) != name:
        name = plain
    return name
