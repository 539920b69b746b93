"""Penalty points for a breach of the rules (TSR 9.2-9.4).

``penalty_points`` takes the breach as the adjudicator judged it (severity, the contract as it
stood, who offended) and returns the penalty points of every seat that played the hand, and
whether the hand counts as not played (TSR 9.4.3) or as played without game points
(TSR 9.4.4).

On the announcements that raise a major penalty the German original, which wins where the two
differ, is exact: only point announcements (*Absagen*: "no 90", "no 60", "no 30", "schwarz")
raise it, by 3 each (TSR 9.4.3, 9.4.4), which is why the penalties stop at 24 and 8. Callers
give ``announcements``, every announcement the non-offending side had made up to the breach
(0-5), counting each implied level (TSR 6.4.3); the first is always "Re" or "Contra", because
a point announcement needs one (TSR 6.3.2), so the point announcements are all but the first.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from doko.rules.problems import FieldError, InvalidInput, Template, gettext_noop

MINOR_PENALTY = 3  # TSR 9.3.2, 9.3.3
MAJOR_PENALTY = 12  # TSR 9.4.3, 9.4.4
RAISE_PER_POINT_ANNOUNCEMENT = 3
MOST_ANNOUNCEMENTS = 5  # "Re"/"Contra", then "no 90", "no 60", "no 30", "schwarz"


class Severity(StrEnum):
    INSIGNIFICANT = "insignificant"  # unerheblich, TSR 9.2
    MINOR = "minor"  # geringfügig, TSR 9.3
    MAJOR = "major"  # schwerwiegend, TSR 9.4


@dataclass(frozen=True)
class Breach:
    """A breach complained of in one hand. ``solo``: a solo was being played when it happened
    (TSR 9.3.3 "after it is determined that a Solo is being played").

    A wedding is judged by where the breach fell (TSR 4.4.3 b, 4.4.5): as a normal game up to
    the point where it turned into a solo, and as a solo after it, the holder of both Queens
    of Clubs being the ``soloist`` (so 9.3.3 b1/b2 and 9.4.4 for a breach against him, 9.4.3
    for his own major one). The German original fixes the point: an announced wedding whose
    holder took the first three tricks is penalised "bis einschließlich Klärungsstich wie
    beim Normalspiel", so a breach in the clarification trick itself is still a normal
    game's; a silent wedding "solange wie beim Normalspiel, bis entschieden ist, dass ein
    Solo gespielt wird (Legen der zweiten Kreuz Dame)", so it is a solo from the moment the
    second Queen of Clubs lies on the table. Callers say which by ``solo``; a wedding whose
    clarification trick found a partner (TSR 4.4.3 a) stays a normal game throughout."""

    severity: Severity
    offender: int
    solo: bool = False
    soloist: int | None = None
    seats: Sequence[int] = (1, 2, 3, 4)
    disadvantages_soloist: bool = False  # TSR 9.3.3 (b1) rather than (b2)
    announcements: int = 0  # by the non-offending side up to the breach, levels counted
    # A major breach after one team had already won the game after announcements (TSR 7.1):
    # the game ends there, the remaining tricks go to the opponents, and the breach is
    # punished as a minor one (TSR 9.5.1).
    decided: bool = False

    @property
    def point_announcements(self) -> int:
        return max(self.announcements - 1, 0)


@dataclass(frozen=True)
class Penalty:
    points: dict[int, int]  # per playing seat; negative for the offender
    hand_not_played: bool  # the hand is replayed (TSR 9.4.3)
    rule: str
    # TSR 9.4.4, an opponent's major breach in a solo: "das Solo [wird] als gespielt gewertet",
    # and the points are the penalty's alone ("Die übrigen Spieler erhalten 0 Punkte"). Read
    # so: the game stopped (TSR 9.4.2) has no result to score, so the hand counts as played
    # (the deal passes on, a compulsory solo is the soloist's) with a game value of 0.
    played_without_game_points: bool = False


def penalty_points(breach: Breach) -> Penalty:
    """The penalty points of each playing seat (TSR 9.2.3, 9.3.2, 9.3.3, 9.4.3, 9.4.4, 9.5.1).

    Raises ``InvalidInput`` listing every inconsistency of the input (``check_breach``).
    """
    errors = check_breach(breach)
    if errors:
        raise InvalidInput(errors)
    seats, offender = list(breach.seats), breach.offender
    others = [seat for seat in seats if seat != offender]
    soloist = breach.soloist
    by_soloist = breach.solo and offender == soloist
    by_opponent = breach.solo and not by_soloist and soloist is not None

    def everyone_else(penalty: int, credit: int) -> dict[int, int]:
        return {seat: -penalty if seat == offender else credit for seat in seats}

    if breach.severity is Severity.INSIGNIFICANT:
        return Penalty(dict.fromkeys(seats, 0), hand_not_played=False, rule="TSR 9.2.3")
    if breach.severity is Severity.MINOR or breach.decided:
        completed = "TSR 9.5.1, " if breach.decided else ""
        if by_opponent and soloist is not None and breach.disadvantages_soloist:
            points = dict.fromkeys(others, 0)
            points[soloist] = MINOR_PENALTY
            points[offender] = -MINOR_PENALTY
            return Penalty(points, hand_not_played=False, rule=completed + "TSR 9.3.3 (b1)")
        rule = "TSR 9.3.3 (a)" if by_soloist else "TSR 9.3.3 (b2)" if by_opponent else "TSR 9.3.2"
        return Penalty(
            everyone_else(MINOR_PENALTY, 1), hand_not_played=False, rule=completed + rule
        )

    raise_by = RAISE_PER_POINT_ANNOUNCEMENT * breach.point_announcements
    if by_opponent and soloist is not None:
        # The solo counts as played; only the soloist is credited (TSR 9.4.4).
        points = dict.fromkeys(others, 0)
        points[soloist] = MAJOR_PENALTY + raise_by
        points[offender] = -(MAJOR_PENALTY + raise_by)
        return Penalty(
            points, hand_not_played=False, rule="TSR 9.4.4", played_without_game_points=True
        )
    # A normal game, or the soloist's own breach (TSR 9.4.4 refers to 9.4.3): not played, and
    # the three others share the penalty.
    penalty = MAJOR_PENALTY + raise_by
    return Penalty(
        everyone_else(penalty, penalty // 3),
        hand_not_played=True,
        rule="TSR 9.4.4, 9.4.3" if by_soloist else "TSR 9.4.3",
    )


def check_breach(breach: Breach) -> list[FieldError]:
    """Every reason why ``breach`` cannot be judged as given."""
    errors: list[FieldError] = []

    def error(field: str, rule: str, template: Template, **params: object) -> None:
        errors.append(FieldError(field, rule, template, params))

    seats = list(breach.seats)
    if len(seats) != 4 or len(set(seats)) != 4 or not all(1 <= seat <= 5 for seat in seats):
        error(
            "seats",
            "TSR 2.1.1, 10.1.1",
            gettext_noop("Four different seats of 1 to 5 play a hand."),
        )
        return errors
    if breach.offender not in seats:
        error(
            "offender",
            "TSR 9.1",
            gettext_noop("The offender must be one of the seats playing the hand."),
        )
    if breach.solo and breach.soloist not in seats:
        error(
            "soloist",
            "TSR 2.4.7",
            gettext_noop("In a solo, name the soloist, one of the seats playing the hand."),
        )
    if not breach.solo and breach.soloist is not None:
        error("soloist", "TSR 2.4.4", gettext_noop("Only a solo has a soloist."))
    if breach.disadvantages_soloist and (not breach.solo or breach.offender == breach.soloist):
        error(
            "disadvantages_soloist",
            "TSR 9.3.3 (b)",
            gettext_noop("Only a breach by an opponent of the soloist can disadvantage him."),
        )
    if breach.decided and breach.severity is not Severity.MAJOR:
        error(
            "decided",
            "TSR 9.5.1",
            gettext_noop(
                "A game already won counts only for a breach that stops the game (a major one)."
            ),
        )
    if not 0 <= breach.announcements <= MOST_ANNOUNCEMENTS:
        error(
            "announcements",
            "TSR 6.3, 9.4.3",
            gettext_noop(
                "A side makes at most five announcements: “Re” or “Contra”, “no 90”, "
                "“no 60”, “no 30” and “schwarz”."
            ),
        )
    return errors


# What the TSR credits a soloist alone, taken from one opponent (TSR 9.3.3 b1: 3; TSR 9.4.4: 12,
# raised by 3 for each point announcement of the soloist, up to 24). These are the only penalty
# points that may break the odd-even rule (TSR 7.3.3.2: "(+3, 0, 0, -3), (+15, 0, 0, -15) bzw.
# (+21, 0, 0, -21)"; the even ones keep it).
SOLOIST_CREDITS = frozenset(
    {
        MINOR_PENALTY,
        *(
            MAJOR_PENALTY + RAISE_PER_POINT_ANNOUNCEMENT * raised
            for raised in range(MOST_ANNOUNCEMENTS)
        ),
    }
)


def credits_soloist(points: Mapping[int, int], *, soloist: int | None) -> bool:
    """Whether one decision's penalty points credit the soloist alone: +x to him, -x to one
    opponent, nothing to anyone else, x one of the TSR's credits (TSR 9.3.3 b1, 9.4.4)."""
    if soloist is None:
        return False
    credit = points.get(soloist, 0)
    others = sorted(value for seat, value in points.items() if seat != soloist and value)
    return credit in SOLOIST_CREDITS and others == [-credit]


def tsr_penalties(
    *, offender: int, seats: Sequence[int], solo: bool, soloist: int | None
) -> list[dict[int, int]]:
    """Every set of penalty points the TSR gives for a breach by ``offender`` in this game
    (TSR 9.2.3, 9.3.2, 9.3.3, 9.4.3, 9.4.4, 9.5.1): its scale, whatever the severity, the
    soloist's disadvantage, the announcements and whether the game was already won. Per
    playing seat."""
    by_opponent = solo and soloist is not None and offender != soloist
    found: list[dict[int, int]] = []
    for severity in Severity:
        for disadvantages in (False, True) if by_opponent else (False,):
            for announcements in range(MOST_ANNOUNCEMENTS + 1):
                for decided in (False, True) if severity is Severity.MAJOR else (False,):
                    points = penalty_points(
                        Breach(
                            severity=severity,
                            offender=offender,
                            solo=solo,
                            soloist=soloist if solo else None,
                            seats=seats,
                            disadvantages_soloist=disadvantages,
                            announcements=announcements,
                            decided=decided,
                        )
                    ).points
                    if points not in found:
                        found.append(points)
    return found
