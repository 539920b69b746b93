"""What a change to a scoresheet may do, beyond the check of its hands (``doko.rules.sheet``):
the adjudicators' decisions stay as they are, the end of the playing time is noted when it has
come and after a hand the sheet has, a sheet is handed in complete, a hand is struck out with
the deal following it, and a line an adjudicator's decision puts on the sheet scores nothing.

The scoring services read the sheet (its hands, the decisions on it, the table's clock) into
these arguments, ask here, and store what comes back; a problem carries its field, its TSR
section and a message template (``doko.rules.problems``), which the Django layer translates
(``tournaments.messages``).

The readings:

- TSR 8.2.2 („Vergebene Strafpunkte sind … abzuzeichnen") with 9.4.3, 9.4.4 and 9.1.3: what
  the adjudicators decided on a hand is theirs. The scorekeeper corrects the hands he wrote,
  but a hand stopped and counted as not played stays so and no other becomes one, a solo
  counted as played without game points stays so, the record of a game broken off and dealt
  again (9.1.3) is only the adjudicator's to add, and no hand before a decision is struck
  out, which would move the decision to another hand.
- TSR 8.5.1: „Das Ende der Spielrunde wird durch den Schiedsrichter bekanntgegeben": the end
  of the playing time is noted on a sheet once it has come for its table (a table of five's
  125 minutes, TSR 10.1.5, and its extra time), after a hand the sheet has.
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import TABLE_OF_FOUR
from doko.rules.problems import FieldError, Template, gettext_noop, ngettext_noop
from doko.rules.sheet import HandLine, Problem, Replay, with_dealers

TIME_OVER = "time_over_after_hand"


def time_over_problem(*, hands: int, after: int | None) -> FieldError | None:
    """The playing time ended after a hand the entry of ``hands`` hands has, or before the
    first (TSR 8.5.1); None: it is not noted."""
    if after is None or 0 <= after <= hands:
        return None
    return FieldError(
        TIME_OVER,
        "TSR 8.5.1",
        ngettext_noop(
            "The playing time cannot have ended after hand {after}: the sheet has {count} hand "
            "({rule}).",
            "The playing time cannot have ended after hand {after}: the sheet has {count} hands "
            "({rule}).",
        ),
        {"after": after, "count": hands},
    )


@dataclass(frozen=True)
class TableTime:
    """A table's playing time as its clock reads now (``doko.rules.playing_time``): its
    number, whether it is over, whether the adjudicator announced the end of the round,
    whether it is a table of five, and when it ends, in the reader's words (``ends_at``)."""

    table: int
    over: bool
    announced: bool
    five: bool
    ends_at: str = ""


def time_over_note_problem(
    *, after: int | None, noted: int | None, time: TableTime
) -> FieldError | None:
    """The end of the playing time is noted (``after``) only once it has come for the table
    (TSR 8.5.1, 10.1.5): the adjudicator announced the end of the round, and the table's own
    time is over too, a table of five's longer match and its extra time. Clearing the note, or
    keeping it as it is (``noted``), is always allowed."""
    if after is None or after == noted or time.over:
        return None
    template: Template
    if not time.announced:
        rule = "TSR 8.5.1"
        template = gettext_noop(
            "The playing time of table {table} has not ended: the adjudicator announces the "
            "end of the round, and only then is it noted after which hand ({rule})."
        )
    elif time.five:
        rule = "TSR 8.5.1, 10.1.5"
        template = gettext_noop(
            "The playing time of table {table} ends at {time} ({rule}): until then the table "
            "plays on, and the end is noted after that."
        )
    else:
        rule = "TSR 8.5.1"
        template = gettext_noop(
            "The playing time of table {table} ends at {time}, with its extra time ({rule}): "
            "until then the table plays on, and the end is noted after that."
        )
    return FieldError(TIME_OVER, rule, template, {"table": time.table, "time": time.ends_at})


def decisions_kept_problems(
    *,
    old: Sequence[HandLine],
    new: Sequence[HandLine],
    stopped: Collection[int],
    without_game_points: Collection[int],
    decided: Collection[int],
) -> list[FieldError]:
    """What the scorekeeper's new hands (``new``, for ``old``) move of the adjudicators'
    decisions (TSR 8.2.2, 9.1.3, 9.4.3, 9.4.4): the hands ``stopped`` and counted as not
    played, the solos counted as played ``without_game_points``, and the hands ``decided`` on
    (numbers on the sheet). One problem a hand, on ``hands``; empty: they stay as they are."""
    problems = []
    for number, line in enumerate(new, start=1):
        kept = number <= len(old) and old[number - 1] == line
        if line.replay is not None:
            # The adjudicator's record (TSR 9.1.3): kept as it is, or struck, not made here.
            if line not in old:
                problems.append(
                    FieldError(
                        "hands",
                        "TSR 9.1.3",
                        gettext_noop(
                            "Hand {hand}: only the adjudicator records a game broken off and "
                            "dealt again ({rule}); the scorekeeper does not add one."
                        ),
                        {"hand": number},
                    )
                )
            continue
        if (line.not_played or number in stopped) and not (kept and number in stopped):
            problems.append(
                FieldError(
                    "hands",
                    "TSR 9.4.3",
                    gettext_noop(
                        "Hand {hand}: only the adjudicator's decision stops a hand and counts it "
                        "as not played ({rule}); the scorekeeper does not change that."
                    ),
                    {"hand": number},
                )
            )
        elif number in without_game_points and not kept:
            problems.append(
                FieldError(
                    "hands",
                    "TSR 9.4.4",
                    gettext_noop(
                        "Hand {hand}: the adjudicator's decision counts this solo as played "
                        "without game points ({rule}); the scorekeeper does not change that."
                    ),
                    {"hand": number},
                )
            )
    missing = [number for number in {*stopped, *without_game_points} if number > len(new)]
    last = max((number for number in decided if number <= len(old)), default=0)
    if missing or (len(new) < len(old) and list(new[:last]) != list(old[:last])):
        problems.append(
            FieldError(
                "hands",
                "TSR 8.2.2",
                gettext_noop(
                    "Hands up to hand {hand} carry the adjudicators' decisions: correct a hand "
                    "before them, but do not strike it out ({rule})."
                ),
                {"hand": max([last, *missing])},
            )
        )
    return problems


def incomplete_problem(
    *,
    time_noted: bool,
    time_over: bool,
    table_size: int,
    remaining: int,
    hands_per_match: int,
    forced_soloist: int | None,
) -> Problem:
    """Why a sheet the check finds nothing wrong with cannot be handed in yet (TSR 8.5.1,
    8.5.3, 8.6.1): a forced solo is still owed after the noted end of the playing time; or
    the table plays on (``time_over`` not: the round runs, or a table of five or with extra
    time plays past the end, TSR 10.1.5); or its time is over and the sheet does not yet say
    after which hand. ``remaining`` and ``forced_soloist``: what the check says comes next."""
    template: Template
    if time_noted:
        rule = "TSR 8.5.3, 8.6.1"
        template = gettext_noop("Seat {seat} must still play a forced solo.")
    elif not time_over:
        rule = "TSR 8.5.1, 8.6.1" if table_size == TABLE_OF_FOUR else "TSR 10.1.5, 8.6.1"
        template = ngettext_noop(
            "The scoresheet is not complete: {remaining} of the round's {count} hands is still "
            "to be played, compulsory solos included.",
            "The scoresheet is not complete: {remaining} of the round's {count} hands are still "
            "to be played, compulsory solos included.",
            count="remaining",
        )
    else:
        rule = "TSR 8.5.1, 8.5.3"
        template = gettext_noop(
            "The playing time has ended: note after which hand, so that the forced solos still "
            "due can be checked."
        )
    return Problem(
        None,
        "incomplete",
        rule,
        template,
        {"remaining": remaining, "count": hands_per_match, "seat": forced_soloist},
    )


def zero_line_problem(*, hands: int, number: int) -> FieldError | None:
    """An adjudicator's decision puts its line on a hand on the sheet or the one being played
    (TSR 9.7.5)."""
    if 1 <= number <= hands + 1:
        return None
    return FieldError(
        "hand_number",
        "TSR 9.7.5",
        ngettext_noop(
            "The sheet has {count} hand; hand {hand} is neither on it nor the hand being played.",
            "The sheet has {count} hands; hand {hand} is neither on it nor the hand being played.",
        ),
        {"count": hands, "hand": number},
    )


def zero_line(
    *,
    dealer: int,
    table_size: int,
    contract: Contract,
    soloist: int | None = None,
    solo_type: SoloType | None = None,
    not_played: bool = False,
    replay: Replay | None = None,
) -> HandLine:
    """The line an adjudicator's decision puts on the sheet: no game points for any seat,
    dealt by ``dealer`` (the dealer of the line on the sheet, or for the hand being played
    the next by the TSR, TSR 3.1, 4.2.5). A hand stopped (TSR 9.4.3) or broken off and dealt
    again (TSR 9.1.3) is ``not_played``; a solo counted as played without game points (TSR
    9.4.4) is not."""
    return HandLine(
        contract=contract,
        dealer=dealer,
        points=dict.fromkeys(range(1, table_size + 1), 0),
        soloist=soloist,
        solo_type=solo_type,
        game_value=0,
        not_played=not_played,
        replay=replay,
    )


@dataclass(frozen=True)
class Struck:
    """An entry with a hand struck out: its hands, and where its time-over mark now is."""

    lines: list[HandLine]
    time_over: int | None


def strike_problem(*, hands: int, number: int) -> FieldError | None:
    """Only a hand on the entry is struck out; the number is the input's, no rule of the TSR."""
    if 1 <= number <= hands:
        return None
    return FieldError("number", "", gettext_noop("There is no hand {number}."), {"number": number})


def lines_struck(
    lines: Sequence[HandLine],
    *,
    number: int,
    table_size: int,
    hands_per_match: int,
    time_over: int | None,
    out_of_turn: Collection[int] = (),
) -> Struck:
    """An entry's hands with hand ``number`` struck out (TSR 7.3.3): the later ones move up
    one and are dealt again as the TSR says, but for those that stood as dealt out of turn
    (``out_of_turn``, TSR 9.7.3); a time-over mark past the last hand moves back to it (TSR
    8.5.1). Ask ``strike_problem`` first."""
    if not 1 <= number <= len(lines):
        raise ValueError(f"there is no hand {number}")
    kept = [line for index, line in enumerate(lines, start=1) if index != number]
    if time_over is not None and time_over > len(kept):
        time_over = len(kept)
    standing = {n if n < number else n - 1 for n in out_of_turn if n != number}
    dealt = with_dealers(
        kept,
        table_size=table_size,
        hands_per_match=hands_per_match,
        time_over_after_hand=time_over,
        kept=standing,
    )
    return Struck(dealt, time_over)
