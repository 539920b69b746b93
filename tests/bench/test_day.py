"""The day suite's verdicts (bench.day): a kind's p50 and p99 are held to the targets only
where it had enough requests for them to mean anything."""

from bench.day import JUDGED_FROM, Line, _line_targets


def line(kind: str, count: int, *, p50: float, p99: float, errors: int = 0) -> Line:
    return Line(
        kind=kind,
        count=count,
        p50=p50,
        p95=p99,
        p99=p99,
        base_p50=5.0,
        base_p95=10.0,
        base_p99=10.0,
        windows=[],
        errors=errors,
    )


def test_a_kind_with_enough_requests_is_held_to_the_targets():
    slow = line("hand write", JUDGED_FROM, p50=16.0, p99=25.0)
    assert slow.judged
    assert not slow.p50_met  # 3.2x the trivial view's p50
    assert slow.p99_met
    assert slow.verdict(slow.p50_met) == "MISSED"
    assert [met for _name, met in _line_targets([slow])] == [False, True, True]


def test_a_kind_with_a_few_requests_is_shown_but_not_judged():
    """A field's step in which one table handed in: one request is not a p50."""
    few = line("hand in", JUDGED_FROM - 1, p50=31.0, p99=31.0)
    assert not few.judged
    assert few.p50_met
    assert few.p99_met
    assert few.verdict(few.p50_met) == "too few to judge"
    assert "too few to judge" in few.figure_verdict(few.p99_met)
    targets = _line_targets([few, line("hand write", 100, p50=14.0, p99=25.0)])
    assert [met for _name, met in targets] == [True, True, True]
    assert f"hand in 6.20x ({JUDGED_FROM - 1} requests: too few to judge)" in targets[0][0]


def test_a_failed_request_counts_however_few_there_were():
    failed = line("confirm", 1, p50=12.0, p99=12.0, errors=1)
    assert [met for _name, met in _line_targets([failed])] == [True, True, False]
    assert not failed.met
