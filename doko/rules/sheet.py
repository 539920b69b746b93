"""Checking a scoresheet hand by hand (TSR 3.3, 4.2, 4.3.1, 7.2, 7.3.3, 8.5, 8.6, 10.1).

``check_sheet`` reports every problem at once, so a scorekeeper sees all that is wrong, and says
what the next hand must be. Messages are English templates marked for translation; the Django
layer translates them (``tournaments.messages``).

A round has 24 lines at a table of four and 30 at a table of five, compulsory and forced solos
included (TSR 8.5.1, 10.1.5, 10.2.1; see ``doko.rules.deal``), and by our reading of TSR 10 36
at a table of six and 42 at a table of seven, where the dealer and the players to his left sit
out (``doko.rules.deal.sitting_out``).
"""

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations
from typing import Any

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import (
    LARGE_TABLES,
    TABLE_OF_FIVE,
    TABLE_OF_FOUR,
    MatchProgress,
    check_table_size,
    playing_seats,
    seat_after,
    sitting_out,
)
from doko.rules.penalty import credits_soloist
from doko.rules.problems import Template, gettext_noop, ngettext_noop, with_rule
from doko.rules.value import highest_game_value


class Replay(StrEnum):
    """Why a game was broken off and dealt again (TSR 9.1.3): "Die Wiederholung eines Spieles
    ist normalerweise ohne das Vorliegen und Ahnden eines schwerwiegenden Regelverstoßes nicht
    zulässig". ``CONSENT``: 9.1.3 (2), a major breach nobody complains of, "Alle Spieler am
    Tisch sind einverstanden" and the adjudicator, present, agrees; ``RULING``: 9.1.3 (1), an
    exceptional case the adjudicator rules on with the arbitration panel."""

    CONSENT = "consent"
    RULING = "ruling"


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
    # The decisions that make up ``penalty``, one by one, where the caller knows them (the
    # sheet's own initialled decisions); a paper sheet has only their sum. With them the
    # odd-even rule is checked exactly (TSR 7.3.3.2).
    penalties: tuple[Mapping[int, int], ...] = ()
    # Stopped by a major breach and counted as not played (TSR 9.4.3): no game points, the
    # same dealer deals again, and it is not one of the match's hands.
    not_played: bool = False
    # The dealer was away and his left neighbour dealt for him (TSR 3.3.2, 3.3.7): ``dealer``
    # stays the seat whose turn it was, so the rotation does not move, and at a table of five
    # that seat sits out (TSR 10.1.1); the neighbour plays. Not a hand dealt out of turn.
    dealt_by_neighbour: bool = False
    # A game broken off and repeated under TSR 9.1.3, and why; only on a line ``not_played``:
    # it is the same shape, no game points, not one of the round's lines, dealt again by the
    # same dealer ("Wiederholung"), and it carries no penalty points, nobody having complained.
    replay: Replay | None = None

    def __post_init__(self) -> None:
        if self.replay is not None and not self.not_played:
            raise ValueError("a replayed game is a line counted as not played")
        if self.penalties and _sum_by_seat(self.penalties) != _sum_by_seat([self.penalty or {}]):
            raise ValueError("the penalty points of a line are the sum of its decisions")

    @property
    def settled_as_solo(self) -> bool:
        return self.soloist is not None

    def dealt_by(self, table_size: int) -> int:
        """The seat that shuffled and dealt: the dealer, or his left neighbour for him."""
        return seat_after(self.dealer, table_size) if self.dealt_by_neighbour else self.dealer

    def score(self, seat: int) -> int:
        """What the hand adds to the seat's total: game points and penalty points."""
        return self.points[seat] + (self.penalty.get(seat, 0) if self.penalty else 0)

    @property
    def penalty_keeps_odd_even(self) -> bool:
        """Whether the penalty points leave the odd-even rule as TSR 7.3.3.2 allows: all of
        one parity, or broken only by penalty points in a solo in the soloist's favour, "kann
        nur durch die Vergabe von Strafpunkten in einem Solo zugunsten des Solospielers
        verletzt werden", however many decisions the hand carries (``penalty_parity_explained``).
        """
        return penalty_parity_explained(
            self.penalty or {}, soloist=self.soloist, decisions=self.penalties
        )


def _sum_by_seat(decisions: Iterable[Mapping[int, int]]) -> dict[int, int]:
    total: dict[int, int] = {}
    for points in decisions:
        for seat, value in points.items():
            total[seat] = total.get(seat, 0) + value
    return {seat: value for seat, value in total.items() if value}


def penalty_parity_explained(
    penalty: Mapping[int, int],
    *,
    soloist: int | None,
    decisions: Sequence[Mapping[int, int]] = (),
    seats: Sequence[int] = (1, 2, 3, 4),
) -> bool:
    """Whether a line's penalty points at a table of four keep the odd-even rule or break it
    only by credits to the soloist (TSR 7.3.3.2).

    With the ``decisions`` known, exactly: leaving out every decision that credits the soloist
    alone (+x to him, -x to one opponent, x on the TSR's scale: TSR 9.3.3 b1, 9.4.4), the
    others' points are of one parity. Every other decision the TSR gives keeps the rule by
    itself, and so does their sum.

    From the sum alone (a paper sheet), our reading: the opponents who lost penalty points on
    the line may have paid the soloist credits of the TSR's scale, all multiples of 3, odd or
    even as needed; if taking such credits off leaves a line of one parity, the line stands.
    So +6/-3/-3/0 (two opponents' minor breaches, 9.3.3 b1) and 0/-2/+1/+1 (one b1 and the
    soloist's own minor breach, 9.3.3 a) stand, and -3/0/+3/0, a debit to the soloist, does not.
    """
    values = [penalty.get(seat, 0) for seat in seats]
    if not _mixed_parity(values):
        return True
    if soloist is None or soloist not in seats:
        return False
    if decisions:
        rest = _sum_by_seat(
            points for points in decisions if not credits_soloist(points, soloist=soloist)
        )
        return not _mixed_parity(rest.get(seat, 0) for seat in seats)
    losers = [seat for seat in seats if seat != soloist and penalty.get(seat, 0) < 0]
    for count in range(len(losers) + 1):
        for paid_odd in combinations(losers, count):
            # An odd credit flips the parity of the opponent who paid it and of the soloist.
            flipped = {*paid_odd, soloist} if count % 2 else set(paid_odd)
            if not _mixed_parity(
                penalty.get(seat, 0) + (1 if seat in flipped else 0) for seat in seats
            ):
                return True
    return False


# What a problem is about, in the order the check asks (see ``Problem.code``).
PROBLEM_CODES = (
    "checksum",
    "parity",
    "dealer",
    "soloist",
    "solo_order",
    "value",
    "not_played",
    "hand_count",
    "forced_solo",
)


@dataclass(frozen=True)
class Problem:
    hand: int | None  # 1-based position on the sheet; None for the sheet as a whole
    # checksum, parity, dealer (the sitting-out dealer at a table of five; in ``warnings``, a
    # hand dealt out of turn), solo_order, forced_solo, hand_count, not_played, soloist (none
    # named or not playing) and value (points that do not follow one game value, or a value
    # higher than the game can be worth).
    code: str
    rule: str
    template: Template  # English, with {placeholders} filled from params
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return with_rule(self.template, self.params, self.rule)


@dataclass(frozen=True)
class NextHand:
    dealer: int
    must_be_forced_solo: bool
    forced_soloist: int | None
    # The lines still to play: of the round's 24 (30), or once the playing time is over the
    # forced solos still owed (TSR 8.5.3, 8.6.1).
    hands_remaining: int


@dataclass(frozen=True)
class SheetCheck:
    problems: tuple[Problem, ...]
    totals: Mapping[int, int]
    compulsory_played: Mapping[int, bool]
    next: NextHand
    complete: bool
    # What is irregular but stands, and does not stop the sheet (a hand dealt by the wrong
    # player that nobody complained of in time, TSR 9.7.3).
    warnings: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def _mixed_parity(values: Iterable[int]) -> bool:
    return len({value % 2 for value in values}) > 1


def _matches_value(line: HandLine, value: int, players: Sequence[int]) -> bool:
    """Whether the points of the playing seats follow from one game value: +v for the two
    winners of a normal game and -v for the two losers (TSR 7.2.2); in a hand settled as a solo
    3v for the soloist and -v for each opponent, or the other way round (TSR 7.2.4)."""
    if (soloist := line.soloist) is not None:  # settled as a solo
        if soloist not in players:
            return True  # reported as a problem with the soloist
        sign = 1 if line.points[soloist] >= 0 else -1
        return all(
            line.points[seat] == (3 * sign * value if seat == soloist else -sign * value)
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
    ended_early: bool = False,
) -> SheetCheck:
    """Check the hands of one match in the order they were played (``_checked``, which
    says how).

    The check is a function of what it is given alone, and a table's sheet is checked many
    times as it stands: by its save and the next save, by the live check of a hand typed and
    that hand's save, by each refresh of the table's page. So the last ``CHECKS_KEPT`` checks
    are kept by what they were given (``_Given``), and an equal input is answered from them.
    The answer is shared: nobody changes a ``SheetCheck``."""
    given = _Given(
        table_size=table_size,
        hands_per_match=hands_per_match,
        hands=tuple(hands),
        time_over_after_hand=time_over_after_hand,
        deductions=dict(deductions) if deductions else None,
        ended_early=ended_early,
    )
    return _checked(given)


# Enough for every table of a championship's round several times over (each check is a few
# kilobytes at most).
CHECKS_KEPT = 4096


@dataclass(frozen=True, eq=False)
class _Given:
    """What a check is given, equal to another input that holds the same hands and settings
    (``key``: the lines' fields in order, mappings as their items)."""

    table_size: int
    hands_per_match: int
    hands: tuple[HandLine, ...]
    time_over_after_hand: int | None
    deductions: dict[int, int] | None
    ended_early: bool

    @functools.cached_property
    def key(self) -> tuple[object, ...]:
        return (
            self.table_size,
            self.hands_per_match,
            self.time_over_after_hand,
            tuple(self.deductions.items()) if self.deductions else None,
            self.ended_early,
            tuple(_line_key(line) for line in self.hands),
        )

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Given) and self.key == other.key


def _line_key(line: HandLine) -> tuple[object, ...]:
    """A line's fields as a hashable value: equal for lines that are equal (a mapping's items in
    the order they were put in, so two equal mappings in another order only miss the cache)."""
    return (
        line.contract,
        line.dealer,
        tuple(line.points.items()),
        line.soloist,
        line.solo_type,
        line.game_value,
        tuple(line.penalty.items()) if line.penalty else None,
        tuple(tuple(decision.items()) for decision in line.penalties),
        line.not_played,
        line.dealt_by_neighbour,
        line.replay,
    )


@functools.lru_cache(maxsize=CHECKS_KEPT)
def _checked(given: _Given) -> SheetCheck:
    """Check the hands of one match in the order they were played.

    ``hands_per_match`` counts every line of the round, the compulsory solos included: 24 at a
    table of four, 30 at a table of five (TSR 8.5.1, 10.1.5, 10.2.1), so the main section holds
    at most 20 (25) and the compulsory solos' section the 4 (5) compulsory solos, forced ones
    included (TSR 4.2.3, 4.2.4). A forced solo is due when the compulsory solos not yet played
    equal the lines still to play (TSR 4.2.3). ``time_over_after_hand``: how many hands had been
    played when the playing time ended; after that only the forced solos still owed are played
    (TSR 8.5.3, 8.6.1).

    A hand dealt by the wrong player stands if nobody complained in time (TSR 9.7.3; a wrong
    dealer is no obvious irregularity of the deal, TSR 3.3.10): it is a warning, not a problem,
    and the deal continues from the player who dealt it. A hand the left neighbour dealt for an
    absent dealer (``dealt_by_neighbour``, TSR 3.3.2) is the dealer's own: no warning, and the
    deal goes on from the dealer's left as always. A hand stopped
    by a major breach (``not_played``, TSR 9.4.3) carries only penalty points, is not one of
    the round's lines, and is dealt again by the same dealer. ``deductions`` are points taken
    from seats for unsporting conduct without credit to anyone (TSR 9.6.2 b): they count in the
    totals and are the one entry that does not sum to zero, so no checksum looks at them.

    A game broken off and repeated under TSR 9.1.3 (``replay``) is such a line too: the
    repeated deal is the one that counts towards the 24 (30) lines, the broken-off one does not,
    as 10.2.1 counts only the games played ("nach einem Pflichtsolo die Karten nochmals vom
    selben Geber verteilt"), and the same dealer deals again. ``ended_early``: a table that
    cannot finish (a player left or was disqualified), ended by a recorded decision; the TSR is
    silent, so the sheet is complete as it stands, the hands not played and the compulsory
    solos still owed waived, and nothing is due next.
    """
    table_size, hands = given.table_size, given.hands
    time_over_after_hand, deductions = given.time_over_after_hand, given.deductions
    check_table_size(table_size)
    seats = range(1, table_size + 1)
    findings = _Findings()
    totals = dict.fromkeys(seats, 0)
    progress = MatchProgress(table_size=table_size, hands_per_match=given.hands_per_match)
    for number, line in enumerate(hands, start=1):
        _check_line_shape(number, line, table_size)
        for seat in seats:
            totals[seat] += line.score(seat)
        checksum = _check_sums(findings, number, line)
        _check_seat_scores(findings, number, line, table_size)
        # Who deals this hand and whether it must be a forced solo (TSR 3.3.1, 4.2.3, 4.2.5),
        # asked before it is counted. After the playing time only forced solos are played.
        time_over = time_over_after_hand is not None and number > time_over_after_hand
        deal = _check_deal(findings, number, line, progress, time_over=time_over)
        players = playing_seats(dealer=line.dealer, table_size=table_size)
        _check_soloist(findings, number, line, players, progress)
        _check_value(findings, number, line, players, checksum=checksum)
        _check_round_order(findings, number, line, progress, deal)
        progress.record(
            dealer=line.dealer,
            contract=line.contract,
            soloist=line.soloist,
            not_played=line.not_played,
        )
    for seat, points in (deductions or {}).items():
        if seat not in totals:
            raise ValueError(f"deductions must name seats 1 to {table_size}")
        totals[seat] += points
    return _sheet_result(
        findings,
        totals,
        progress,
        time_over=time_over_after_hand is not None and len(hands) >= time_over_after_hand,
        ended_early=given.ended_early,
    )


@dataclass
class _Findings:
    """What the check has found so far: the problems, and the warnings that do not stop it."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def report(
        self, hand: int | None, code: str, rule: str, template: Template, **params: Any
    ) -> None:
        self.problems.append(Problem(hand, code, rule, template, {"hand": hand, **params}))


@dataclass(frozen=True)
class _Deal:
    """Who was due to deal a hand, who had to play it as a forced solo, and whether the one
    player still owing the forced solo dealt it and sits out (TSR 4.2.3, 10.1.1)."""

    expected: int
    due_soloist: int | None
    sits_out_owing: bool
    time_over: bool


def _check_line_shape(number: int, line: HandLine, table_size: int) -> None:
    """Refuse a line that names seats the table does not have (a caller's error, not a
    scorekeeper's)."""
    seats = set(range(1, table_size + 1))
    if set(line.points) != seats:
        raise ValueError(f"hand {number}: points must name seats 1 to {table_size}")
    if line.penalty and not set(line.penalty) <= seats:
        raise ValueError(f"hand {number}: penalty points must name seats 1 to {table_size}")
    if line.dealer not in seats:
        raise ValueError(f"hand {number}: the dealer must be a seat of the table")


def _check_sums(findings: _Findings, number: int, line: HandLine) -> int:
    """Report game points or penalty points that do not add up to zero (TSR 7.3.3.1); return
    the game points' sum."""
    checksum = sum(line.points.values())
    if checksum:
        findings.report(
            number,
            "checksum",
            "TSR 7.3.3.1",
            gettext_noop("Hand {hand}: the points add up to {checksum}, not to zero."),
            checksum=checksum,
        )
    penalty_sum = sum(line.penalty.values()) if line.penalty else 0
    if penalty_sum:
        findings.report(
            number,
            "checksum",
            "TSR 7.3.3.1, 9.3, 9.4",
            gettext_noop("Hand {hand}: the penalty points add up to {checksum}, not to zero."),
            checksum=penalty_sum,
        )
    return checksum


def _check_seat_scores(findings: _Findings, number: int, line: HandLine, table_size: int) -> None:
    """Report a sitting-out dealer who scores at a table of five (TSR 10.1.2), a player sitting
    out who scores at six or seven (TSR 10, read as 10.1.2), and scores of mixed parity among
    the four who play at a table of four, six or seven (TSR 7.3.3.2; 10.1.3 waives it at five
    only, see ``doko.rules.deal``)."""
    penalty = line.penalty or {}
    if table_size == TABLE_OF_FIVE and (line.points[line.dealer] or penalty.get(line.dealer)):
        findings.report(
            number,
            "dealer",
            "TSR 10.1.2",
            gettext_noop(
                "Hand {hand}: seat {seat} dealt at a table of five and sits out, "
                "so scores neither plus nor minus."
            ),
            seat=line.dealer,
        )
    if table_size in LARGE_TABLES:
        for seat in sitting_out(dealer=line.dealer, table_size=table_size):
            if line.points[seat] or penalty.get(seat):
                findings.report(
                    number,
                    "dealer",
                    "TSR 10, 10.1.2",
                    gettext_noop(
                        "Hand {hand}: seat {seat} sits out this hand at a table of {size}, "
                        "so scores neither plus nor minus."
                    ),
                    seat=seat,
                    size=table_size,
                )
    if table_size == TABLE_OF_FIVE:
        return
    players = playing_seats(dealer=line.dealer, table_size=table_size)
    keeps = (
        line.penalty_keeps_odd_even
        if table_size == TABLE_OF_FOUR
        else penalty_parity_explained(
            penalty, soloist=line.soloist, decisions=line.penalties, seats=players
        )
    )
    if _mixed_parity(line.points[seat] for seat in players) or not keeps:
        findings.report(
            number,
            "parity",
            "TSR 7.3.3.2",
            gettext_noop(
                "Hand {hand}: the four scores must be all even or all odd; only penalty "
                "points credited to a soloist may break this."
            ),
        )


def _check_deal(
    findings: _Findings, number: int, line: HandLine, progress: MatchProgress, *, time_over: bool
) -> _Deal:
    """Warn of a hand dealt out of turn, which stands (TSR 9.7.3), and say who was due to deal
    it and who had to play it as a forced solo (TSR 3.3.1, 4.2.3)."""
    expected, due_soloist = progress.next_deal(time_over=time_over)
    sits_out_owing = False
    if line.dealer != expected:
        findings.warnings.append(
            Problem(
                number,
                "dealer",
                "TSR 3.3.1, 9.7.3",
                gettext_noop(
                    "Hand {hand} was dealt by seat {dealer}, not by seat {expected}. Nobody "
                    "complained in time, so the deal stands as valid, and the deal goes on "
                    "from seat {dealer}."
                ),
                {"hand": number, "expected": expected, "dealer": line.dealer},
            )
        )
        progress.dealer = line.dealer  # the deal continues from who dealt (TSR 9.7.3)
        actual, due_soloist = progress.next_deal(time_over=time_over)
        # At a table of five the one player still owing the forced solo dealt it and sits
        # out (TSR 10.1.1): he cannot play it in this hand.
        sits_out_owing = actual != line.dealer
    return _Deal(expected, due_soloist, sits_out_owing, time_over)


def _check_soloist(
    findings: _Findings,
    number: int,
    line: HandLine,
    players: Sequence[int],
    progress: MatchProgress,
) -> None:
    """Report a solo without a soloist, a soloist who does not play the hand, and a solo out of
    order (TSR 2.4.7, 4.2.3, 4.3.1, 10.1.1)."""
    if not line.contract.names_soloist and line.soloist is None:
        return
    if line.soloist is None:
        findings.report(
            number,
            "soloist",
            "TSR 2.4.7, 7.3.3.3",
            gettext_noop("Hand {hand}: name the soloist."),
        )
    elif (
        progress.table_size == TABLE_OF_FIVE
        and line.soloist == line.dealer
        and line.dealer not in players
    ):
        findings.report(
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
        findings.report(
            number,
            "soloist",
            "TSR 2.4.7",
            gettext_noop("Hand {hand}: the soloist must be one of the seats playing it."),
        )
    elif line.contract.counts_as_compulsory and line.soloist in progress.compulsory_played:
        findings.report(
            number,
            "solo_order",
            "TSR 4.2.3",
            gettext_noop(
                "Hand {hand}: seat {seat} has already played a compulsory solo in this round."
            ),
            seat=line.soloist,
        )
    elif (
        line.contract is Contract.VOLUNTARY_SOLO and line.soloist not in progress.compulsory_played
    ):
        findings.report(
            number,
            "solo_order",
            "TSR 4.3.1",
            gettext_noop(
                "Hand {hand}: seat {seat} may play a voluntary solo only after his "
                "own compulsory solo."
            ),
            seat=line.soloist,
        )


def _check_value(
    findings: _Findings, number: int, line: HandLine, players: Sequence[int], *, checksum: int
) -> None:
    """Report a replayed or stopped hand that carries points it may not (TSR 9.1.3, 9.4.3), and
    points that do not follow one game value within what the TSR allows (TSR 7.2)."""
    value = line.game_value if line.game_value is not None else game_value_of(line)
    most = highest_game_value(settled_as_solo=line.settled_as_solo)
    if line.replay is not None and line.penalty:
        findings.report(
            number,
            "not_played",
            "TSR 9.1.3",
            gettext_noop(
                "Hand {hand} was broken off and dealt again by consent or ruling: it "
                "carries no penalty points, nobody having complained."
            ),
        )
    if line.not_played and any(line.points.values()):
        findings.report(
            number,
            "not_played",
            "TSR 9.1.3" if line.replay is not None else "TSR 9.4.3",
            gettext_noop(
                "Hand {hand} was stopped and counts as not played: it has no game points, "
                "only penalty points."
            ),
        )
    elif not line.not_played and value > most:
        findings.report(
            number,
            "value",
            "TSR 7.2.2, 7.2.3, 7.2.4",
            gettext_noop(
                "Hand {hand}: a game value of {value} is more than the TSR allows: at most "
                "{most} in a solo, {most_normal} in a normal game."
            )
            if line.settled_as_solo
            else gettext_noop(
                "Hand {hand}: a game value of {value} is more than the TSR allows: at most "
                "{most} in a normal game, bonus points included."
            ),
            value=value,
            most=most,
            most_normal=highest_game_value(settled_as_solo=False),
        )
    elif not line.not_played and not checksum and not _matches_value(line, value, players):
        findings.report(
            number,
            "value",
            "TSR 7.2.2, 7.2.4",
            gettext_noop(
                "Hand {hand}: the points do not match a game value of {value}: in a normal "
                "game two players win it and two lose it; a soloist wins or loses three "
                "times it, each opponent once."
            ),
            value=value,
        )


def _check_round_order(
    findings: _Findings, number: int, line: HandLine, progress: MatchProgress, deal: _Deal
) -> None:
    """Report a hand beyond the round's lines or the playing time (TSR 8.5.1, 8.5.3, 10.1.5),
    and a forced solo missed, not due or played by the wrong seat (TSR 4.2.3, 8.6.1, 10.1.1).
    """
    due_soloist = deal.due_soloist
    if deal.sits_out_owing:
        findings.report(
            number,
            "forced_solo",
            "TSR 4.2.3, 10.1.1",
            gettext_noop(
                "Hand {hand}: seat {seat} still owes the forced solo and sits out as the "
                "dealer; seat {dealer} deals it."
            ),
            seat=line.dealer,
            dealer=deal.expected,
        )
    elif progress.full:
        findings.report(
            number,
            "hand_count",
            {TABLE_OF_FOUR: "TSR 8.5.1", TABLE_OF_FIVE: "TSR 10.1.5"}.get(
                progress.table_size, "TSR 10"
            ),
            ngettext_noop(
                "Hand {hand}: the round has {count} hand, compulsory solos included; "
                "no more may be played.",
                "Hand {hand}: the round has {count} hands, compulsory solos included; "
                "no more may be played.",
            ),
            count=progress.hands_per_match,
        )
    elif deal.time_over and not progress.lacking:
        findings.report(
            number,
            "hand_count",
            "TSR 8.5.3",
            gettext_noop(
                "Hand {hand}: the playing time is over and every compulsory solo is "
                "played, so no more hands follow."
            ),
        )
    elif due_soloist is not None and line.contract is not Contract.FORCED_SOLO:
        findings.report(
            number,
            "forced_solo",
            "TSR 4.2.3, 8.6.1",
            gettext_noop("Hand {hand}: seat {seat} had to play a forced solo here."),
            seat=due_soloist,
        )
    elif line.contract is Contract.FORCED_SOLO and due_soloist is None:
        findings.report(
            number,
            "forced_solo",
            "TSR 4.2.3",
            gettext_noop(
                "Hand {hand}: no forced solo was due; a compulsory solo played by choice "
                "is dealt again by the same dealer (TSR 4.2.5)."
            ),
        )
    elif line.contract is Contract.FORCED_SOLO and line.soloist != due_soloist:
        findings.report(
            number,
            "forced_solo",
            "TSR 4.2.3",
            gettext_noop(
                "Hand {hand}: seat {seat} had to play the forced solo, not seat {soloist}."
            ),
            seat=due_soloist,
            soloist=line.soloist,
        )


def _sheet_result(
    findings: _Findings,
    totals: dict[int, int],
    progress: MatchProgress,
    *,
    time_over: bool,
    ended_early: bool,
) -> SheetCheck:
    """What the check found, the totals, and what the next hand must be (TSR 4.2.3, 8.5.3)."""
    dealer, soloist = progress.next_deal(time_over=time_over)
    remaining = len(progress.lacking) if time_over else progress.lines_remaining
    if ended_early:  # nothing follows: what was still to play is waived
        soloist, remaining = None, 0
    return SheetCheck(
        problems=tuple(findings.problems),
        warnings=tuple(findings.warnings),
        totals=totals,
        compulsory_played={seat: seat in progress.compulsory_played for seat in totals},
        next=NextHand(
            dealer=dealer,
            must_be_forced_solo=soloist is not None,
            forced_soloist=soloist,
            hands_remaining=remaining,
        ),
        complete=ended_early or (not progress.lacking and (time_over or progress.full)),
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


def with_dealers(
    hands: Sequence[HandLine],
    *,
    table_size: int,
    hands_per_match: int,
    time_over_after_hand: int | None = None,
    kept: Iterable[int] = (),
) -> list[HandLine]:
    """The hands with the dealers the TSR gives them, in the order played: seat 1 deals first,
    the deal passes to the left, the dealer of a compulsory solo deals again, a hand not played
    is dealt again, and at a table of five the deal passes on when only the dealer still owes
    the forced solo (TSR 3.3.1, 4.2.3, 4.2.5, 8.4.1, 9.4.3). A sheet typed in without dealers,
    or after a hand was struck out, gets them from here.

    ``kept``: the numbers (1-based) of hands dealt by another player than the TSR's, which
    stand as dealt (TSR 9.7.3); the deal goes on from who dealt them.
    """
    kept = set(kept)
    progress = MatchProgress(table_size=table_size, hands_per_match=hands_per_match)
    dealt = []
    for number, hand in enumerate(hands, start=1):
        time_over = time_over_after_hand is not None and number > time_over_after_hand
        dealer = hand.dealer if number in kept else progress.next_deal(time_over=time_over)[0]
        dealt.append(hand if hand.dealer == dealer else replace(hand, dealer=dealer))
        progress.record(
            dealer=dealer, contract=hand.contract, soloist=hand.soloist, not_played=hand.not_played
        )
    return dealt


def dealt_out_of_turn(check: SheetCheck) -> set[int]:
    """The hands a check found dealt by another player than the TSR's (TSR 9.7.3)."""
    return {
        warning.hand
        for warning in check.warnings
        if warning.code == "dealer" and warning.hand is not None
    }
