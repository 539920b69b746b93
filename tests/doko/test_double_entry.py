"""Double entry: two typings of one paper sheet compared, and settled from the paper (TSR 7.3.4).

The laws, over matches played at random (``doko.simulation``) and typing slips made at random:
an entry agrees with itself; the differences are exactly the hands that differ; settling every
difference for the first entry gives the first, for the second the second; and whatever the
choices, the settled sheet agrees with each entry wherever that entry was chosen.
"""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko.rules.double_entry import TIME_OVER, Entry, Unsettled, differences, settled
from doko.sample_sheets import full_match
from doko.simulation import simulate_match


def slipped(hands, rng: random.Random, slips: int):
    """``hands`` with some typing slips: the signs of a hand turned round, a hand left out, a
    hand typed twice."""
    hands = list(hands)
    for _ in range(slips):
        kind = rng.choice(["sign", "drop", "twice"])
        number = rng.randrange(len(hands))
        if kind == "sign":
            hand = hands[number]
            hands[number] = replace(hand, points={s: -p for s, p in hand.points.items()})
        elif kind == "drop" and len(hands) > 1:
            del hands[number]
        else:
            hands.insert(number, hands[number])
    return hands


entries = st.builds(
    lambda seed, slips, time_over: (seed, slips, time_over),
    st.integers(0, 10_000),
    st.integers(0, 4),
    st.sampled_from([None, 20, 21]),
)


def pair(case):
    seed, slips, time_over = case
    rng = random.Random(seed)
    size = rng.choice([4, 5])
    first = simulate_match(table_size=size, hands_per_match=24 if size == 4 else 30, rng=rng)
    second = slipped(first, rng, slips)
    return Entry(first), Entry(second, time_over_after_hand=time_over)


@settings(max_examples=60, deadline=None)
@given(entries)
def test_an_entry_agrees_with_itself_and_differs_exactly_where_a_hand_does(case):
    first, second = pair(case)
    assert differences(first, first) == []
    found = differences(first, second)
    longest = max(len(first.hands), len(second.hands))
    numbered = [number for number in found if number is not TIME_OVER]
    assert numbered == [
        number
        for number in range(1, longest + 1)
        if (first.hands[number - 1] if number <= len(first.hands) else None)
        != (second.hands[number - 1] if number <= len(second.hands) else None)
    ]
    assert (TIME_OVER in found) == (second.time_over_after_hand is not None)


@settings(max_examples=60, deadline=None)
@given(entries)
def test_settling_all_for_one_entry_gives_that_entry(case):
    first, second = pair(case)
    found = differences(first, second)
    assert settled(first, second, dict.fromkeys(found, "first")) == Entry(
        tuple(first.hands), first.time_over_after_hand
    )
    assert settled(first, second, dict.fromkeys(found, "second")) == Entry(
        tuple(second.hands), second.time_over_after_hand
    )


@settings(max_examples=60, deadline=None)
@given(entries, st.randoms(use_true_random=False))
def test_the_settled_sheet_has_each_differing_hand_as_the_chosen_entry(case, rng):
    first, second = pair(case)
    found = differences(first, second)
    # Only hands both entries have keep their numbers whatever is chosen before them.
    both = min(len(first.hands), len(second.hands))
    choices = {number: rng.choice(["first", "second"]) for number in found}
    for number in found:
        if number is not TIME_OVER and number > both:
            choices[number] = "first"
    result = settled(first, second, choices)
    for number in range(1, both + 1):
        chosen = second if choices.get(number) == "second" else first
        assert result.hands[number - 1] == chosen.hands[number - 1]


def test_a_difference_left_open_or_one_that_is_none_is_refused():
    hands = full_match()
    other = list(hands)
    other[2] = replace(other[2], points={s: -p for s, p in other[2].points.items()})
    with pytest.raises(Unsettled) as error:
        settled(Entry(hands), Entry(other), {})
    assert error.value.open == [3]
    with pytest.raises(Unsettled) as error:
        settled(Entry(hands), Entry(other), {3: "first", 4: "second"})
    assert error.value.unknown == [4]


def test_a_hand_one_entry_lacks_is_left_out_when_that_entry_is_chosen():
    hands = full_match()
    assert differences(Entry(hands), Entry(hands[:23])) == [24]
    assert settled(Entry(hands), Entry(hands[:23]), {24: "second"}).hands == tuple(hands[:23])
