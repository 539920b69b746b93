"""The scoresheet check answers an input it has checked before from its last checks
(``doko.rules.sheet.check_sheet``): exactly as a fresh check would, and only for an equal input."""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from doko.rules.contracts import Contract
from doko.rules.sheet import _checked, check_sheet
from doko.simulation import simulate_match


def _fresh(**args):
    """The check made anew, nothing kept."""
    _checked.cache_clear()
    return check_sheet(**args)


def _args(hands, *, size=4, **kwargs):
    return {
        "table_size": size,
        "hands_per_match": 24 if size == 4 else 30,
        "hands": hands,
        **kwargs,
    }


def test_the_same_hands_are_checked_once():
    hands = simulate_match(rng=random.Random(7), table_size=4, hands_per_match=24)[:12]
    _checked.cache_clear()
    first = check_sheet(**_args(hands))
    # Equal lines made anew, as the next request reads them from the database.
    again = check_sheet(**_args([replace(line) for line in hands]))
    assert again is first
    assert _checked.cache_info().hits == 1


def test_a_hand_changed_in_any_field_is_checked_afresh():
    hands = simulate_match(rng=random.Random(8), table_size=4, hands_per_match=24)[:10]
    before = check_sheet(**_args(hands))
    last = hands[-1]
    points = {seat: -value for seat, value in last.points.items()}
    changed = [
        replace(last, points=points),
        replace(last, dealer=last.dealer % 4 + 1),
        replace(last, penalty={1: 1, 2: 1, 3: 1, 4: -3}),
        replace(last, penalty={1: 2, 2: -2, 3: 0, 4: 0}, penalties=({1: 2, 2: -2},)),
        replace(last, dealt_by_neighbour=True),
        replace(last, contract=Contract.FORCED_SOLO, soloist=1),
    ]
    for line in changed:
        after = check_sheet(**_args([*hands[:-1], line]))
        assert after is not before
        assert after == _fresh(**_args([*hands[:-1], line]))


def test_the_settings_are_part_of_what_was_checked():
    hands = simulate_match(rng=random.Random(9), table_size=4, hands_per_match=24)[:20]
    plain = check_sheet(**_args(hands))
    for kwargs in (
        {"time_over_after_hand": 18},
        {"deductions": {2: -4}},
        {"ended_early": True},
        {"hands_per_match": 20},
    ):
        other = check_sheet(**{**_args(hands), **kwargs})
        assert other is not plain
        assert other == _fresh(**{**_args(hands), **kwargs})


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([4, 5]),
    cuts=st.lists(st.integers(0, 30), min_size=1, max_size=8),
    time_over=st.none() | st.integers(0, 30),
)
def test_a_kept_check_is_what_a_fresh_check_says(seed, size, cuts, time_over):
    """Over simulated sheets read again and again at several lengths (as a table's page, its
    saves and its live checks read them), every answer equals the check made afresh."""
    hands = simulate_match(rng=random.Random(seed), table_size=size, hands_per_match=24)
    for cut in cuts:
        args = _args(hands[:cut], size=size, time_over_after_hand=time_over)
        assert check_sheet(**args) == _fresh(**args)
