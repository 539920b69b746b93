"""Measuring and reporting: each figure measured in turn with its baseline, one table, one JSON
file per run.

This machine's speed drifts within a minute (two cores shared with others' work): a baseline
measured on its own read 1,537 requests a second in one phase of a run and 4,120 in the next, so
the same code read 0.3x in one and 1.3x in the other. So a figure is never set against a
baseline measured at another moment. Its runs take turns with the baseline's (B A B A ..., 5 to
7 pairs); each pair gives a ratio, the figure against the baseline measured just before it; the
figure is the median of those ratios, and its spread is half their interquartile range, in per
cent of the median (± that much). A figure whose spread is wider than ``SPREAD_LIMIT`` (±15 %)
is not printed: it reads "unsteady (spread ±NN %)", in the table and in the JSON, since the
machine did not hold still long enough to tell.
"""

import json
import math
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

RESULTS = Path(__file__).resolve().parent / "results"
PAIRS = 7  # turns of the baseline and the figure, each giving a ratio
SPREAD_LIMIT = 15.0  # per cent: a figure whose pairs spread wider is "unsteady"

T = TypeVar("T")
clock = time.perf_counter  # the tests set their own
# The thread's processor time: what a computation in this thread costs, without the time the
# machine gave to others meanwhile (on two shared cores, at nice 19, most of the wall time).
# Only for work done wholly in this thread: no database, no server, no other process.
cpu_clock = time.thread_time


@dataclass(frozen=True)
class Figure:
    name: str
    value: float  # the figure's median over its runs: microseconds per call (or the unit given)
    baseline: str
    baseline_value: float  # the baseline's median over its runs, each taken in turn with one
    unit: str = "µs"
    # One ratio per pair: the figure's run against the baseline's run next to it. Empty for a
    # figure measured once (a count, which does not vary): its ratio is value / baseline_value.
    ratios: tuple[float, ...] = field(default=())

    @classmethod
    def paired(
        cls, name: str, pairs: Sequence[tuple[float, float]], baseline: str, unit: str = "µs"
    ) -> "Figure":
        """The figure of ``pairs`` (its value, the baseline's value), measured in turn."""
        if not pairs:
            raise ValueError(f"{name}: no pairs measured")
        values, bases = zip(*pairs, strict=True)
        return cls(
            name=name,
            value=statistics.median(values),
            baseline=baseline,
            baseline_value=statistics.median(bases),
            unit=unit,
            ratios=tuple(_ratio(value, base) for value, base in pairs),
        )

    @property
    def ratio(self) -> float:
        """The median of the pairs' ratios (or value / baseline_value, measured once)."""
        if self.ratios:
            return statistics.median(self.ratios)
        return self.value / self.baseline_value

    @property
    def spread(self) -> float | None:
        """Half the interquartile range of the pairs' ratios, in per cent of their median: the
        figure is its ratio ± this much. None for a figure measured once."""
        if len(self.ratios) < 2:
            return None
        if not all(math.isfinite(ratio) for ratio in self.ratios):
            return math.inf  # a baseline measured nothing in some pair (wrk had no answer)
        low, median, high = statistics.quantiles(self.ratios, n=4, method="inclusive")
        return (high - low) / 2 / median * 100 if median else 0.0

    @property
    def steady(self) -> bool:
        spread = self.spread
        return spread is None or spread <= SPREAD_LIMIT

    @property
    def reading(self) -> str:
        """The ratio as the table prints it: "1.3x ±4 %", or "unsteady (spread ±23 %)"."""
        spread = self.spread
        if spread is None:
            return f"{self.ratio:.1f}x"
        if not self.steady:
            return f"unsteady (spread ±{spread:.0f} %)"
        return f"{self.ratio:.1f}x ±{spread:.0f} %"

    def as_json(self) -> dict:
        """The figure for the results' JSON: an unsteady figure's ratio is null."""
        return {
            **asdict(self),
            "ratios": [round(ratio, 4) if math.isfinite(ratio) else None for ratio in self.ratios],
            "ratio": self.ratio if self.steady else None,
            "spread": self.spread if self.spread is None or math.isfinite(self.spread) else None,
            "steady": self.steady,
            "reading": self.reading,
        }


def _ratio(value: float, base: float) -> float:
    """value / base; infinite where the baseline measured nothing, which no median hides."""
    if base:
        return value / base
    return math.inf


def drift(name: str, runs: Sequence[float], unit: str) -> Figure:
    """A baseline's own runs against their median: how far the machine drifted while a figure
    was measured in turn with it, which the pairs' ratios do not feel as long as each pair holds
    still. Steady if the baseline was."""
    middle = statistics.median(runs)
    return Figure.paired(name, [(run, middle) for run in runs], "(its median)", unit)


def alternate(
    baseline: Callable[[], T], figures: Sequence[Callable[[], T]], *, pairs: int = PAIRS
) -> list[list[tuple[T, T]]]:
    """Measure the baseline and the figures in turn, ``pairs`` times: B A1 A2 … B A1 A2 …; for
    each figure its pairs (its measurement, the baseline's of the same turn)."""
    measured: list[list[tuple[T, T]]] = [[] for _ in figures]
    for _ in range(pairs):
        base = baseline()
        for index, figure in enumerate(figures):
            measured[index].append((figure(), base))
    return measured


def in_rotation(
    couples: Sequence[tuple[Callable[[], float], Callable[[], float]]], *, pairs: int = PAIRS
) -> list[list[tuple[float, float]]]:
    """Several figures, each with its own baseline (figure, baseline), measured in rotation:
    B1 A1 B2 A2 … then again, ``pairs`` times; for each figure its pairs. Each figure's pairs are
    spread over the whole time the group takes, so a drift of the machine over seconds widens
    their spread instead of setting one figure's ratio apart from the next one's."""
    measured: list[list[tuple[float, float]]] = [[] for _ in couples]
    for _ in range(pairs):
        for index, (figure, baseline) in enumerate(couples):
            base = baseline()
            measured[index].append((figure(), base))
    return measured


def _loops(function: Callable[[], object], seconds: float, now: Callable[[], float]) -> int:
    """How many calls of ``function`` take about ``seconds`` (at least one)."""
    number, elapsed = 1, 0.0
    while True:
        start = now()
        for _ in range(number):
            function()
        elapsed = now() - start
        if elapsed >= seconds / 10 or number >= 1 << 30:
            break
        number *= 4
    return max(1, round(number * seconds / max(elapsed, 1e-9)))


def timer(
    function: Callable[[], object],
    *,
    seconds: float = 0.05,
    best_of: int = 3,
    number: int | None = None,
    cpu: bool = False,
) -> Callable[[], float]:
    """A measurement of ``function``: microseconds per call, the best of ``best_of`` runs that
    together take about ``seconds`` (the best is the one least disturbed by the machine), or of
    ``number`` calls each where given (for a slow function: no calls spent finding the count).
    In the thread's processor time with ``cpu`` (see ``cpu_clock``), else in wall time."""

    def now() -> float:
        return cpu_clock() if cpu else clock()

    loops = _loops(function, seconds / best_of, now) if number is None else number

    def measure() -> float:
        best = float("inf")
        for _ in range(best_of):
            start = now()
            for _ in range(loops):
                function()
            best = min(best, (now() - start) / loops)
        return best * 1e6

    return measure


def both_clocks(
    function: Callable[[], object], *, number: int = 1, best_of: int = 1
) -> Callable[[], tuple[float, float]]:
    """A measurement on both clocks at once: (wall, processor) microseconds per call, each the
    best of ``best_of`` runs of ``number`` calls. For a slow baseline shared by figures of
    either clock: one run serves both, where two would take twice as long."""

    def measure() -> tuple[float, float]:
        wall = processor = float("inf")
        for _ in range(best_of):
            start, start_cpu = clock(), cpu_clock()
            for _ in range(number):
                function()
            processor = min(processor, (cpu_clock() - start_cpu) / number)
            wall = min(wall, (clock() - start) / number)
        return wall * 1e6, processor * 1e6

    return measure


def in_turn(
    function: Callable[[], object],
    baseline: Callable[[], object],
    *,
    pairs: int = PAIRS,
    seconds: float = 0.05,
    best_of: int = 3,
    cpu: bool = False,
) -> list[tuple[float, float]]:
    """``function`` timed in turn with ``baseline`` (µs per call): for ``Figure.paired``."""
    return in_turn_with(
        baseline, [function], pairs=pairs, seconds=seconds, best_of=best_of, cpu=cpu
    )[0]


def in_turn_with(
    baseline: Callable[[], object],
    functions: Sequence[Callable[[], object]],
    *,
    pairs: int = PAIRS,
    seconds: float = 0.05,
    best_of: int = 3,
    cpu: bool = False,
) -> list[list[tuple[float, float]]]:
    """Several functions timed in turn with one baseline (µs per call): each turn is the
    baseline, then each of them; for each function its pairs."""
    return alternate(
        timer(baseline, seconds=seconds, best_of=best_of, cpu=cpu),
        [timer(function, seconds=seconds, best_of=best_of, cpu=cpu) for function in functions],
        pairs=pairs,
    )


def per_call(function: Callable[[], object], *, repeat: int = 7, budget: float = 0.2) -> float:
    """Microseconds per call: the best of ``repeat`` runs of about ``budget`` seconds each.

    Measured alone, not in turn with a baseline: prefer ``in_turn``.
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


def table(suite: str, figures: list[Figure]) -> list[str]:
    """The figures as the run prints them: value, baseline, and the ratio with its spread."""
    width = max(len(figure.name) for figure in figures)
    base_width = max(len(figure.baseline) for figure in figures)
    lines = [
        suite,
        f"{'figure':<{width}}  {'value':>12}  {'baseline':<{base_width}}  {'base':>10}  "
        "ratio (median of pairs ± spread)",
    ]
    for figure in figures:
        lines.append(
            f"{figure.name:<{width}}  {figure.value:>9.2f} {figure.unit:<2}  "
            f"{figure.baseline:<{base_width}}  {figure.baseline_value:>7.2f} {figure.unit:<2}  "
            f"{figure.reading}"
        )
    unsteady = sum(not figure.steady for figure in figures)
    if unsteady:
        lines.append(
            f"{unsteady} of {len(figures)} unsteady: their pairs spread wider than "
            f"±{SPREAD_LIMIT:.0f} %; run the suite again when the machine is quieter"
        )
    return lines


def report(suite: str, figures: list[Figure]) -> Path:
    """Print the figures as a table and write them to bench/results/<suite>-<time>.json."""
    print("\n" + "\n".join(table(suite, figures)))
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
                "method": (
                    "each figure in turn with its baseline; ratio: the median of the pairs' "
                    "ratios; spread: half their interquartile range in per cent of the median; "
                    f"a spread over {SPREAD_LIMIT:.0f} % is unsteady and has no ratio"
                ),
                "spread_limit": SPREAD_LIMIT,
                "figures": [figure.as_json() for figure in figures],
            },
            indent=2,
            allow_nan=False,  # strict JSON: an unmeasured ratio is null
        )
        + "\n"
    )
    return path


def median_ms(function: Callable[[], object], *, calls: int, warm_up: int) -> Callable[[], float]:
    """A measurement for ``in_turn``: the median of ``calls`` calls of ``function`` in ms, after
    ``warm_up`` calls (templates compiled, connections open)."""
    for _ in range(warm_up):
        function()

    def measure() -> float:
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    return measure
