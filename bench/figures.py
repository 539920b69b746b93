"""Measuring and reporting: best-of-N timings, one table, one JSON file per run."""

import json
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Figure:
    name: str
    value: float  # microseconds per call (or the unit given)
    baseline: str
    baseline_value: float
    unit: str = "µs"

    @property
    def ratio(self) -> float:
        return self.value / self.baseline_value


def per_call(function: Callable[[], object], *, repeat: int = 7, budget: float = 0.2) -> float:
    """Microseconds per call: the best of ``repeat`` runs of about ``budget`` seconds each.

    The best run is the one least disturbed by the rest of the machine.
    """
    number, elapsed = 1, 0.0
    while elapsed < budget / 10:  # find a loop count that takes measurable time
        start = time.perf_counter()
        for _ in range(number):
            function()
        elapsed = time.perf_counter() - start
        if elapsed < budget / 10:
            number *= 4
    number = max(1, int(number * budget / max(elapsed, 1e-9) / 4))
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            function()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1e6


def report(suite: str, figures: list[Figure]) -> Path:
    """Print the figures as a table and write them to bench/results/<suite>-<time>.json."""
    width = max(len(figure.name) for figure in figures)
    base_width = max(len(figure.baseline) for figure in figures)
    print(f"\n{suite}")
    print(f"{'figure':<{width}}  {'value':>12}  {'baseline':<{base_width}}  {'base':>10}  ratio")
    for figure in figures:
        print(
            f"{figure.name:<{width}}  {figure.value:>9.2f} {figure.unit:<2}  "
            f"{figure.baseline:<{base_width}}  {figure.baseline_value:>7.2f} {figure.unit:<2}  "
            f"{figure.ratio:5.1f}x"
        )
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = RESULTS / f"{suite}-{stamp}.json"
    path.write_text(
        json.dumps(
            {
                "suite": suite,
                "at": stamp,
                "python": platform.python_version(),
                "machine": platform.machine(),
                "figures": [{**asdict(figure), "ratio": figure.ratio} for figure in figures],
            },
            indent=2,
        )
        + "\n"
    )
    return path
