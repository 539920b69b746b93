"""A hand written plainly through the API is read without DRF's fields (``plain_hand``), as
those fields would read it: the same values, the same refusals between its fields; anything else
goes to the fields, which say what is wrong. Compared over hands of every shape a client could
send."""

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from doko.rules.contracts import Contract, SoloType
from doko.rules.sheet import Replay
from scoring.api.hands import HandEntrySerializer, plain_hand

NUMBERS = st.one_of(
    st.integers(-1200, 1200),
    st.sampled_from([0, 1, 4, 5, 7, 8, 1000, 1001, -1000, -1001]),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-10, max_value=10),
    st.sampled_from(["3", "x", "", " 2", "1e3"]),
    st.none(),
    st.lists(st.integers(0, 3), max_size=2),
)
WORDS = st.one_of(
    st.sampled_from([c.value for c in Contract]),
    st.sampled_from([s.value for s in SoloType]),
    st.sampled_from([r.value for r in Replay]),
    st.sampled_from(["", "NORMAL", "solo", " normal"]),
    st.none(),
    st.integers(0, 3),
    st.booleans(),
)
KEYS = st.one_of(
    st.sampled_from(["1", "2", "3", "4", "5", "6", "7", "8", "0", "01", "-1", "x", "١", " 1"]),
)
POINTS = st.one_of(
    st.dictionaries(KEYS, NUMBERS, max_size=6),
    st.dictionaries(st.sampled_from(["1", "2", "3", "4", "5"]), st.integers(-30, 30), max_size=5),
    st.lists(st.integers(-3, 3), max_size=4),
    st.none(),
    st.text(max_size=3),
)
FIELDS = {
    "contract": WORDS,
    "dealer": NUMBERS,
    "dealt_by_neighbour": st.one_of(st.booleans(), NUMBERS, WORDS),
    "soloist": NUMBERS,
    "solo_type": WORDS,
    "game_value": NUMBERS,
    "points": POINTS,
    "replay": WORDS,
    "other": NUMBERS,
}


PLAIN = {
    "contract": st.sampled_from([c.value for c in Contract]),
    "dealer": st.one_of(st.none(), st.integers(0, 8)),
    "dealt_by_neighbour": st.booleans(),
    "soloist": st.one_of(st.none(), st.integers(0, 8)),
    "solo_type": st.one_of(st.none(), st.sampled_from([s.value for s in SoloType])),
    "game_value": st.one_of(st.none(), st.integers(-1, 12), st.sampled_from([1000, 1001])),
    "points": st.dictionaries(
        st.sampled_from(["1", "2", "3", "4", "5", "6", "7", "8"]),
        st.one_of(st.integers(-30, 30), st.sampled_from([-1001, -1000, 1000, 1001])),
        max_size=6,
    ),
    "replay": st.one_of(st.none(), st.sampled_from([r.value for r in Replay])),
}


@st.composite
def hands(draw) -> object:
    """Mostly a hand as clients write it (its values of their own types, some beyond bounds),
    some with a field of another kind; now and then not a hand at all."""
    if draw(st.integers(0, 30)) == 0:
        return draw(st.one_of(st.none(), st.integers(), st.text(max_size=3), st.lists(st.none())))
    names = draw(st.lists(st.sampled_from(list(PLAIN)), unique=True))
    hand = {name: draw(PLAIN[name]) for name in ["contract", "points", *names]}
    for name in draw(st.lists(st.sampled_from(list(FIELDS)), unique=True, max_size=2)):
        if draw(st.booleans()):
            hand[name] = draw(FIELDS[name])
        else:
            hand.pop(name, None)
    return hand


def _read(serializer: HandEntrySerializer, reading) -> tuple:
    try:
        return ("read", dict(reading()))
    except serializers.ValidationError:
        return ("refused", None)


@settings(max_examples=1500, deadline=None)
@given(hand=hands(), size=st.sampled_from([4, 5, 6, 7, None]))
def test_a_plain_hand_is_read_as_the_fields_read_it(hand, size):
    context = {} if size is None else {"table_size": size}
    fields = HandEntrySerializer(context=context)
    by_fields = _read(fields, lambda: fields.run_validation(hand))
    made = plain_hand(hand, table_size=size)
    if made is None:
        return  # left to the fields
    plain = HandEntrySerializer(context=context)
    assert _read(plain, lambda: plain.validate(made)) == by_fields


@settings(max_examples=300, deadline=None)
@given(
    items=st.lists(
        st.one_of(
            hands(),
            st.fixed_dictionaries(
                {
                    "contract": st.sampled_from([c.value for c in Contract]),
                    "points": st.fixed_dictionaries(
                        {seat: st.integers(-30, 30) for seat in ("1", "2", "3", "4")}
                    ),
                },
                optional={
                    "soloist": st.integers(1, 4),
                    "solo_type": st.sampled_from([s.value for s in SoloType]),
                    "dealer": st.integers(1, 4),
                },
            ),
        ),
        max_size=6,
    )
)
def test_the_hands_are_read_as_drf_reads_a_list(items):
    """The list as a whole: the same hands, or a refusal with the same errors by position."""
    context = {"table_size": 4}

    def read(serializer) -> tuple:
        try:
            return ("read", [dict(hand) for hand in serializer.run_validation(items)])
        except serializers.ValidationError as error:
            return ("refused", error.detail)

    ours = HandEntrySerializer(many=True, context=context)
    drf = serializers.ListSerializer(child=HandEntrySerializer(), context=context)
    assert read(ours) == read(drf)
