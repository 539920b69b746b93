"""Winner and game value of a hand (TSR 7.1, 7.2), worked through line by line."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from doko.rules.contracts import SoloType
from doko.rules.problems import InvalidInput
from doko.rules.settlement import seat_points
from doko.rules.value import (
    MOST_DOPPELKOPF,
    Announcement,
    Game,
    HandResult,
    Specials,
    Team,
    card_points_bounds,
    check_hand_result,
    hand_value,
    highest_game_value,
    wins,
)

A = Announcement


def hand(points, tricks=None, *, game=Game.NORMAL, re=A.NONE, contra=A.NONE, **kwargs):
    """A hand in which Re took ``points`` card points (and, unless given, a plausible number of
    tricks for them)."""
    if tricks is None:
        tricks = 0 if points == 0 else 12 if points == 240 else min(max(points // 20, 1), 11)
    if game is Game.SOLO:
        kwargs.setdefault("solo_type", SoloType.QUEENS)
    return HandResult(
        game=game,
        re_card_points=points,
        re_tricks=tricks,
        re_announcement=re,
        contra_announcement=contra,
        **kwargs,
    )


def items(result):
    return [(item.rule, item.label, item.team.value, item.points) for item in result.breakdown]


# TSR 7.1.2 / 7.1.3: who wins --------------------------------------------------------------


@pytest.mark.parametrize(
    ("re", "contra", "re_points", "winner"),
    [
        # 1. no announcement: Re needs 121, Contra 120.
        (A.NONE, A.NONE, 121, Team.RE),
        (A.NONE, A.NONE, 120, Team.CONTRA),
        # 2. only "Re".
        (A.TEAM, A.NONE, 121, Team.RE),
        (A.TEAM, A.NONE, 120, Team.CONTRA),
        # 3. "Re" and "Contra".
        (A.TEAM, A.TEAM, 121, Team.RE),
        (A.TEAM, A.TEAM, 120, Team.CONTRA),
        # 4. only "Contra": Re wins with 120, Contra needs 121.
        (A.NONE, A.TEAM, 120, Team.RE),
        (A.NONE, A.TEAM, 119, Team.CONTRA),
        # 5. Re's point announcements: 151, 181, 211; short of them Contra wins with 90, 60, 30.
        (A.NO_90, A.NONE, 151, Team.RE),
        (A.NO_90, A.NONE, 150, Team.CONTRA),
        (A.NO_60, A.NONE, 181, Team.RE),
        (A.NO_60, A.NONE, 180, Team.CONTRA),
        (A.NO_30, A.TEAM, 211, Team.RE),
        (A.NO_30, A.TEAM, 210, Team.CONTRA),
        # 5. Contra's point announcements, alike.
        (A.NONE, A.NO_90, 89, Team.CONTRA),
        (A.NONE, A.NO_90, 90, Team.RE),
        (A.TEAM, A.NO_60, 59, Team.CONTRA),
        (A.TEAM, A.NO_60, 60, Team.RE),
        (A.NONE, A.NO_30, 29, Team.CONTRA),
        (A.NONE, A.NO_30, 30, Team.RE),
        # 7.1.4: both short of their own announcement, nobody wins.
        (A.NO_90, A.NO_90, 150, None),
        (A.NO_90, A.NO_90, 90, None),
        (A.NO_90, A.NO_90, 151, Team.RE),
        (A.NO_90, A.NO_90, 89, Team.CONTRA),
        (A.NO_60, A.NO_90, 160, None),
    ],
)
def test_winner_by_card_points(re, contra, re_points, winner):
    assert hand_value(hand(re_points, re=re, contra=contra)).winner == winner


def test_schwarz_announced_needs_every_trick():
    assert hand_value(hand(240, 12, re=A.SCHWARZ)).winner is Team.RE
    # 7.1.3 no. 8: Contra wins with its first trick, even one without card points.
    assert hand_value(hand(240, 11, re=A.SCHWARZ)).winner is Team.CONTRA
    assert hand_value(hand(0, 0, contra=A.SCHWARZ)).winner is Team.CONTRA
    assert hand_value(hand(0, 1, contra=A.SCHWARZ)).winner is Team.RE


def test_a_team_committed_to_more_does_not_win_with_the_lower_bar():
    # 7.1.2 no. 7: Re wins with 90 against "no 90" only if it did not commit to more itself.
    assert hand_value(hand(100, re=A.NO_90, contra=A.NO_90)).winner is None
    assert hand_value(hand(100, re=A.TEAM, contra=A.NO_90)).winner is Team.RE


# TSR 7.2.2: the value, line by line ---------------------------------------------------------


def test_a_plain_win_is_worth_one_point():
    result = hand_value(hand(121))
    assert result.re_value == 1
    assert items(result) == [("TSR 7.2.2 (a)", "Won", "re", 1)]


@pytest.mark.parametrize(
    ("re_points", "tricks", "value"),
    [(151, 7, 2), (181, 9, 3), (211, 10, 4), (240, 11, 4), (240, 12, 5)],
)
def test_levels_the_losers_stayed_under_each_add_a_point(re_points, tricks, value):
    # (a): under 90, under 60, under 30, schwarz (no trick at all).
    assert hand_value(hand(re_points, tricks)).re_value == value


def test_contra_winning_gets_a_point_for_beating_the_queens_of_clubs():
    result = hand_value(hand(100))
    assert result.re_value == -2
    assert ("TSR 7.2.3", "Won against the Queens of Clubs", "contra", 1) in items(result)


@pytest.mark.parametrize(
    ("re", "contra", "re_points", "re_value"),
    [
        (A.TEAM, A.NONE, 121, 3),  # (b) "Re": 2
        (A.NONE, A.TEAM, 120, 3),  # (b) "Contra": 2, and Re wins with 120
        (A.TEAM, A.TEAM, 121, 5),  # both
        (A.NO_90, A.NONE, 151, 5),  # won 1, under 90 1, Re 2, no 90 1
        (A.NO_60, A.NONE, 181, 7),
        (A.NO_30, A.NONE, 211, 9),
    ],
)
def test_announcements_raise_the_winners_value(re, contra, re_points, re_value):
    assert hand_value(hand(re_points, re=re, contra=contra)).re_value == re_value


def test_schwarz_announced_and_made_is_the_highest_normal_game():
    # (a) 5, (b) 2, (c) 4.
    assert hand_value(hand(240, 12, re=A.SCHWARZ)).re_value == 11


def test_contra_announcements_count_for_re_when_re_wins():
    # Contra announced "no 60"; Re reached 90 against it: won 1, Contra 2, no 90 1, no 60 1,
    # 90 against "no 60" 1, and (e) 120 against "no 90"? No: Re has 100.
    result = hand_value(hand(100, re=A.NONE, contra=A.NO_60))
    assert result.winner is Team.RE
    assert result.re_value == 6
    assert ("TSR 7.2.2 (e)", "90 card points against “no 60”", "re", 1) in items(result)
    assert ("TSR 7.2.2 (d)", "Contra announced “no 60”", "re", 1) in items(result)


def test_failed_point_announcement_is_scored_for_the_winner():
    # Re announced "no 90" and "no 60" but made only 130: Contra wins 7 (a worked example
    # of the DDV's check-list): won 1, "Re" 2, no 90 1, no 60 1, (f) 90 against "no 60" 1,
    # against the Queens of Clubs 1.
    result = hand_value(hand(130, re=A.NO_60))
    assert result.winner is Team.CONTRA
    assert result.re_value == -7
    assert ("TSR 7.2.2 (f)", "90 card points against “no 60”", "contra", 1) in items(result)


def test_contra_announced_and_won_with_160():
    # Won 1, Re under 90 1, "Contra" 2, against the Queens of Clubs 1.
    assert hand_value(hand(80, contra=A.TEAM)).re_value == -5


@pytest.mark.parametrize(
    ("announced", "contra_points", "credited"),
    [(A.NO_90, 120, 1), (A.NO_60, 90, 1), (A.NO_30, 60, 1), (A.SCHWARZ, 30, 1)],
)
def test_reaching_the_limit_against_a_point_announcement(announced, contra_points, credited):
    # (f): Contra reached 120 (90, 60, 30) against Re's "no 90" ("no 60", "no 30", "schwarz").
    result = hand_value(hand(240 - contra_points, 8, re=announced))
    reached = [item for item in result.breakdown if item.rule == "TSR 7.2.2 (f)"]
    assert [item.points for item in reached] == [credited]


def test_nobody_wins_then_only_a_e_f_and_bonus_points_count():
    # 7.1.4: Re announced "no 90", Contra "no 90"; Re made 140. Re reached 120 against
    # "no 90" (e); neither stayed under 90; no base point, no announcement points.
    result = hand_value(hand(140, re=A.NO_90, contra=A.NO_90, contra_specials=Specials(fox=1)))
    assert result.winner is None
    assert items(result) == [
        ("TSR 7.2.2 (e)", "120 card points against “no 90”", "re", 1),
        ("TSR 7.2.3", "Fox caught", "contra", 1),
    ]
    assert result.re_value == 0


def test_nobody_wins_and_one_team_stayed_under_90():
    # Re "no 60" (needs 181), Contra "no 90" (needs 151); Re made 170, Contra 70: nobody won.
    # Contra under 90 credits Re; Contra reached nothing against "no 60" (needs 90).
    result = hand_value(hand(170, 9, re=A.NO_60, contra=A.NO_90))
    assert result.winner is None
    assert items(result) == [
        ("TSR 7.2.2 (a)", "Opponents under 90", "re", 1),
        ("TSR 7.2.2 (e)", "120 card points against “no 90”", "re", 1),
    ]
    assert result.re_value == 2


# TSR 7.2.3: bonus points --------------------------------------------------------------------


def test_bonus_points_are_offset_before_the_value():
    result = hand_value(
        hand(
            150,
            re_specials=Specials(doppelkopf=1, charlie=1),
            contra_specials=Specials(fox=2),
        )
    )
    # Re: won 1, Contra under 90? 90 is not under 90: 0. Bonus: Re 2, Contra 2.
    assert result.re_value == 1


def test_bonus_points_can_turn_a_win_into_minus_points():
    result = hand_value(hand(121, contra_specials=Specials(fox=2, doppelkopf=1)))
    assert result.winner is Team.RE
    assert result.re_value == -2


def test_wedding_played_as_normal_game_keeps_bonus_points():
    result = hand_value(hand(100, game=Game.WEDDING, re_specials=Specials(fox=1)))
    assert not result.settled_as_solo
    # Contra: won 1, against the Queens of Clubs 1; Re: fox 1.
    assert result.re_value == -1


# TSR 7.2.4: solos ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [
        (Game.SOLO, {}),
        (Game.SILENT_WEDDING, {}),
        (Game.WEDDING, {"wedding_solo": True}),
    ],
)
def test_solos_count_only_the_lines_of_7_2_2(game, kwargs):
    result = hand_value(hand(100, game=game, re=A.TEAM, **kwargs))
    assert result.settled_as_solo
    # Contra: won 1, "Re" 2; no point for beating the Queens of Clubs.
    assert result.re_value == -3
    assert all(item.rule.startswith("TSR 7.2.2") for item in result.breakdown)


def test_solo_won_pays_the_soloist_three_times():
    result = hand_value(hand(185, 9, game=Game.SOLO, re=A.TEAM))
    # won 1, under 90 1, under 60 1, "Re" 2.
    assert result.re_value == 5
    scores = seat_points(seats=(1, 2, 3, 4), re_seats=(3,), re_value=5, settled_as_solo=True)
    assert scores == {1: -5, 2: -5, 3: 15, 4: -5}


# Input that cannot be right -------------------------------------------------------------------


def fields(result: HandResult) -> set[str]:
    return {error.field for error in check_hand_result(result)}


@pytest.mark.parametrize(
    ("result", "field"),
    [
        (hand(241, 12), "re_card_points"),
        (hand(10, 13), "re_tricks"),
        (hand(10, 0), "re_card_points"),  # no trick, but card points
        (hand(230, 12), "re_tricks"),  # Contra has 10 card points and no trick
        (hand(100, 2), "re_card_points"),  # two tricks hold at most 88
        (hand(100, game=Game.SOLO, re_specials=Specials(fox=1)), "re_specials"),
        (
            hand(100, game=Game.SILENT_WEDDING, contra_specials=Specials(charlie=1)),
            "contra_specials",
        ),
        (
            hand(100, re_specials=Specials(fox=2), contra_specials=Specials(fox=1)),
            "contra_specials",
        ),
        (
            hand(100, re_specials=Specials(charlie=1), contra_specials=Specials(charlie=1)),
            "contra_specials",
        ),
        (hand(100, re_specials=Specials(doppelkopf=3)), "re_specials"),  # 3 x 40 > 100
        (hand(0, 0, contra_specials=Specials(), re_specials=Specials(charlie=1)), "re_specials"),
        (hand(100, game=Game.NORMAL, wedding_solo=True), "wedding_solo"),
        (HandResult(game=Game.SOLO, re_card_points=100, re_tricks=6), "solo_type"),
        (hand(100, solo_type=SoloType.HEARTS), "solo_type"),
    ],
)
def test_inconsistent_input_names_the_field(result, field):
    assert field in fields(result)
    with pytest.raises(InvalidInput) as raised:
        hand_value(result)
    assert all(error.rule.startswith("TSR") for error in raised.value.errors)


@pytest.mark.parametrize(
    ("points", "tricks"),
    [(0, 5), (27, 5), (130, 3), (129, 3), (240, 6), (10, 0), (230, 12), (1, 12), (197, 1)],
)
def test_card_points_that_the_tricks_cannot_hold_name_both_fields(points, tricks):
    errors = [
        error for error in check_hand_result(hand(points, tricks)) if error.rule == "TSR 2.2.2"
    ]
    assert {error.field for error in errors} == {"re_card_points", "re_tricks"}
    least, most = card_points_bounds(tricks)
    assert f"between {least} and {most} card points, not {points}" in errors[0].message


def test_card_point_bounds_of_the_issue():
    assert card_points_bounds(5)[0] == 28
    assert card_points_bounds(3)[1] == 128
    assert card_points_bounds(0) == (0, 0)
    assert card_points_bounds(12) == (240, 240)


def _pack():
    # TSR 2.2.1, 2.2.2: 24 cards twice: in each of four suits a nine, jack, queen, king, ten
    # and ace, each twice. Typed out here, apart from the core's PACK.
    return [value for value in (0, 2, 3, 4, 10, 11) for _suit in range(4) for _copy in range(2)]


@given(st.permutations(_pack()), st.integers(0, 12))
def test_tricks_taken_from_a_real_deal_pass_the_bounds(cards, tricks):
    """Any 4k cards of a shuffled pack, taken as the tricks of one team, pass; so does the
    other team's rest."""
    points = sum(cards[: 4 * tricks])
    assert not [e for e in check_hand_result(hand(points, tricks)) if e.field == "re_tricks"]
    least, most = card_points_bounds(tricks)
    assert least <= points <= most
    other_least, other_most = card_points_bounds(12 - tricks)
    assert other_least <= 240 - points <= other_most


@pytest.mark.parametrize("tricks", range(13))
def test_card_point_bounds_are_tight(tricks):
    """The lowest and the highest 4k cards are real tricks: the bounds are reached, and one
    point beyond either is refused."""
    pack = sorted(_pack())
    least, most = card_points_bounds(tricks)
    assert least == sum(pack[: 4 * tricks])
    assert most == sum(pack[len(pack) - 4 * tricks :])
    assert not check_hand_result(hand(least, tricks))
    assert not check_hand_result(hand(most, tricks))
    if least > 0:
        assert "re_tricks" in fields(hand(least - 1, tricks))
    if most < 240:
        assert "re_tricks" in fields(hand(most + 1, tricks))


def test_every_error_is_reported_at_once():
    result = hand(
        100,
        game=Game.SOLO,
        re_specials=Specials(fox=1),
        contra_specials=Specials(charlie=1),
        wedding_solo=True,
    )
    assert fields(result) == {"re_specials", "contra_specials", "wedding_solo"}


# Laws (Hypothesis) ----------------------------------------------------------------------------


@st.composite
def hand_results(draw, games=tuple(Game)):
    tricks = draw(st.integers(0, 12))
    if tricks == 0:
        points = 0
    elif tricks == 12:
        points = 240
    else:
        points = draw(st.integers(*card_points_bounds(tricks)))
    game = draw(st.sampled_from(games))
    wedding_solo = game is Game.WEDDING and draw(st.booleans())
    solo = game in (Game.SOLO, Game.SILENT_WEDDING) or wedding_solo

    def specials(team_points, most_doppelkopf):
        if solo:
            return Specials()
        return Specials(
            doppelkopf=draw(st.integers(0, min(team_points // 40, most_doppelkopf))),
            fox=draw(st.integers(0, min(1, team_points // 11))),
            charlie=0,
        )

    re_specials = specials(points, MOST_DOPPELKOPF)
    contra_specials = specials(240 - points, MOST_DOPPELKOPF - re_specials.doppelkopf)
    return HandResult(
        game=game,
        re_card_points=points,
        re_tricks=tricks,
        re_announcement=draw(st.sampled_from(list(Announcement))),
        contra_announcement=draw(st.sampled_from(list(Announcement))),
        re_specials=re_specials,
        contra_specials=contra_specials,
        wedding_solo=wedding_solo,
        solo_type=SoloType.JACKS if game is Game.SOLO else None,
    )


def swapped(result: HandResult) -> HandResult:
    return HandResult(
        game=result.game,
        re_card_points=240 - result.re_card_points,
        re_tricks=12 - result.re_tricks,
        re_announcement=result.contra_announcement,
        contra_announcement=result.re_announcement,
        re_specials=result.contra_specials,
        contra_specials=result.re_specials,
        wedding_solo=result.wedding_solo,
        solo_type=result.solo_type,
    )


@given(hand_results())
def test_at_most_one_team_wins(result):
    assert not (wins(result, Team.RE) and wins(result, Team.CONTRA))


@given(hand_results(), st.permutations([1, 2, 3, 4]))
def test_every_settled_hand_sums_to_zero_and_keeps_parity(result, order):
    value = hand_value(result)
    re_seats = order[:1] if value.settled_as_solo else order[:2]
    scores = seat_points(
        seats=(1, 2, 3, 4),
        re_seats=re_seats,
        re_value=value.re_value,
        settled_as_solo=value.settled_as_solo,
    )
    assert sum(scores.values()) == 0
    assert len({score % 2 for score in scores.values()}) == 1  # TSR 7.3.3.2


@given(hand_results())
def test_swapping_re_and_contra_flips_the_sign(result):
    # The one asymmetry of TSR 7.1 is the tie at 120 without point announcements (Re needs
    # 121, or Contra after a lone "Contra"); and only Contra can beat the Queens of Clubs.
    assume(
        result.re_card_points != 120
        or max(result.re_announcement, result.contra_announcement) >= Announcement.NO_90
    )

    def value_without_queens(hand_result):
        value = hand_value(hand_result)
        queens = sum(
            item.points if item.team is Team.RE else -item.points
            for item in value.breakdown
            if item.label == "Won against the Queens of Clubs"
        )
        return value.re_value - queens, value.winner

    value, winner = value_without_queens(result)
    flipped, flipped_winner = value_without_queens(swapped(result))
    assert flipped == -value
    assert flipped_winner == (winner.other if winner else None)


@given(hand_results())
def test_the_value_is_the_sum_of_its_breakdown(result):
    value = hand_value(result)
    assert value.re_value == sum(
        item.points * (1 if item.team is Team.RE else -1) for item in value.breakdown
    )
    if value.winner is None:
        assert {item.rule for item in value.breakdown} <= {
            "TSR 7.2.2 (a)",
            "TSR 7.2.2 (e)",
            "TSR 7.2.2 (f)",
            "TSR 7.2.3",
        }


@given(hand_results())
def test_no_hand_is_worth_more_than_the_highest_value(result):
    value = hand_value(result)
    assert abs(value.re_value) <= highest_game_value(settled_as_solo=value.settled_as_solo)


def _extremes():
    """Every combination of announcements with the card points and tricks at the edges of the
    win levels (TSR 7.1), and the bonus points all to one team or none (TSR 7.2.3)."""
    edges = (0, 29, 30, 59, 60, 89, 90, 119, 120, 121, 150, 151, 180, 181, 210, 211, 240)
    for points in edges:
        for tricks in (0, 1, 11, 12):  # impossible pairs are refused by hand_value
            for re_said in Announcement:
                for contra_said in Announcement:
                    yield points, tricks, re_said, contra_said


@pytest.mark.parametrize("settled_as_solo", [False, True])
def test_the_highest_value_is_reached_and_never_passed(settled_as_solo):
    # 7.2.2 (a)-(f) make 21; a normal game adds 8 bonus points (TSR 7.2.3).
    best = 0
    for points, tricks, re_said, contra_said in _extremes():
        team_specials = [Specials()]
        if not settled_as_solo:
            team_specials.append(Specials(doppelkopf=4, fox=2, charlie=1))
        for specials in team_specials:
            for to_re in (True, False):
                result = HandResult(
                    game=Game.SOLO if settled_as_solo else Game.NORMAL,
                    re_card_points=points,
                    re_tricks=tricks,
                    re_announcement=re_said,
                    contra_announcement=contra_said,
                    re_specials=specials if to_re else Specials(),
                    contra_specials=Specials() if to_re else specials,
                    solo_type=SoloType.ACES if settled_as_solo else None,
                )
                try:
                    value = hand_value(result)
                except InvalidInput:
                    continue
                best = max(best, abs(value.re_value))
    assert (
        best
        == highest_game_value(settled_as_solo=settled_as_solo)
        == (21 if settled_as_solo else 29)
    )


def test_more_than_four_doppelkopf_tricks_are_refused():
    with pytest.raises(InvalidInput) as raised:
        hand_value(
            hand(
                160,
                8,
                re_specials=Specials(doppelkopf=3),
                contra_specials=Specials(doppelkopf=2),
            )
        )
    assert [error.rule for error in raised.value.errors] == ["TSR 2.2.2, 7.2.3"]


def test_one_trick_is_said_in_the_singular():
    error, _ = check_hand_result(hand(50, 1))
    assert error.message == "Re took 1 trick, which holds between 0 and 44 card points, not 50."
    error, _ = check_hand_result(hand(100, 2))
    assert error.message == "Re took 2 tricks, which hold between 0 and 88 card points, not 100."
