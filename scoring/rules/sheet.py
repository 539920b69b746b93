"""Checking a scoresheet hand by hand (TSR 3.3.1, 4.2, 4.3.1, 7.3.3, 8.5, 8.6, 10.1).

``check_sheet`` reports every problem at once, so a scorekeeper sees all that is wrong, and says
what the next hand must be. Messages are English templates marked for translation; the Django
layer translates them (``scoring.messages``).
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.rules.contracts import Contract, Section, SoloType
from scoring.rules.deal import (
    check_table_size,
    forced_solo_due,
    forced_soloist,
    next_dealer,
    playing_seats,
)
from scoring.rules.problems import gettext_noop


@dataclass(frozen=True)
class HandLine:
    """One hand as the scoresheet records it. ``points`` has an entry for every seat.

    ``game_value`` is the Spielwert (TSR 7.2): what each winner of a normal game receives, and a
    third of what a soloist wins or loses (TSR 7.2.4). ``soloist`` is also the holder of both
    Queens of Clubs in a wedding settled as a solo (TSR 4.4.3 b, 4.4.5).
    """

    contract: Contract
    dealer: int
    points: Mapping[int, int]
    soloist: int | None = None
    solo_type: SoloType | None = None
    game_value: int | None = None
    penalty: Mapping[int, int] | None = None  # penalty points (TSR 9.3, 9.4), kept apart
    # Stopped by a major breach and counted as not played (TSR 9.4.3): no game points, the
    # same dealer deals again, and it is not one of the match's hands.
    not_played: bool = False

    @property
    def settled_as_solo(self) -> bool:
        return self.soloist is not None

    def score(self, seat: int) -> int:
        """What the hand adds to the seat's total: game points and penalty points."""
        return self.points[seat] + (self.penalty.get(seat, 0) if self.penalty else 0)

    @property
    def penalty_favours_soloist(self) -> bool:
        """Penalty points in a solo credited to the soloist alone, +x to him and -x to one
        opponent: the one case that may break the odd-even rule (TSR 7.3.3.2, 9.3.3 b1, 9.4.4).
        """
        if not self.penalty or not self.settled_as_solo:
            return False
        credit = self.penalty.get(self.soloist, 0)
        others = sorted(v for seat, v in self.penalty.items() if seat != self.soloist and v)
        return credit > 0 and others == [-credit]


@dataclass(frozen=True)
class Problem:
    hand: int | None  # 1-based position on the sheet; None for the sheet as a whole
    # checksum, parity, dealer (also the sitting-out dealer at a table of five), solo_order,
    # forced_solo, hand_count, not_played; and, for what only a page can get wrong, soloist (none named)
    # and value (points that do not follow the game value entered).
    code: str
    rule: str
    template: str  # English, with {placeholders} filled from params
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)


@dataclass(frozen=True)
class NextHand:
    dealer: int
    must_be_forced_solo: bool
    forced_soloist: int | None
    hands_remaining: int


@dataclass(frozen=True)
class SheetCheck:
    problems: tuple[Problem, ...]
    totals: Mapping[int, int]
    compulsory_played: Mapping[int, bool]
    next: NextHand
    complete: bool

    @property
    def ok(self) -> bool:
        return not self.problems


def _mixed_parity(values: Iterable[int]) -> bool:
    return len({value % 2 for value in values}) > 1


def _matches_value(line: HandLine, players: Sequence[int]) -> bool:
    """Whether the points of the playing seats follow from the game value (TSR 7.2.2, 7.2.4)."""
    value = line.game_value
    if line.settled_as_solo:
        if line.soloist not in players:
            return True  # reported as a problem with the soloist
        sign = 1 if line.points[line.soloist] >= 0 else -1
        return all(
            line.points[seat] == (3 * sign * value if seat == line.soloist else -sign * value)
            for seat in players
        )
    return sorted(line.points[seat] for seat in players) == [-value, -value, value, value]


def check_sheet(
    *,
    table_size: int,
    hands_per_match: int,
    hands: Sequence[HandLine],
    time_over_after_hand: int | None = None,
    deductions: Mapping[int, int] | None = None,
) -> SheetCheck:
    """Check the hands of one match in the order they were played.

    ``hands_per_match`` counts the hands of the main section (24, or 30 at a table of five,
    TSR 8.5.1, 10.1.5); compulsory solos are dealt again by the same dealer and come on top
    (TSR 4.2.5). ``time_over_after_hand``: how many hands had been played when the playing time
    ended; after that only forced solos are played (TSR 8.5.3, 8.6.1).

    A hand stopped by a major breach (``not_played``, TSR 9.4.3) carries only penalty points
    and is dealt again by the same dealer. ``deductions`` are points taken from seats for
    unsporting conduct without credit to anyone (TSR 9.6.2 b): they count in the totals and are
    the one entry that does not sum to zero, so no checksum looks at them.
    """
    check_table_size(table_size)
    seats = range(1, table_size + 1)
    problems: list[Problem] = []
    totals = dict.fromkeys(seats, 0)
    solo_done: set[int] = set()
    expected_dealer = 1
    main_played = 0

    def report(hand: int | None, code: str, rule: str, template: str, **params: Any) -> None:
        problems.append(Problem(hand, code, rule, template, {"hand": hand, **params}))

    for number, line in enumerate(hands, start=1):
        if set(line.points) != set(seats):
            raise ValueError(f"hand {number}: points must name seats 1 to {table_size}")
        if line.penalty and not set(line.penalty) <= set(seats):
            raise ValueError(f"hand {number}: penalty points must name seats 1 to {table_size}")
        if line.dealer not in seats:
            raise ValueError(f"hand {number}: the dealer must be a seat of the table")
        for seat in seats:
            totals[seat] += line.score(seat)

        checksum = sum(line.points.values())
        if checksum:
            report(
                number,
                "checksum",
                "TSR 7.3.3.1",
                gettext_noop("Hand {hand}: the points add up to {checksum}, not to zero."),
                checksum=checksum,
            )
        penalty_sum = sum(line.penalty.values()) if line.penalty else 0
        if penalty_sum:
            report(
                number,
                "checksum",
                "TSR 7.3.3.1, 9.3, 9.4",
                gettext_noop("Hand {hand}: the penalty points add up to {checksum}, not to zero."),
                checksum=penalty_sum,
            )
        players = playing_seats(dealer=line.dealer, table_size=table_size)
        if table_size == 5 and (line.points[line.dealer] or (line.penalty or {}).get(line.dealer)):
            report(
                number,
                "dealer",
                "TSR 10.1.2",
                gettext_noop(
                    "Hand {hand}: seat {seat} dealt at a table of five and sits out, "
                    "so scores neither plus nor minus."
                ),
                seat=line.dealer,
            )
        if table_size == 4 and (
            _mixed_parity(line.points.values())
            or (
                line.penalty
                and not line.penalty_favours_soloist
                and _mixed_parity(line.penalty.get(seat, 0) for seat in seats)
            )
        ):
            report(
                number,
                "parity",
                "TSR 7.3.3.2",
                gettext_noop(
                    "Hand {hand}: the four scores must be all even or all odd; only penalty "
                    "points credited to a soloist may break this."
                ),
            )
        if line.dealer != expected_dealer:
            report(
                number,
                "dealer",
                "TSR 3.3.1, 4.2.5",
                gettext_noop("Hand {hand}: seat {expected} deals this hand, not seat {dealer}."),
                expected=expected_dealer,
                dealer=line.dealer,
            )

        # The forced solo (TSR 4.2.3, 8.6.1), asked before this hand is counted.
        lacking = set(seats) - solo_done
        time_over = time_over_after_hand is not None and number > time_over_after_hand
        due_soloist = None
        if time_over or forced_solo_due(
            hands_remaining=hands_per_match - main_played, solos_outstanding=len(lacking)
        ):
            due_soloist = forced_soloist(dealer=line.dealer, table_size=table_size, lacking=lacking)

        if line.contract.names_soloist or line.soloist is not None:
            if line.soloist == line.dealer and line.dealer not in players:
                report(
                    number,
                    "dealer",
                    "TSR 10.1.1",
                    gettext_noop(
                        "Hand {hand}: seat {seat} dealt at a table of five and sits out, "
                        "so cannot be the soloist."
                    ),
                    seat=line.dealer,
                )
            elif line.soloist not in players:
                report(
                    number,
                    "soloist",
                    "TSR 2.4.7",
                    gettext_noop("Hand {hand}: the soloist must be one of the seats playing it."),
                )
            elif line.contract.counts_as_compulsory and line.soloist in solo_done:
                report(
                    number,
                    "solo_order",
                    "TSR 4.2.3",
                    gettext_noop(
                        "Hand {hand}: seat {seat} has already played a compulsory solo in "
                        "this round."
                    ),
                    seat=line.soloist,
                )
            elif line.contract is Contract.VOLUNTARY_SOLO and line.soloist not in solo_done:
                report(
                    number,
                    "solo_order",
                    "TSR 4.3.1",
                    gettext_noop(
                        "Hand {hand}: seat {seat} may play a voluntary solo only after his "
                        "own compulsory solo."
                    ),
                    seat=line.soloist,
                )

        if line.not_played and any(line.points.values()):
            report(
                number,
                "not_played",
                "TSR 9.4.3",
                gettext_noop(
                    "Hand {hand} was stopped and counts as not played: it has no game points, "
                    "only penalty points."
                ),
            )
        elif (
            not line.not_played
            and line.game_value is not None
            and not checksum
            and not _matches_value(line, players)
        ):
            report(
                number,
                "value",
                "TSR 7.2.2, 7.2.4",
                gettext_noop(
                    "Hand {hand}: the points do not match a game value of {value}: the "
                    "winners receive it, a soloist three times it, the losers lose it."
                ),
                value=line.game_value,
            )

        if due_soloist is not None and line.contract is not Contract.FORCED_SOLO:
            report(
                number,
                "forced_solo",
                "TSR 4.2.3, 8.6.1",
                gettext_noop("Hand {hand}: seat {seat} had to play a forced solo here."),
                seat=due_soloist,
            )
        elif line.contract is Contract.FORCED_SOLO and due_soloist is None:
            report(
                number,
                "forced_solo",
                "TSR 4.2.3",
                gettext_noop(
                    "Hand {hand}: no forced solo was due; a compulsory solo played by choice "
                    "is noted in its own section."
                ),
            )
        elif line.contract is Contract.FORCED_SOLO and line.soloist != due_soloist:
            report(
                number,
                "forced_solo",
                "TSR 4.2.3",
                gettext_noop(
                    "Hand {hand}: seat {seat} had to play the forced solo, not seat {soloist}."
                ),
                seat=due_soloist,
                soloist=line.soloist,
            )
        elif line.contract is not Contract.FORCED_SOLO and (
            time_over or (line.contract.section is Section.MAIN and main_played >= hands_per_match)
        ):
            report(
                number,
                "hand_count",
                "TSR 8.5.1, 8.5.3",
                gettext_noop(
                    "Hand {hand}: the round has no more hands to play apart from forced solos."
                ),
            )

        if line.not_played:
            continue  # replayed: the same dealer deals again (TSR 9.1.3, 9.4.3)
        if line.contract.counts_as_compulsory and line.soloist is not None:
            solo_done.add(line.soloist)
        if line.contract.section is Section.MAIN:
            main_played += 1
        expected_dealer = next_dealer(
            dealer=line.dealer, contract=line.contract, table_size=table_size
        )

    for seat, points in (deductions or {}).items():
        if seat not in totals:
            raise ValueError(f"deductions must name seats 1 to {table_size}")
        totals[seat] += points
    lacking = set(seats) - solo_done
    time_over = time_over_after_hand is not None and len(hands) >= time_over_after_hand
    hands_remaining = 0 if time_over else max(hands_per_match - main_played, 0)
    due = bool(lacking) and (
        time_over
        or forced_solo_due(hands_remaining=hands_remaining, solos_outstanding=len(lacking))
    )
    soloist = (
        forced_soloist(dealer=expected_dealer, table_size=table_size, lacking=lacking)
        if due
        else None
    )
    return SheetCheck(
        problems=tuple(problems),
        totals=totals,
        compulsory_played={seat: seat in solo_done for seat in seats},
        next=NextHand(
            dealer=expected_dealer,
            must_be_forced_solo=soloist is not None,
            forced_soloist=soloist,
            hands_remaining=hands_remaining,
        ),
        complete=not lacking and (time_over or main_played >= hands_per_match),
    )


def game_value_of(line: HandLine) -> int:
    """The game value read off the points, as from a paper sheet that has only the points.

    ``check_sheet`` then tells whether the points really follow from one value.
    """
    if line.soloist is not None and line.soloist in line.points:
        return abs(line.points[line.soloist]) // 3
    return max((abs(points) for points in line.points.values()), default=0)


def with_game_values(hands: Sequence[HandLine]) -> list[HandLine]:
    """The hands, each without a game value given the one its points show."""
    return [
        hand if hand.game_value is not None else replace(hand, game_value=game_value_of(hand))
        for hand in hands
    ]


def with_dealers(hands: Sequence[HandLine], *, table_size: int) -> list[HandLine]:
    """The hands with the dealers the TSR gives them, in the order played: seat 1 deals first,
    the deal passes to the left, and the dealer of a compulsory solo deals again (TSR 3.3.1,
    4.2.5, 8.4.1). A sheet typed in without dealers gets them from here."""
    dealer = 1
    dealt = []
    for hand in hands:
        dealt.append(hand if hand.dealer == dealer else replace(hand, dealer=dealer))
        if not hand.not_played:  # a hand not played is dealt again (TSR 9.4.3)
            dealer = next_dealer(dealer=dealer, contract=hand.contract, table_size=table_size)
    return dealt
