"""What a client writes of a sheet's hands: one hand as the scorekeeper enters it, and all of
them at once, read into the rules core's lines with the dealer the TSR gives filled in (TSR 3.3.1,
4.2.3, 4.2.5, 9.7.3). The sheet's PUT and the second entry take them."""

from django.utils.translation import gettext, ngettext
from rest_framework import serializers

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import TABLE_OF_SEVEN, TABLE_SIZES, MatchProgress
from doko.rules.sheet import HandLine, Replay
from scoring.api.fields import (
    MOST_HANDS,
    MOST_POINTS,
    ContractField,
    SeatsField,
    hand_seat_problems,
    soloist_field,
)


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
