"""The rules core and the rules API (issue 3).

Figures: checking a complete 24-hand scoresheet (compulsory solos included) in the plain core,
a hand's game value and a penalty, each against building its input (what any caller pays just
to ask), in the thread's processor time, the three in rotation with their baselines; the
scoresheet check through the API (in-process: serializer, core, response; its rate limit asks
the cache, so in wall time) in turn with an empty API view.
"""

import random

from bench.figures import Figure, in_rotation, in_turn, timer


def core_figures() -> list[Figure]:
    from doko.rules.contracts import Contract
    from doko.rules.penalty import Breach, Severity, penalty_points
    from doko.rules.sheet import HandLine, check_sheet
    from doko.rules.value import Announcement, Game, HandResult, Specials, hand_value
    from doko.simulation import simulate_match

    sheet = simulate_match(rng=random.Random(7), table_size=4, hands_per_match=24)
    plain = [(line.contract.value, line.dealer, dict(line.points), line.soloist) for line in sheet]

    def build_sheet():
        return [
            HandLine(contract=Contract(kind), dealer=dealer, points=points, soloist=soloist)
            for kind, dealer, points, soloist in plain
        ]

    lines = build_sheet()

    def check():
        return check_sheet(table_size=4, hands_per_match=24, hands=lines)

    result = check()
    assert result.ok
    assert result.complete

    def build_hand():
        return HandResult(
            game=Game("normal"),
            re_card_points=187,
            re_tricks=9,
            re_announcement=Announcement.NO_90,
            contra_announcement=Announcement.TEAM,
            re_specials=Specials(doppelkopf=1, fox=1),
            contra_specials=Specials(charlie=1),
        )

    hand = build_hand()

    def build_breach():
        return Breach(severity=Severity("major"), offender=2, solo=True, soloist=4, announcements=3)

    breach = build_breach()
    # In the thread's processor time (plain Python, nothing else involved), in rotation.
    check_pairs, value_pairs, penalty_pairs = in_rotation(
        [
            (timer(check, cpu=True), timer(build_sheet, cpu=True)),
            (timer(lambda: hand_value(hand), cpu=True), timer(build_hand, cpu=True)),
            (timer(lambda: penalty_points(breach), cpu=True), timer(build_breach, cpu=True)),
        ]
    )
    return [
        Figure.paired(f"check_sheet, {len(lines)} lines", check_pairs, "build them"),
        Figure.paired("hand_value", value_pairs, "build it"),
        Figure.paired("penalty_points", penalty_pairs, "build it"),
    ]


def api_figures() -> list[Figure]:
    from django.test import override_settings
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.test import APIRequestFactory
    from rest_framework.views import APIView

    from doko.simulation import simulate_match
    from scoring.api.rules import ScoresheetCheckView

    class EmptyView(APIView):
        authentication_classes: list = []
        permission_classes = [AllowAny]

        def post(self, request):
            return Response({})

    sheet = simulate_match(rng=random.Random(7), table_size=4, hands_per_match=24)
    body = {
        "players": 4,
        "hands": [
            {
                "kind": line.contract.value,
                "dealer": line.dealer,
                "soloist": line.soloist,
                "points": {str(seat): points for seat, points in line.points.items()},
            }
            for line in sheet
        ],
    }
    factory = APIRequestFactory()
    check_view, empty_view = ScoresheetCheckView.as_view(), EmptyView.as_view()

    def call(view):
        def run():
            response = view(factory.post("/", body, format="json"))
            response.render()
            assert response.status_code == 200, response.data
            return response

        return run

    assert call(check_view)().data["ok"]
    with override_settings(
        PUBLIC_API_RATE_CLIENT="1000000000/s", PUBLIC_API_RATE_ADDRESS="1000000000/s"
    ):
        return [
            Figure.paired(
                "POST rules/scoresheet-check (in-process)",
                in_turn(call(check_view), call(empty_view)),
                "empty API view",
            )
        ]


def figures() -> list[Figure]:
    return core_figures() + api_figures()
