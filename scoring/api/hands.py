"""What a client writes of a sheet's hands: one hand as the scorekeeper enters it, and all of
them at once, read into the rules core's lines with the dealer the TSR gives filled in (TSR 3.3.1,
4.2.3, 4.2.5, 9.7.3). The sheet's PUT and the second entry take them."""

from django.utils.translation import gettext, ngettext
from rest_framework import serializers

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import TABLE_OF_SEVEN, TABLE_SIZES, MatchProgress
from doko.rules.sheet import HandLine, Replay
from scoring.api.fields import (
    CONTRACTS,
    MOST_HANDS,
    MOST_POINTS,
    SEATS,
    ContractField,
    SeatsField,
    hand_seat_problems,
    soloist_field,
)

_SOLO_TYPES = frozenset(solo.value for solo in SoloType)
_REPLAYS = frozenset(replay.value for replay in Replay)
_CONTRACTS = frozenset(CONTRACTS)
_OPTIONAL_NUMBERS = {
    "dealer": (1, TABLE_OF_SEVEN),
    "soloist": (1, TABLE_OF_SEVEN),
    "game_value": (0, MOST_POINTS),
}


def _number(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def plain_hand(data: object, *, table_size: int | None) -> dict | None:
    """A hand as ``HandEntrySerializer``'s fields read it, made without them where it is written
    plainly (every value of its own JSON type and within bounds: what clients send); None where
    anything is not (a number as a string, a value out of bounds, a wrong type): the fields
    then read it, and say what is wrong. The same values either way (``tests/scoring/
    test_api_hands.py``): the fields cost a sheet's PUT a third of its time, 24 hands a time."""
    if not isinstance(data, dict):
        return None
    contract = data.get("contract")
    if type(contract) is not str or contract not in _CONTRACTS:
        return None
    made: dict = {"contract": contract}
    for name, (low, high) in _OPTIONAL_NUMBERS.items():
        value = data.get(name)
        if value is not None and not _number(value, low, high):
            return None
        made[name] = value
    neighbour = data.get("dealt_by_neighbour", False)
    if type(neighbour) is not bool:
        return None
    made["dealt_by_neighbour"] = neighbour
    for name, allowed in (("solo_type", _SOLO_TYPES), ("replay", _REPLAYS)):
        value = data.get(name)
        if value is not None and (type(value) is not str or value not in allowed):
            return None
        made[name] = value
    points = data.get("points")
    if not isinstance(points, dict):
        return None
    seats = SEATS[: table_size if table_size in SEATS else TABLE_OF_SEVEN]
    made["points"] = {}
    for key, value in points.items():
        if type(key) is not str or not (key.isascii() and key.isdecimal()):
            return None
        if int(key) not in seats or not _number(value, -MOST_POINTS, MOST_POINTS):
            return None
        made["points"][int(key)] = value
    return made


class HandEntriesSerializer(serializers.ListSerializer):
    """The hands of a sheet: each written plainly is read without the fields (``plain_hand``);
    if any is not, or one breaks a rule between its fields, all are read by them, as DRF
    reads a list, with its errors by position."""

    def to_internal_value(self, data):
        child = self.child
        # The stubs omit a list serializer's max_length (see ``HandsReplaceSerializer``).
        most = getattr(self, "max_length", None) or MOST_HANDS
        plain = isinstance(data, list) and 0 < len(data) <= most
        if plain and isinstance(child, HandEntrySerializer):
            size = child.context.get("table_size")
            made = [plain_hand(item, table_size=size) for item in data]
            if all(hand is not None for hand in made):
                try:
                    return [child.validate(hand) for hand in made]
                except serializers.ValidationError:
                    pass  # said by position, as the fields say it
        return super().to_internal_value(data)


class HandEntrySerializer(serializers.Serializer):
    """One hand as the scorekeeper writes it: the contract, who played alone, the points."""

    contract = ContractField()
    dealer = serializers.IntegerField(
        min_value=1,
        max_value=TABLE_OF_SEVEN,
        allow_null=True,
        default=None,
        help_text="Leave it out to have the dealer the TSR gives filled in: seat 1 first, then "
        "to the left; the dealer of a compulsory solo deals again (TSR 3.3.1, 4.2.5)",
    )
    dealt_by_neighbour = serializers.BooleanField(
        default=False,
        help_text="The dealer was away and his left neighbour dealt for him (TSR 3.3.2): "
        "give the dealer whose turn it was (or leave it out); the deal goes on from him, and "
        "at a table of five he sits out",
    )
    soloist = soloist_field()
    solo_type = serializers.ChoiceField(
        choices=[solo.value for solo in SoloType],
        allow_null=True,
        default=None,
        help_text="With a soloist (TSR 2.3.3); a wedding played alone is a diamonds solo",
    )
    game_value = serializers.IntegerField(
        min_value=0,
        max_value=MOST_POINTS,
        allow_null=True,
        default=None,
        help_text="Leave it out to read it off the points; checked against them (TSR 7.2)",
    )
    points = SeatsField(
        help_text="Game points per seat; a sitting-out dealer at a table of five may be left out"
    )
    replay = serializers.ChoiceField(
        choices=[replay.value for replay in Replay],
        allow_null=True,
        default=None,
        help_text="A line the adjudicator recorded as broken off and dealt again (TSR 9.1.3), "
        "sent back as read (`replay` of the hand); only he adds one (`…/replay`)",
    )

    def validate(self, data):
        contract = Contract(data["contract"])
        soloist = data["soloist"]
        solo_type = SoloType(data["solo_type"]) if data["solo_type"] else None
        errors = {}
        if contract.names_soloist and soloist is None:
            errors["soloist"] = [gettext("Name the soloist of a solo (TSR 2.4.7, 4.4.5).")]
        elif contract is Contract.NORMAL and soloist is not None:
            errors["soloist"] = [gettext("A normal game has no soloist (TSR 2.4.4).")]
        elif soloist is None and solo_type is not None:
            errors["solo_type"] = [gettext("Only a hand played alone has a solo type (TSR 2.3.3).")]
        elif contract in (Contract.WEDDING, Contract.SILENT_WEDDING) and soloist is not None:
            if solo_type not in (None, SoloType.DIAMONDS):
                errors["solo_type"] = [
                    gettext("A wedding played alone is a diamonds solo (TSR 4.4.3 b, 4.4.5).")
                ]
            solo_type = SoloType.DIAMONDS
        elif soloist is not None and solo_type is None:
            errors["solo_type"] = [gettext("Say which solo was played (TSR 2.3.3).")]
        if errors:
            raise serializers.ValidationError(errors)
        return {**data, "contract": contract, "solo_type": solo_type}

    class Meta:
        list_serializer_class = HandEntriesSerializer


class HandsReplaceSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1, help_text="The version of the sheet this change is based on"
    )
    # With many=True the serializer is a ListSerializer, which takes max_length; the stubs omit
    # it.
    hands = HandEntrySerializer(  # type: ignore[call-arg]
        many=True, max_length=MOST_HANDS, help_text="All hands, in the order played"
    )
    time_over_after_hand = serializers.IntegerField(
        min_value=0,
        max_value=MOST_HANDS,
        allow_null=True,
        required=False,
        help_text="Hands played when the playing time ended, after which only forced solos "
        "follow (TSR 8.5.1, 8.5.3); null while it runs; left out: kept as it is",
    )

    def validate(self, data):
        """The hands as the rules core reads them. A hand without a dealer gets the one the TSR
        gives (TSR 3.3.1, 4.2.3, 4.2.5); a dealer given stands, also out of turn (TSR 9.7.3),
        and the deal goes on from him."""
        size = self.context["table_size"]
        if size not in TABLE_SIZES:
            raise serializers.ValidationError(
                {
                    "hands": [
                        ngettext(
                            "This table seats {count} player; a table seats 4 to 7 (TSR 8.3, 10).",
                            "This table seats {count} players; a table seats 4 to 7 (TSR 8.3, 10).",
                            size,
                        ).format(count=size)
                    ]
                }
            )
        time_over = data.get("time_over_after_hand", self.context.get("time_over_after_hand"))
        progress = MatchProgress(table_size=size, hands_per_match=self.context["hands_per_match"])
        errors: dict[str, dict] = {}  # by position in the list, as DRF reports nested errors
        lines = []
        for index, hand in enumerate(data["hands"]):
            dealer = hand["dealer"]
            if dealer is None:
                late = time_over is not None and index >= time_over
                dealer = progress.next_deal(time_over=late)[0]
            problems = hand_seat_problems(
                dealer=dealer, soloist=hand["soloist"], seats={"points": hand["points"]}, size=size
            )
            if problems:
                errors[str(index)] = problems
                continue
            line = HandLine(
                contract=hand["contract"],
                dealer=dealer,
                points={seat: hand["points"].get(seat, 0) for seat in range(1, size + 1)},
                soloist=hand["soloist"],
                solo_type=hand["solo_type"],
                game_value=hand["game_value"],
                dealt_by_neighbour=hand["dealt_by_neighbour"],
                not_played=hand["replay"] is not None,
                replay=Replay(hand["replay"]) if hand["replay"] else None,
            )
            lines.append(line)
            progress.record(
                dealer=dealer,
                contract=line.contract,
                soloist=line.soloist,
                not_played=line.not_played,
            )
        if errors:
            raise serializers.ValidationError({"hands": errors})
        return {**data, "lines": lines}


HAND_EXAMPLE = {
    "version": 3,
    "time_over_after_hand": None,
    "hands": [
        {"contract": "normal", "points": {"1": 2, "2": -2, "3": 2, "4": -2}},
        {
            "contract": "compulsory_solo",
            "soloist": 3,
            "solo_type": "queens",
            "points": {"1": -3, "2": -3, "3": 9, "4": -3},
        },
    ],
}
