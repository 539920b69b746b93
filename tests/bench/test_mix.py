"""The mix's figures (bench/mix.py): each later phase's save against the first phase's."""

import pytest

from bench import mix
from bench.server_clock import KindTimes


def _save(wall: float, cpu: float, wait: float, db: float = 2.0) -> KindTimes:
    return KindTimes("hand write", 240, wall, cpu, cpu * 0.24, wait_p50=wait, db_p50=db)


def test_each_later_phase_is_held_against_the_first():
    phases = [
        (0, _save(9.8, 6.6, 2.7, db=2.2)),
        (20, _save(11.4, 7.0, 3.9)),
        (200, _save(15.8, 6.7, 9.4, db=3.3)),
    ]
    figures = {figure.name: figure for figure in mix._figures(phases)}
    assert len(figures) == 8  # waits, wall and processor time of the two later phases
    wait = figures[
        f"mix: {mix.KEEPERS} tables saving, 200 trivial requests/s beside: save's wait p50"
    ]
    assert (wait.value, wait.baseline_value, wait.unit) == (9.4, 2.7, "ms")
    assert wait.baseline == f"{mix.KEEPERS} tables saving, 0 trivial requests/s beside"
    assert wait.value / wait.baseline_value == pytest.approx(3.48, abs=0.01)
    db = figures[
        f"mix: {mix.KEEPERS} tables saving, 200 trivial requests/s beside: save's database wait p50"
    ]
    assert (db.value, db.baseline_value) == (3.3, 2.2)
    wall = figures[
        f"mix: {mix.KEEPERS} tables saving, 20 trivial requests/s beside: save's wall p50"
    ]
    assert (wall.value, wall.baseline_value) == (11.4, 9.8)
