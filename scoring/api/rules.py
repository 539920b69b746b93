"""The public rules API: game value, penalty points and the scoresheet check (TSR 7, 9, 7.3.3).

Thin views over the plain-Python core in ``doko/rules``: the serializers read and check the
JSON, the core decides, and its messages come back in the request's language (Accept-Language)
with the TSR section they rest on. No login; rate-limited per client (limits/throttles.py)."""

from collections.abc import Callable
from typing import Any, Protocol

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api_base.parsers import LimitedJSONParser
from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import HANDS_PER_MATCH, TABLE_OF_SEVEN, TABLE_SIZES
from doko.rules.entry import re_tricks_for
from doko.rules.penalty import MOST_ANNOUNCEMENTS, Breach, Severity, penalty_points
from doko.rules.problems import InvalidInput
from doko.rules.settlement import seat_points
from doko.rules.sheet import HandLine, check_sheet
from doko.rules.value import Announcement, Game, HandResult, Specials, Team, hand_value
from limits.clients import client_cookie_set
from limits.throttles import PublicAddressThrottle, PublicClientThrottle
from scoring.api.checks import ScoresheetCheckResponseSerializer, check_data
from scoring.api.fields import MOST_HANDS, SeatsField, hand_seat_problems, seat_dict, soloist_field
from tournaments.messages import field_errors


class RulesRequest(Protocol):
    """A request to the rules API, as its serializer reads it: once it is valid, ``result`` is
    what the response says."""

    def is_valid(self, *, raise_exception: bool = False) -> bool: ...

    def result(self) -> dict[str, Any]: ...


class PublicRulesView(APIView):
    """Public, computing, never writing: no session (so no CSRF), token users counted apart."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [AllowAny]
    throttle_classes = [PublicAddressThrottle, PublicClientThrottle]
    parser_classes = [LimitedJSONParser]
    request_serializer: Callable[..., RulesRequest]

    def post(self, request):
        serializer = self.request_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.result())

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        client_cookie_set(request, response)
        return response


def _seat_list(**kwargs):
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=TABLE_OF_SEVEN), **kwargs
    )


def _invalid(error: InvalidInput) -> serializers.ValidationError:
    return serializers.ValidationError(field_errors(error.errors))


# 1. Game value ------------------------------------------------------------------------------


def _announcement_field(team: Team):
    words = [team.value, "no90", "no60", "no30", "schwarz"]
    return serializers.ChoiceField(
        choices=words,
        allow_null=True,
        default=None,
        help_text=f"The highest announcement {team.name.title()} made: {', '.join(words)}; "
        "lower levels are implied (TSR 6.4.3).",
        error_messages={
            "invalid_choice": _("“{input}” is not an announcement of this team (TSR 6.2, 6.3).")
        },
    )


class SpecialsSerializer(serializers.Serializer):
    doppelkopf = serializers.IntegerField(
        min_value=0, max_value=4, default=0, help_text="Tricks of 40 card points or more"
    )
    fox = serializers.IntegerField(
        min_value=0, max_value=2, default=0, help_text="Opponents' Aces of Diamonds caught"
    )
    charlie = serializers.IntegerField(
        min_value=0, max_value=1, default=0, help_text="Last trick won with the Jack of Clubs"
    )


class BreakdownItemSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="The TSR item, e.g. “TSR 7.2.2 (a)”")
    # The serializer's metaclass takes its fields off the class, so this does not replace
    # Field.label; the stubs cannot know.
    label = serializers.CharField(help_text="In the request's language")  # type: ignore[assignment]
    team = serializers.ChoiceField(choices=[team.value for team in Team])
    points = serializers.IntegerField(help_text="Credited to the team")


class HandValueResponseSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=["re", "contra", "none"])
    settled_as = serializers.ChoiceField(choices=["normal", "solo"])
    re_value = serializers.IntegerField(
        help_text="Game points for each Re player; a soloist receives three times it, each "
        "opponent the value with the sign reversed (TSR 7.2.4)."
    )
    breakdown = BreakdownItemSerializer(many=True)
    scores = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Per seat, if re_seats given"
    )


class HandValueRequestSerializer(serializers.Serializer):
    contract = serializers.ChoiceField(choices=[game.value for game in Game])
    wedding_solo = serializers.BooleanField(
        default=False,
        help_text="Announced wedding whose holder took the first three tricks: settled as a "
        "solo (TSR 4.4.3 b).",
    )
    solo_type = serializers.ChoiceField(
        choices=[solo.value for solo in SoloType], allow_null=True, default=None
    )
    re_card_points = serializers.IntegerField(
        min_value=0, max_value=240, help_text="Contra has the rest"
    )
    re_tricks = serializers.IntegerField(
        min_value=0,
        max_value=12,
        allow_null=True,
        default=None,
        help_text="Contra: the rest. Needed only when a team took no card points (0 or 240): "
        "then whether it took a trick (schwarz) counts; else the card points decide",
    )
    re_announcement = _announcement_field(Team.RE)
    contra_announcement = _announcement_field(Team.CONTRA)
    re_specials = SpecialsSerializer(required=False)
    contra_specials = SpecialsSerializer(required=False)
    re_seats = _seat_list(
        required=False,
        min_length=1,
        max_length=2,
        help_text="The Re team's seats; the soloist alone in a solo",
    )
    seats = _seat_list(
        default=[1, 2, 3, 4],
        min_length=4,
        max_length=4,
        help_text="The four seats that played (at a table of five, without the dealer)",
    )

    def validate(self, data):
        try:
            re_tricks = re_tricks_for(
                re_card_points=data["re_card_points"], re_tricks=data["re_tricks"]
            )
        except InvalidInput as error:
            raise _invalid(error) from error
        hand = HandResult(
            game=Game(data["contract"]),
            re_card_points=data["re_card_points"],
            re_tricks=re_tricks,
            re_announcement=Announcement.parse(Team.RE, data["re_announcement"]),
            contra_announcement=Announcement.parse(Team.CONTRA, data["contra_announcement"]),
            re_specials=Specials(**data.get("re_specials", {})),
            contra_specials=Specials(**data.get("contra_specials", {})),
            wedding_solo=data["wedding_solo"],
            solo_type=SoloType(data["solo_type"]) if data["solo_type"] else None,
        )
        try:
            value = hand_value(hand)
        except InvalidInput as error:
            raise _invalid(error) from error
        seats, re_seats = data["seats"], data.get("re_seats")
        errors = {}
        if len(set(seats)) != 4:
            errors["seats"] = [gettext("Four different seats play a hand (TSR 2.1.1, 10.1.1).")]
        elif re_seats is not None:
            size = 1 if value.settled_as_solo else 2
            if len(set(re_seats)) != size or not set(re_seats) <= set(seats):
                errors["re_seats"] = [
                    gettext("The soloist's seat, one of “seats” (TSR 2.4.7).")
                    if size == 1
                    else gettext("Two different seats of “seats” form the Re team (TSR 2.4.4).")
                ]
        if errors:
            raise serializers.ValidationError(errors)
        return {"value": value, "seats": seats, "re_seats": re_seats}

    def result(self) -> dict:
        validated_data = self.validated_data
        value = validated_data["value"]
        result = {
            "winner": value.winner.value if value.winner else "none",
            "settled_as": "solo" if value.settled_as_solo else "normal",
            "re_value": value.re_value,
            "breakdown": [
                {
                    "rule": item.rule,
                    "label": gettext(item.label),
                    "team": item.team.value,
                    "points": item.points,
                }
                for item in value.breakdown
            ],
        }
        if validated_data["re_seats"] is not None:
            result["scores"] = seat_dict(
                seat_points(
                    seats=validated_data["seats"],
                    re_seats=validated_data["re_seats"],
                    re_value=value.re_value,
                    settled_as_solo=value.settled_as_solo,
                )
            )
        return result


@extend_schema(
    tags=["rules"],
    request=HandValueRequestSerializer,
    responses={200: HandValueResponseSerializer},
    examples=[
        OpenApiExample(
            "Contra announced and won with 160",
            request_only=True,
            value={
                "contract": "normal",
                "re_card_points": 80,
                "re_tricks": 4,
                "contra_announcement": "contra",
                "re_seats": [1, 3],
            },
        )
    ],
)
class HandValueView(PublicRulesView):
    """Who won a hand and what it is worth (TSR 7.1, 7.2).

    One breakdown item per line of TSR 7.2.2 (a)-(f) and 7.2.3 that applied, each credited to
    one team; `re_value` is what Re was credited less what Contra was.
    """

    request_serializer = HandValueRequestSerializer


# 2. Penalty points ----------------------------------------------------------------------------


class PenaltyResponseSerializer(serializers.Serializer):
    points = serializers.DictField(child=serializers.IntegerField(), help_text="Per seat")
    hand_not_played = serializers.BooleanField(
        help_text="Major breach in a normal game (or by the soloist): the hand is stopped, "
        "counts as not played and is dealt again (TSR 9.4.3); false for a game already "
        "decided (TSR 9.5.1)"
    )
    played_without_game_points = serializers.BooleanField(
        help_text="Major breach by an opponent of the soloist (TSR 9.4.4): the solo counts as "
        "played (the deal passes on, a compulsory solo is the soloist's) but scores no game "
        "points, its game value 0: only these penalty points count"
    )
    rule = serializers.CharField()


class PenaltyRequestSerializer(serializers.Serializer):
    severity = serializers.ChoiceField(choices=[severity.value for severity in Severity])
    contract = serializers.ChoiceField(
        choices=["normal", "solo"],
        help_text="As the hand stood when the breach happened. A wedding (TSR 4.4) is `normal` "
        "until it turns into a solo and `solo` after, with the holder of both Queens of Clubs "
        "as `soloist`: an announced wedding whose holder took the first three tricks is "
        "`normal` up to and including the clarification trick and `solo` after it "
        "(TSR 4.4.3 b); a silent wedding is `normal` until the second Queen of Clubs is "
        "played and `solo` from then on (TSR 4.4.5); a wedding with a partner stays `normal`.",
    )
    seats = _seat_list(default=[1, 2, 3, 4], min_length=4, max_length=4)
    offender = serializers.IntegerField(min_value=1, max_value=TABLE_OF_SEVEN)
    soloist = serializers.IntegerField(
        min_value=1,
        max_value=TABLE_OF_SEVEN,
        allow_null=True,
        default=None,
        help_text="In a solo; in a wedding played as a solo, the holder of both Queens of Clubs",
    )
    disadvantages_soloist = serializers.BooleanField(
        default=False, help_text="Minor breach by a Contra player in a solo: TSR 9.3.3 b1, not b2"
    )
    announcements = serializers.IntegerField(
        min_value=0,
        max_value=MOST_ANNOUNCEMENTS,
        default=0,
        help_text="Announcements of the non-offending side up to the breach, each implied "
        "level counted (TSR 6.4.3). By the German original only the point announcements "
        "(all but the first, “Re”/“Contra”) raise a major penalty, by 3 each (TSR 9.4.3, "
        "9.4.4): 12, 15, 18, 21, 24.",
    )
    decided = serializers.BooleanField(
        default=False,
        help_text="A major breach after one side had already won the game after the "
        "announcements, counting only tricks completed correctly (TSR 7.1, 9.5.1): the game "
        "ends there, the remaining tricks from the breach on go to the offender's opponents "
        "(read so from the German *Gegenpartei*), the hand is scored with them and not "
        "replayed (`hand_not_played` is false), and the breach is penalised as a minor one "
        "(TSR 9.3.2; in a solo 9.3.3). Only with severity `major`.",
    )

    def validate(self, data):
        breach = Breach(
            severity=Severity(data["severity"]),
            offender=data["offender"],
            solo=data["contract"] == "solo",
            soloist=data["soloist"],
            seats=tuple(data["seats"]),
            disadvantages_soloist=data["disadvantages_soloist"],
            announcements=data["announcements"],
            decided=data["decided"],
        )
        try:
            return {"penalty": penalty_points(breach)}
        except InvalidInput as error:
            raise _invalid(error) from error

    def result(self) -> dict:
        validated_data = self.validated_data
        penalty = validated_data["penalty"]
        return {
            "points": seat_dict(penalty.points),
            "hand_not_played": penalty.hand_not_played,
            "played_without_game_points": penalty.played_without_game_points,
            "rule": penalty.rule,
        }


@extend_schema(
    tags=["rules"],
    request=PenaltyRequestSerializer,
    responses={200: PenaltyResponseSerializer},
    examples=[
        OpenApiExample(
            "Major breach by an opponent of the soloist after “no 90”",
            request_only=True,
            value={
                "severity": "major",
                "contract": "solo",
                "offender": 2,
                "soloist": 4,
                "announcements": 2,
            },
        ),
        OpenApiExample(
            "Minor breach against the holder of a silent wedding after the second Queen of Clubs",
            request_only=True,
            value={
                "severity": "minor",
                "contract": "solo",
                "offender": 1,
                "soloist": 3,
                "disadvantages_soloist": True,
            },
        ),
        OpenApiExample(
            "Major breach in a game already won after the announcements",
            request_only=True,
            value={
                "severity": "major",
                "contract": "normal",
                "offender": 3,
                "announcements": 2,
                "decided": True,
            },
        ),
    ],
)
class PenaltyView(PublicRulesView):
    """Penalty points for a breach of the rules (TSR 9.2-9.5).

    With `decided` a major breach in a game one side had already won ends the game: the
    remaining tricks go to the offender's opponents, the hand is scored, and the breach costs
    what a minor one does (TSR 9.5.1).
    """

    request_serializer = PenaltyRequestSerializer


# 3. Scoresheet check --------------------------------------------------------------------------


class SheetHandSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[contract.value for contract in Contract])
    dealer = serializers.IntegerField(min_value=1, max_value=TABLE_OF_SEVEN)
    soloist = soloist_field()
    points = SeatsField(help_text="Game points per seat; a sitting-out dealer may be left out")
    penalty = SeatsField(
        allow_null=True, default=None, help_text="Penalty points per seat (TSR 9), or null"
    )

    def validate(self, data):
        kind = Contract(data["kind"])
        if kind.names_soloist and data["soloist"] is None:
            raise serializers.ValidationError(
                {"soloist": [gettext("Name the soloist of a solo (TSR 2.4.7, 4.4.5).")]}
            )
        if data["soloist"] is not None and kind is Contract.NORMAL:
            raise serializers.ValidationError(
                {"soloist": [gettext("A normal game has no soloist (TSR 2.4.4).")]}
            )
        return data


class ScoresheetCheckRequestSerializer(serializers.Serializer):
    players = serializers.ChoiceField(choices=list(TABLE_SIZES))  # 6 and 7: TSR 10
    hands_per_match = serializers.IntegerField(
        min_value=1,
        max_value=60,
        allow_null=True,
        default=None,
        help_text="Every line of the round, compulsory and forced solos included: default 24 "
        "at four (20 + 4 compulsory solos, TSR 8.5.1), 30 at five (25 + 5, TSR 10.1.5, 10.2.1), "
        "36 at six and 42 at seven (TSR 10 as the manual reads it); "
        "at least two per player",
    )
    time_over_after_hand = serializers.IntegerField(
        min_value=0,
        allow_null=True,
        default=None,
        help_text="Hands played when the playing time ended; afterwards only forced solos "
        "(TSR 8.5.3)",
    )
    # With many=True the serializer is a ListSerializer, which takes max_length; the stubs omit
    # it.
    hands = SheetHandSerializer(many=True, max_length=MOST_HANDS)  # type: ignore[call-arg]

    def validate(self, data):
        size = data["players"]
        if data["hands_per_match"] is not None and data["hands_per_match"] < 2 * size:
            raise serializers.ValidationError(
                {
                    "hands_per_match": [
                        ngettext(
                            "A round at a table of {size} has at least {least} hand: one dealt "
                            "by each player and a compulsory solo by each (TSR 3.3.1, 4.2.3).",
                            "A round at a table of {size} has at least {least} hands: one dealt "
                            "by each player and a compulsory solo by each (TSR 3.3.1, 4.2.3).",
                            2 * size,
                        ).format(size=size, least=2 * size)
                    ]
                }
            )
        errors: dict[str, dict] = {}  # by position in the list, as DRF reports nested errors
        lines = []
        for index, hand in enumerate(data["hands"]):
            problems = hand_seat_problems(
                dealer=hand["dealer"],
                soloist=hand["soloist"],
                seats={"points": hand["points"], "penalty": hand["penalty"]},
                size=size,
            )
            if problems:
                errors[str(index)] = problems
            else:
                seats = range(1, size + 1)
                lines.append(
                    HandLine(
                        contract=Contract(hand["kind"]),
                        dealer=hand["dealer"],
                        soloist=hand["soloist"],
                        points={seat: hand["points"].get(seat, 0) for seat in seats},
                        penalty=hand["penalty"],
                    )
                )
        if errors:
            raise serializers.ValidationError({"hands": errors})
        return {**data, "lines": lines}

    def result(self) -> dict:
        validated_data = self.validated_data
        size = validated_data["players"]
        result = check_sheet(
            table_size=size,
            hands_per_match=validated_data["hands_per_match"] or HANDS_PER_MATCH[size],
            hands=validated_data["lines"],
            time_over_after_hand=validated_data["time_over_after_hand"],
        )
        return check_data(result)


@extend_schema(
    tags=["rules"],
    request=ScoresheetCheckRequestSerializer,
    responses={200: ScoresheetCheckResponseSerializer},
    examples=[
        OpenApiExample(
            "Two hands, the second one dealt by the wrong seat (a warning, TSR 9.7.3)",
            request_only=True,
            value={
                "players": 4,
                "hands": [
                    {"kind": "normal", "dealer": 1, "points": {"1": 2, "2": -2, "3": 2, "4": -2}},
                    {"kind": "normal", "dealer": 3, "points": {"1": 1, "2": 1, "3": -1, "4": -1}},
                ],
            },
        )
    ],
)
class ScoresheetCheckView(PublicRulesView):
    """Check a scoresheet hand by hand (TSR 3.3, 4.2, 4.3.1, 7.2, 7.3.3, 8.5, 8.6, 10.1).

    Every problem is reported, not only the first, with what the next hand must be. A round has
    24 hands at a table of four and 30 at a table of five, the compulsory solos included (TSR
    8.5.1, 10.1.5, 10.2.1). A hand dealt by the wrong player is a warning, not a problem: it
    stands if nobody complained in time (TSR 9.7.3).
    """

    request_serializer = ScoresheetCheckRequestSerializer
