"""The benchmarks' measuring (bench/figures.py): each figure in turn with its baseline, the
median of the pairs' ratios and their spread, and a figure too unsteady to print."""

import json

import pytest

from bench import figures
from bench.figures import Figure, alternate, in_rotation, in_turn, timer


def pairs_of(ratios, baseline=1.0):
    return [(ratio * baseline, baseline) for ratio in ratios]


def test_steady_pairs_give_the_median_ratio_and_its_spread():
    figure = Figure.paired("check", pairs_of([2.0, 2.1, 1.9, 2.0, 2.05, 1.95, 2.0]), "build")

    assert figure.ratio == pytest.approx(2.0)
    assert figure.spread == pytest.approx(1.25)  # half of 2.025 - 1.975, against 2.0
    assert figure.steady
    assert figure.reading == "2.0x ±1 %"


def test_noisy_pairs_say_unsteady_instead_of_a_figure():
    figure = Figure.paired("check", pairs_of([1.0, 2.0, 0.5, 1.5, 3.0]), "build")

    assert figure.spread == pytest.approx(100 / 3)  # quartiles 1.0 and 2.0 around 1.5
    assert not figure.steady
    assert figure.reading == "unsteady (spread ±33 %)"


def test_a_spread_of_fifteen_per_cent_is_the_limit():
    within = Figure.paired("a", pairs_of([0.8, 0.9, 1.0, 1.1, 1.2]), "b")  # ±10 %
    beyond = Figure.paired("a", pairs_of([0.6, 0.8, 1.0, 1.2, 1.4]), "b")  # ±20 %

    assert within.spread == pytest.approx(10.0)
    assert within.steady
    assert beyond.spread == pytest.approx(20.0)
    assert not beyond.steady


def test_one_disturbed_pair_does_not_spoil_a_figure():
    figure = Figure.paired("a", pairs_of([1.3, 1.3, 1.3, 4.0, 1.3, 1.3, 1.3]), "b")

    assert figure.ratio == pytest.approx(1.3)
    assert figure.steady


def test_a_baseline_that_drifts_between_pairs_leaves_the_ratio_steady():
    # The trivial view read 1,537 requests a second in one phase and 4,120 in the next; the
    # page, measured next to it each time, kept its share of the machine.
    pairs = [(0.8 * base, base) for base in (1537, 4120, 2500, 1800, 3900, 2210)]
    figure = Figure.paired("page: requests", pairs, "trivial view", "/s")

    assert figure.ratio == pytest.approx(0.8)
    assert figure.spread == pytest.approx(0.0)
    assert figure.reading == "0.8x ±0 %"
    # The baseline's own drift is what the pairs leave out.
    assert not figures.drift("trivial view", [base for _v, base in pairs], "/s").steady


def test_the_ratio_is_the_median_of_the_pairs_ratios_not_of_the_medians():
    figure = Figure.paired("a", [(4, 2), (3, 3), (1, 1), (2, 1), (5, 5)], "b")

    assert (figure.value, figure.baseline_value) == (3, 2)  # 1.5 apart, measured apart
    assert figure.ratio == pytest.approx(1.0)  # three pairs of five at 1.0x


def test_a_figure_measured_once_has_a_ratio_and_no_spread():
    figure = Figure("repeats", 41, "shuffle", 131, "")

    assert figure.ratio == pytest.approx(41 / 131)
    assert figure.spread is None
    assert figure.steady
    assert figure.reading == "0.3x"


def test_a_pair_whose_baseline_measured_nothing_makes_the_figure_unsteady(tmp_path, monkeypatch):
    # wrk got no answer from the trivial view in one pair: 0 requests a second.
    figure = Figure.paired("page: requests", [(80, 100), (81, 100), (79, 0), (80, 100)], "b")

    assert not figure.steady
    assert figure.reading == "unsteady (spread ±inf %)"
    monkeypatch.setattr(figures, "RESULTS", tmp_path)
    text = figures.report("suite", [figure]).read_text()
    written = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))
    assert written["figures"][0]["ratio"] is None
    assert written["figures"][0]["ratios"] == [0.8, 0.81, None, 0.8]


def test_no_pairs_is_an_error():
    with pytest.raises(ValueError, match="no pairs"):
        Figure.paired("a", [], "b")


def test_alternate_measures_the_baseline_then_each_figure_in_turn():
    order = []

    def measuring(name, value):
        def measure():
            order.append(name)
            return value

        return measure

    measured = alternate(measuring("B", 2.0), [measuring("A1", 3.0), measuring("A2", 4.0)], pairs=3)

    assert order == ["B", "A1", "A2"] * 3
    assert measured == [[(3.0, 2.0)] * 3, [(4.0, 2.0)] * 3]


def test_in_rotation_measures_each_figure_next_to_its_own_baseline():
    order = []

    def measuring(name):
        def measure():
            order.append(name)
            return float(len(order))

        return measure

    measured = in_rotation(
        [(measuring("A1"), measuring("B1")), (measuring("A2"), measuring("B2"))], pairs=2
    )

    assert order == ["B1", "A1", "B2", "A2"] * 2
    assert measured == [[(2.0, 1.0), (6.0, 5.0)], [(4.0, 3.0), (8.0, 7.0)]]


class FakeClock:
    """A clock that only the measured functions move: each call costs what it says."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def costing(self, seconds):
        def call():
            self.now += seconds

        return call


def test_in_turn_times_the_pairs_on_the_clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(figures, "clock", fake)

    pairs = in_turn(fake.costing(30e-6), fake.costing(10e-6), pairs=5)

    assert len(pairs) == 5
    assert pairs == [(pytest.approx(30.0), pytest.approx(10.0))] * 5  # µs per call
    assert Figure.paired("a", pairs, "b").reading == "3.0x ±0 %"


def test_processor_time_is_measured_on_the_threads_clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(figures, "cpu_clock", fake)
    monkeypatch.setattr(figures, "clock", lambda: pytest.fail("the wall clock was read"))

    measure = timer(fake.costing(0.002), cpu=True, number=1, best_of=1)

    assert measure() == pytest.approx(2000.0)


def test_the_report_prints_and_writes_unsteady_figures_without_a_ratio(
    monkeypatch, tmp_path, capsys
):
    monkeypatch.setattr(figures, "RESULTS", tmp_path)
    steady = Figure.paired("steady page", pairs_of([0.9, 0.9, 0.91, 0.89, 0.9]), "trivial view")
    noisy = Figure.paired("noisy page", pairs_of([0.3, 1.3, 0.8, 0.5, 1.1]), "trivial view")

    path = figures.report("suite", [steady, noisy])

    printed = capsys.readouterr().out
    assert "0.9x ±0 %" in printed
    noisy_line = next(line for line in printed.splitlines() if line.startswith("noisy page"))
    assert noisy_line.endswith("unsteady (spread ±38 %)")
    assert "1 of 2 unsteady" in printed
    written = json.loads(path.read_text())
    by_name = {figure["name"]: figure for figure in written["figures"]}
    assert by_name["steady page"]["ratio"] == pytest.approx(0.9)
    assert by_name["steady page"]["steady"] is True
    assert by_name["noisy page"]["ratio"] is None
    assert by_name["noisy page"]["steady"] is False
    assert by_name["noisy page"]["reading"] == "unsteady (spread ±38 %)"
    assert by_name["noisy page"]["ratios"] == [0.3, 1.3, 0.8, 0.5, 1.1]
    assert written["spread_limit"] == 15.0
