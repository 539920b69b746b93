"""The procedure around the table (TSR 8.2, 9.4, 9.7): complaints, rulings, initials and
appeals, as plain data in and an outcome or the problems out.

The adjudication services read the rows (who, which seats play, which hand, how many hands
are written, the line on the sheet, what happened since) into these arguments, ask here, and
store what comes back; a problem carries its field, its TSR section and a message template
(``doko.rules.problems``), which the Django layer translates (``tournaments.messages``).

The readings of the German text, which decides:

- TSR 9.7.7, "Gegen die Entscheidung des Schiedsrichters kann nur sofort reklamiert werden,
  d.h., dass das Spiel bis zur Entscheidung des Schiedsgerichtes unterbrochen bleibt":
  an appeal is in time while the table has not written another hand since the ruling was
  initialled; if no hand follows (the last hand, the sheet handed in), within
  ``APPEAL_MINUTES`` of the initials.
- TSR 8.2.1, "Das Schiedsgericht wird einberufen, wenn ein Spieler mit einer Entscheidung des
  Schiedsrichters nicht einverstanden ist": two instances, so whoever ruled on or initialled
  the decision appealed against does not decide the appeal.
- TSR 8.2.2, "Vergebene Strafpunkte sind vom Schiedsrichter oder von einem Mitglied des
  Schiedsgerichtes in jedem Fall abzuzeichnen": a member of the panel may initial.
- TSR 9.4.3 and 9.4.4 on a hand whose line is written already: the ruling says whether that
  line is the stopped game itself (``WrittenLine.STOPPED``) or the game dealt after it
  (``WrittenLine.NEXT``).
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import playing_seats
from doko.rules.penalty import Breach, Severity, penalty_points, tsr_penalties
from doko.rules.problems import FieldError, InvalidInput, gettext_noop, ngettext_noop
from doko.rules.sheet import HandLine

# TSR 9.7.7 "nur sofort": when no hand follows the ruling (the last hand of the match, the
# sheet handed in), an appeal is in time for this many minutes after the initials.
APPEAL_MINUTES = 10

WEDDINGS = frozenset({Contract.WEDDING, Contract.SILENT_WEDDING})


class WrittenLine(StrEnum):
    """What the written line of a hand ruled stopped (TSR 9.4.3) or counted as played without
    game points (TSR 9.4.4) is."""

    STOPPED = "stopped"  # the stopped game itself: its line is replaced
    NEXT = "next"  # the game dealt after it: the stopped game's line goes in before it


def seats_playing(*, table_size: int, dealer: int) -> tuple[int, ...]:
    """The seats that play a hand: all four, or at a table of five all but the dealer
    (TSR 10.1.1)."""
    return playing_seats(dealer=dealer, table_size=table_size)


def seat_problem(field: str, seat: int | None, table_size: int) -> FieldError | None:
    """A seat of a table of ``table_size``: 1 to 4, or 1 to 5 (TSR 8.4.1, 10.1)."""
    if seat is None or 1 <= seat <= table_size:
        return None
    return FieldError(
        field,
        "TSR 8.4.1, 10.1",
        gettext_noop("Seat {seat} is not a seat of the table: the seats are 1 to {size}."),
        {"seat": seat, "size": table_size},
    )


def complaint_problems(
    *,
    hand_number: int,
    offender: int,
    complainant: int | None,
    table_size: int,
    hands_written: int,
    ended: Collection[int] = (),
) -> list[FieldError]:
    """What is wrong with a complaint (TSR 9.7.1, 9.7.5, 9.7.6): it is about a hand on the
    sheet or the one being played (the next), not one a major breach ended already
    (TSR 9.4.2, 9.7.6), against a seat of the table, and not by the offender himself."""
    problems: list[FieldError] = []
    if not 1 <= hand_number <= hands_written + 1:
        problems.append(
            FieldError(
                "hand_number",
                "TSR 9.7.5",
                ngettext_noop(
                    "The sheet has {count} hand: a complaint is about it or the hand being "
                    "played, {next}.",
                    "The sheet has {count} hands: a complaint is about one of them or the hand "
                    "being played, {next}.",
                ),
                {"count": hands_written, "next": hands_written + 1},
            )
        )
    elif hand_number in ended:
        problems.append(
            FieldError(
                "hand_number",
                "TSR 9.7.6, 9.4.2",
                gettext_noop(
                    "Hand {hand} was ended by a major breach already: nothing more in it is "
                    "penalised. A complaint about the hand dealt next, or dealt again, is about "
                    "hand {next}."
                ),
                {"hand": hand_number, "next": hand_number + 1},
            )
        )
    for field, seat in (("offender", offender), ("complainant", complainant)):
        if problem := seat_problem(field, seat, table_size):
            problems.append(problem)
    if complainant is not None and complainant == offender:
        problems.append(
            FieldError(
                "complainant",
                "TSR 9.7.1",
                gettext_noop("A player does not complain about his own breach."),
            )
        )
    return problems


@dataclass(frozen=True)
class Ruling:
    """How the adjudicator (or the panel) judged a breach: its severity (TSR 9.2-9.4), the
    contract as it stood, the soloist, whether the breach may disadvantage him (TSR 9.3.3 b1),
    the announcements of the other side up to the breach, and whether the game was already won
    (TSR 9.5.1). ``penalty``: points per seat that deviate from the TSR's, with the reason.

    A wedding (``contract`` wedding or silent wedding) names the holder of both Queens of
    Clubs as ``soloist`` where the sheet does (a silent wedding, a wedding played alone);
    ``wedding_clarified_as_solo`` says the wedding was already being played as a solo when the
    breach happened, so that it is penalised as one (TSR 4.4.3 b, 4.4.5).

    ``written_line``: for a hand stopped (TSR 9.4.3) or counted as played without game points
    (TSR 9.4.4) whose line is written already, what that line is; None otherwise."""

    severity: Severity
    contract: Contract = Contract.NORMAL
    soloist: int | None = None
    solo_type: SoloType | None = None
    disadvantages_soloist: bool = False
    announcements: int = 0
    decided: bool = False
    penalty: Mapping[int, int] | None = None
    deviation_reason: str = ""
    wedding_clarified_as_solo: bool = False
    written_line: WrittenLine | None = None

    @classmethod
    def from_values(
        cls, values: Mapping[str, Any], *, penalty: Mapping[int, int] | None
    ) -> "Ruling":
        """The ruling from cleaned input, the page's form or the API's: the choices as their
        values, ``penalty`` as the input gives it (None: the TSR's own points)."""
        written = values.get("written_line")
        return cls(
            severity=Severity(values["severity"]),
            contract=Contract(values["contract"]),
            soloist=values["soloist"],
            solo_type=SoloType(values["solo_type"]) if values["solo_type"] else None,
            disadvantages_soloist=values["disadvantages_soloist"],
            announcements=values["announcements"],
            decided=values["decided"],
            penalty=penalty,
            deviation_reason=values["deviation_reason"],
            wedding_clarified_as_solo=values["wedding_clarified_as_solo"],
            written_line=WrittenLine(written) if written else None,
        )


@dataclass(frozen=True)
class Ruled:
    """What a ruling comes to: the ruling as it is stored, the penalty points as ruled and as
    the TSR gives them (per seat of the table, 0 for a seat that does not play), and what
    becomes of the hand."""

    severity: Severity
    contract: Contract
    soloist: int | None
    solo_type: SoloType | None
    wedding_clarified_as_solo: bool
    points: dict[int, int]
    computed: dict[int, int]
    deviation_reason: str
    hand_not_played: bool
    played_without_game_points: bool
    rule: str
    written_line: WrittenLine | None


def _as_on_sheet(
    hand_number: int, line: HandLine, contract: Contract, ruling: Ruling
) -> FieldError | None:
    """A ruling on a hand on the sheet takes its solo or wedding as the sheet has it: the
    penalty points of a solo go with the solo played (TSR 7.3.3.2, 9.3.3), and a wedding's
    holder of both Queens of Clubs is the one the sheet names (TSR 4.4.3 b, 4.4.5)."""
    params = {"hand": hand_number, "contract": line.contract.value}
    if contract.is_solo and (line.contract, line.soloist) != (contract, ruling.soloist):
        return FieldError(
            "contract",
            "TSR 7.3.3.2, 9.3.3",
            gettext_noop(
                "Hand {hand} is on the sheet as a {contract}, not as this solo: the penalty "
                "points of a solo go with the solo played."
            ),
            params,
        )
    if contract not in WEDDINGS:
        return None
    if line.contract != contract:
        return FieldError(
            "contract",
            "TSR 4.4",
            gettext_noop("Hand {hand} is on the sheet as a {contract}, not as this wedding."),
            params,
        )
    if ruling.wedding_clarified_as_solo and line.soloist is None:
        return FieldError(
            "wedding_clarified_as_solo",
            "TSR 4.4.3 a",
            gettext_noop(
                "Hand {hand} is on the sheet as a wedding played with a partner: it never "
                "turned into a solo."
            ),
            params,
        )
    if ruling.soloist is not None and line.soloist not in {None, ruling.soloist}:
        return FieldError(
            "soloist",
            "TSR 4.4.3 b, 4.4.5",
            gettext_noop("On the sheet seat {seat} holds both Queens of Clubs in hand {hand}."),
            {"seat": line.soloist, "hand": hand_number},
        )
    return None


def _raise(problem: FieldError | None) -> None:
    if problem is not None:
        raise InvalidInput([problem])


def written_line_problem(
    hand_number: int, *, written: bool, written_line: WrittenLine | None, stops: bool
) -> FieldError | None:
    """TSR 9.4.3, 9.4.4: a hand ruled stopped, or counted as played without game points,
    whose line is written already: the ruling says which game that line is. Only then."""
    rule = "TSR 9.4.3" if stops else "TSR 9.4.4"
    if written and written_line is None:
        return FieldError(
            "written_line",
            rule,
            gettext_noop(
                "Hand {hand} is written on the sheet already: say whether that line is the "
                "stopped game itself or the game dealt after it."
            )
            if stops
            else gettext_noop(
                "Hand {hand} is written on the sheet already: say whether that line is the "
                "solo itself or the game dealt after it."
            ),
            {"hand": hand_number},
        )
    if not written and written_line is not None:
        return FieldError(
            "written_line",
            rule,
            gettext_noop(
                "Hand {hand} is not written on the sheet yet: there is no line to say anything "
                "about."
            ),
            {"hand": hand_number},
        )
    return None


def ruling_outcome(
    *,
    hand_number: int,
    offender: int,
    table_size: int,
    dealer: int,
    line: HandLine | None,
    ruling: Ruling,
) -> Ruled:
    """The ruling on a breach of seat ``offender`` in hand ``hand_number`` (dealt by
    ``dealer``; ``line``: its line if written): the penalty points by the TSR (TSR 9.2-9.5)
    and, if the adjudicator deviates, his with their reason. Raises ``InvalidInput``."""
    seats = seats_playing(table_size=table_size, dealer=dealer)
    contract = Contract(ruling.contract)
    wedding = contract in WEDDINGS
    clarified = ruling.wedding_clarified_as_solo
    # Penalised as a solo: a solo bid, or a wedding already being played as one (TSR 4.4.3 b,
    # 4.4.5). The sheet names the holder of both Queens of Clubs of a silent wedding anyway.
    solo = contract.is_solo or (wedding and clarified)
    names_soloist = contract.names_soloist or solo
    if clarified and not wedding:
        _raise(
            FieldError(
                "wedding_clarified_as_solo",
                "TSR 4.4.3 b, 4.4.5",
                gettext_noop(
                    "Only a wedding turns into a solo during the game: an announced one when "
                    "its holder takes the first three tricks, a silent one with the second "
                    "Queen of Clubs."
                ),
            )
        )
    if line is not None:
        _raise(_as_on_sheet(hand_number, line, contract, ruling))
    _check_soloist_named(contract, ruling, seats, names_soloist=names_soloist)
    _check_solo_type(contract, ruling)
    _check_offender_plays(hand_number, offender, seats)
    computed = penalty_points(
        Breach(
            severity=Severity(ruling.severity),
            offender=offender,
            solo=solo,
            soloist=ruling.soloist if solo else None,
            seats=seats,
            disadvantages_soloist=ruling.disadvantages_soloist,
            announcements=ruling.announcements,
            decided=ruling.decided,
        )
    )
    tsr = {seat: computed.points.get(seat, 0) for seat in range(1, table_size + 1)}
    scale = [
        {seat: outcome.get(seat, 0) for seat in range(1, table_size + 1)}
        for outcome in tsr_penalties(
            offender=offender, seats=seats, solo=solo, soloist=ruling.soloist if solo else None
        )
    ]
    points, reason = _ruled_points(
        ruling, tsr=tsr, seats=seats, rule=computed.rule, scale=scale, offender=offender
    )
    # Which game a written line is matters only to a ruling that changes the line; to any other
    # the answer is moot (a breach in a game already decided, TSR 9.5.1, or a minor one) and is
    # left aside, so that the page may ask it before the severity is settled.
    changes_line = computed.hand_not_played or computed.played_without_game_points
    if changes_line:
        _raise(
            written_line_problem(
                hand_number,
                written=line is not None,
                written_line=ruling.written_line,
                stops=computed.hand_not_played,
            )
        )
    return Ruled(
        severity=Severity(ruling.severity),
        contract=contract,
        soloist=ruling.soloist if names_soloist else None,
        solo_type=_ruled_solo_type(contract, ruling, names_soloist=names_soloist),
        wedding_clarified_as_solo=clarified,
        points=points,
        computed=tsr,
        deviation_reason=reason,
        hand_not_played=computed.hand_not_played,
        played_without_game_points=computed.played_without_game_points,
        rule=computed.rule,
        written_line=WrittenLine(ruling.written_line)
        if changes_line and ruling.written_line
        else None,
    )


def _check_soloist_named(
    contract: Contract, ruling: Ruling, seats: tuple[int, ...], *, names_soloist: bool
) -> None:
    """Refuse a solo or a wedding played alone without its soloist, or with a holder of both
    Queens of Clubs who does not play the hand (TSR 2.4.7, 4.4.1, 4.4.3 b, 4.4.5, 10.1.1)."""
    wedding = contract in WEDDINGS
    if names_soloist and ruling.soloist is None:
        _raise(
            FieldError(
                "soloist",
                "TSR 4.4.3 b, 4.4.5",
                gettext_noop(
                    "Name the holder of both Queens of Clubs, who plays the wedding alone."
                ),
            )
            if wedding
            else FieldError("soloist", "TSR 2.4.7", gettext_noop("In a solo, name the soloist."))
        )
    if wedding and names_soloist and ruling.soloist not in seats:
        _raise(
            FieldError(
                "soloist",
                "TSR 4.4.1, 10.1.1",
                gettext_noop(
                    "The holder of both Queens of Clubs is one of the seats playing the hand: "
                    "{seats}."
                ),
                {"seats": ", ".join(map(str, seats))},
            )
        )


def _check_solo_type(contract: Contract, ruling: Ruling) -> None:
    """Refuse a solo without its type, a wedding played alone as anything but a diamonds solo,
    and a solo type on a game that is no solo (TSR 2.3.3, 4.4.3 b, 4.4.5)."""
    wedding = contract in WEDDINGS
    if contract.is_solo and ruling.solo_type is None:
        _raise(FieldError("solo_type", "TSR 2.3.3", gettext_noop("Name the solo played.")))
    if wedding and ruling.solo_type not in {None, SoloType.DIAMONDS}:
        _raise(
            FieldError(
                "solo_type",
                "TSR 4.4.3 b, 4.4.5",
                gettext_noop("A wedding played alone is a diamonds solo."),
            )
        )
    if not contract.is_solo and not wedding and ruling.solo_type is not None:
        _raise(FieldError("solo_type", "TSR 2.3.3", gettext_noop("Only a solo has a solo type.")))


def _check_offender_plays(hand_number: int, offender: int, seats: tuple[int, ...]) -> None:
    """Refuse a breach by the dealer who sits out at a table of five (TSR 10.1.1)."""
    if offender not in seats:
        _raise(
            FieldError(
                "offender",
                "TSR 10.1.1",
                gettext_noop(
                    "Seat {seat} deals hand {hand} at a table of five and does not play it: a "
                    "breach in the hand is another player's."
                ),
                {"seat": offender, "hand": hand_number},
            )
        )


def _ruled_points(
    ruling: Ruling,
    *,
    tsr: Mapping[int, int],
    seats: tuple[int, ...],
    rule: str,
    scale: list[dict[int, int]],
    offender: int,
) -> tuple[dict[int, int], str]:
    """The penalty points ruled and the reason for deviating from the TSR's, checked: to the
    seats playing, adding up to zero, on the TSR's scale, and a reason given for a deviation
    (TSR 7.3.3.1, 9.2-9.5, 10.1.2). The reason is dropped when the points are the TSR's.

    The scale (``scale``: every outcome the TSR gives for a breach by ``offender`` in this
    game, ``doko.rules.penalty.tsr_penalties``) bounds a deviation: the adjudicator may judge
    the circumstances otherwise than the ruling's fields say, but awards only penalty points
    the TSR has for a breach. Anything beyond is no penalty for a breach but a sanction for
    unsporting conduct, a deduction without credit to anyone that the arbitration panel
    imposes (TSR 9.6.2 b, 9.6.3): refused here, recorded there. So every ruled line is one
    the odd-even rule allows (TSR 7.3.3.2)."""
    points = dict(tsr)
    reason = ruling.deviation_reason.strip()
    if ruling.penalty is not None:
        points = {seat: int(ruling.penalty.get(seat, 0)) for seat in tsr}
        if set(ruling.penalty) - set(seats):
            _raise(
                FieldError(
                    "penalty",
                    "TSR 10.1.2",
                    gettext_noop("Penalty points go to the seats that play the hand: {seats}."),
                    {"seats": ", ".join(map(str, seats))},
                )
            )
        if sum(points.values()) != 0:
            _raise(
                FieldError(
                    "penalty",
                    "TSR 7.3.3.1, 9.3, 9.4",
                    gettext_noop("The penalty points add up to {sum}; they must add up to zero."),
                    {"sum": sum(points.values())},
                )
            )
    problems = []
    if points != tsr and points not in scale:
        problems.append(
            FieldError(
                "penalty",
                "TSR 9.2-9.5, 9.6.2",
                gettext_noop(
                    "The penalty points {points} (seat 1 first) are none the TSR gives for a "
                    "breach by seat {seat} in this game: a breach costs 3 points, or 12 raised "
                    "by 3 for each point announcement, shared out as TSR 9.3 and 9.4 say. "
                    "Punishing beyond that is a sanction for unsporting conduct, a deduction "
                    "the arbitration panel imposes (TSR 9.6.2 b)."
                ),
                {
                    "seat": offender,
                    "points": "/".join(
                        f"{value:+d}" if value else "0" for value in points.values()
                    ),
                },
            )
        )
    if points != tsr and not reason:
        problems.append(
            FieldError(
                "deviation_reason",
                rule,
                gettext_noop("The penalty points differ from the TSR's: give the reason."),
            )
        )
    if problems:
        raise InvalidInput(problems)
    if points == tsr:
        reason = ""
    return points, reason


def _ruled_solo_type(contract: Contract, ruling: Ruling, *, names_soloist: bool) -> SoloType | None:
    """The solo type of the game ruled on: a wedding played alone is a diamonds solo (TSR
    4.4.3 b, 4.4.5), a solo its own type, any other game none."""
    if contract in WEDDINGS and names_soloist:
        return SoloType.DIAMONDS
    if contract.is_solo:
        assert ruling.solo_type is not None  # a solo without its type is refused above
        return SoloType(ruling.solo_type)
    return None


def hand_ended_problem(*, field: str, hand_number: int, ended_by: int | None) -> FieldError | None:
    """TSR 9.4.2, 9.7.6: a major breach ends the game, so once one is initialled nothing more
    in that hand is penalised. ``ended_by``: the offender of another initialled major breach
    in the hand, if any."""
    if ended_by is None:
        return None
    return FieldError(
        field,
        "TSR 9.7.6, 9.4.2",
        gettext_noop(
            "Hand {hand} was ended by the major breach of seat {seat}, initialled already: "
            "nothing more in it is penalised."
        ),
        {"hand": hand_number, "seat": ended_by},
    )


def appeal_in_time(
    *,
    hands_at_initials: int,
    hands_written: int,
    hand_follows: bool,
    initialled_at: datetime,
    now: datetime,
) -> bool:
    """TSR 9.7.7 "nur sofort": whether an appeal against a ruling is in time. No hand may have
    been written since the ruling was initialled; and if no hand follows (the last hand, the
    sheet handed in), it comes within ``APPEAL_MINUTES`` of the initials."""
    if hands_written > hands_at_initials:
        return False
    return hand_follows or now - initialled_at <= timedelta(minutes=APPEAL_MINUTES)


def appeal_time_problem(
    *,
    hands_at_initials: int,
    hands_written: int,
    hand_follows: bool,
    initialled_at: datetime,
    now: datetime,
) -> FieldError | None:
    """Why an appeal comes too late (TSR 9.7.7), or None while it is in time."""
    if appeal_in_time(
        hands_at_initials=hands_at_initials,
        hands_written=hands_written,
        hand_follows=hand_follows,
        initialled_at=initialled_at,
        now=now,
    ):
        return None
    if hands_written > hands_at_initials:
        return FieldError(
            "decision",
            "TSR 9.7.7",
            ngettext_noop(
                "An appeal is made at once: {count} hand has been written since the ruling was "
                "initialled, so the ruling stands.",
                "An appeal is made at once: {count} hands have been written since the ruling "
                "was initialled, so the ruling stands.",
            ),
            {"count": hands_written - hands_at_initials},
        )
    return FieldError(
        "decision",
        "TSR 9.7.7",
        ngettext_noop(
            "An appeal is made at once: no hand followed the ruling, and {minutes} minute "
            "after its initials it stands.",
            "An appeal is made at once: no hand followed the ruling, and {minutes} minutes "
            "after its initials it stands.",
            count="minutes",
        ),
        {"minutes": APPEAL_MINUTES},
    )


def first_instance(*, ruled_by: int | None, initialled_by: int | None) -> frozenset[int]:
    """Who decided in the first instance (TSR 8.2.1): whoever ruled and whoever initialled."""
    return frozenset(who for who in (ruled_by, initialled_by) if who is not None)


def own_ruling(
    *, deciders: Collection[int], ruled_by: int | None, initialled_by: int | None
) -> frozenset[int]:
    """Those of ``deciders`` (the panel's members, or the one recording its decision) who
    would decide an appeal against their own ruling (TSR 8.2.1: two instances)."""
    return frozenset(deciders) & first_instance(ruled_by=ruled_by, initialled_by=initialled_by)
