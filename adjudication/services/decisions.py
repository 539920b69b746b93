"""Complaints and the adjudicator's rulings on a hand, and initialling them (TSR 8.2.1, 8.2.2,
9.2-9.5)."""

from collections.abc import Iterable, Mapping
from dataclasses import replace

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import Param, label_said, offence_said, said
from adjudication.models import (
    SEVERITY_LABELS,
    Decision,
    Event,
    Offence,
)
from adjudication.selectors import sheet_adjudication
from adjudication.services.common import (
    log_event,
    require_match_open,
)
from adjudication.services.offences import require_offence_of
from doko.rules import procedure
from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import SEAT_NUMBERS
from doko.rules.penalty import Severity
from doko.rules.problems import FieldError, InvalidInput
from doko.rules.procedure import WrittenLine
from doko.rules.sheet import HandLine
from scoring.models import CONTRACT_LABELS, Scoresheet
from scoring.selectors import hand_lines, hand_snapshot, line_from_snapshot, scoresheet_check
from scoring.services import (
    scoresheet_hand_stop,
    scoresheet_hand_unstop,
    scoresheet_hand_unvoid,
    scoresheet_hand_void,
    scoresheet_locked,
)
from tournaments import messages
from tournaments.caching import table_changed
from tournaments.services import results_refresh
from tournaments.services.common import save_validated


@transaction.atomic
def complaint_record(
    *,
    scoresheet: Scoresheet,
    hand_number: int,
    offender: int,
    description: str,
    complainant: int | None = None,
    offence: Offence | None = None,
    by: User,
) -> Decision:
    """Note a complaint about a breach in one hand (TSR 9.7.5): the adjudicator is called to
    the table. The hand is a line already on the sheet or the one being played (the next)."""
    sheet = scoresheet_locked(scoresheet)
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_rule(table=sheet.table, user=by))
    require_match_open(sheet)
    require_valid(
        procedure.complaint_problems(
            hand_number=hand_number,
            offender=offender,
            complainant=complainant,
            table_size=sheet.table_size(),
            hands_written=sheet.hands.count(),
            ended=sheet_adjudication(sheet=sheet).ended,
        )
    )
    if offence is not None:
        require_offence_of(offence, tournament)
        if offence.kind != Offence.Kind.BREACH:
            raise ValidationError(
                {
                    "offence": _(
                        "“%(name)s” is unsporting conduct: it is a sanction, not penalty points "
                        "on a hand (TSR 9.6.2)."
                    )
                    % {"name": offence.label}
                }
            )
    # The standard offence alone may say what happened; it is shown in the reader's language.
    description = description.strip()
    if not description and offence is None:
        raise ValidationError({"description": _("Say what happened.")})
    decision = save_validated(
        Decision(
            scoresheet=sheet,
            hand_number=hand_number,
            offender=offender,
            complainant=complainant,
            offence=offence,
            description=description,
            recorded_by=by,
        )
    )
    log_event(
        tournament,
        by=by,
        action=Event.Action.COMPLAINT,
        decision=decision,
        summary=said(
            gettext_noop(
                "Round %(round)d, table %(table)d, hand %(hand)d: complaint against seat "
                "%(seat)d: %(what)s"
            ),
            round=sheet.table.round.number,
            table=sheet.table.number,
            hand=hand_number,
            seat=offender,
            what=description or (offence_said(offence) if offence else ""),
        ),
    )
    table_changed(
        round_id=sheet.table.round_id, number=sheet.table.number
    )  # the desk shows the complaint open
    return decision


Ruling = procedure.Ruling
WEDDINGS = procedure.WEDDINGS


def require_valid(problems: Iterable[FieldError | None]) -> None:
    """The core's problems as a ValidationError keyed by field, translated, each with its TSR
    section (``tournaments.messages.require_valid``), a contract named by its label; nothing
    if there are none."""
    messages.require_valid(_labelled(problem) for problem in problems if problem is not None)


def _labelled(problem: FieldError) -> FieldError:
    """A contract named in a core message by its value is named by its label, translated."""
    if "contract" not in problem.params:
        return problem
    label = str(CONTRACT_LABELS[Contract(problem.params["contract"])])
    return replace(problem, params={**problem.params, "contract": label})


def _hand_on_sheet(sheet: Scoresheet, number: int, size: int) -> tuple[int, HandLine | None]:
    """Who deals hand ``number``, and its line if it is on the sheet already; for the hand
    being played the next dealer by the TSR (TSR 3.1, 4.2.5)."""
    lines = hand_lines(list(sheet.hands.all()))
    if number <= len(lines):
        return lines[number - 1].dealer, lines[number - 1]
    return scoresheet_check(scoresheet=sheet, hands=lines, table_size=size).next.dealer, None


def ruled(decision: Decision, ruling: Ruling) -> dict:
    """The decision's fields for ``ruling``, as the core works them out
    (``doko.rules.procedure.ruling_outcome``): the penalty points by the TSR (TSR 9.2-9.5)
    and, if the adjudicator deviates, his with their reason."""
    sheet = decision.scoresheet
    size = sheet.table_size()
    dealer, line = _hand_on_sheet(sheet, decision.hand_number, size)
    try:
        outcome = procedure.ruling_outcome(
            hand_number=decision.hand_number,
            offender=decision.offender,
            table_size=size,
            dealer=dealer,
            line=line,
            ruling=ruling,
        )
    except InvalidInput as error:
        require_valid(error.errors)
        raise  # unreachable: an InvalidInput has its problems
    return {
        "severity": outcome.severity.value,
        "contract": outcome.contract.value,
        "soloist": outcome.soloist,
        "solo_type": outcome.solo_type.value if outcome.solo_type else "",
        "wedding_clarified_as_solo": outcome.wedding_clarified_as_solo,
        "disadvantages_soloist": ruling.disadvantages_soloist,
        "announcements": ruling.announcements,
        "decided": ruling.decided,
        **{f"penalty_{seat}": outcome.points.get(seat) for seat in SEAT_NUMBERS},
        "computed": {str(seat): value for seat, value in outcome.computed.items()},
        "deviation_reason": outcome.deviation_reason,
        "hand_not_played": outcome.hand_not_played,
        "played_without_game_points": outcome.played_without_game_points,
        "rule": outcome.rule,
        "written_line": outcome.written_line.value if outcome.written_line else "",
    }


def _points_said(decision: Decision) -> Param:
    return [
        said(gettext_noop("seat %(seat)d: %(points)+d"), seat=seat, points=points)
        for seat, points in decision.penalty.items()
        if points
    ] or said(gettext_noop("no penalty points"))


def _ruled_params(decision: Decision) -> dict[str, Param]:
    """What the log says of a ruling: the hand, the offender, severity, points and rule."""
    return {
        "hand": decision.hand_number,
        "seat": decision.offender,
        "severity": label_said(SEVERITY_LABELS[Severity(decision.severity)]),
        "points": _points_said(decision),
        "rule": decision.rule,
    }


def require_hand_not_ended(decision: Decision, *, field: str) -> None:
    """TSR 9.4.2, 9.7.6: a major breach ends the game, so once one is initialled nothing more
    in that hand is penalised; a minor breach initialled first leaves the hand open to a
    later complaint, which may be major. The decision being replaced on appeal (superseded
    by now) does not count."""
    other = sheet_adjudication(sheet=decision.scoresheet).ended.get(decision.hand_number)
    ended_by = other.offender if other is not None and other.pk != decision.pk else None
    require_valid(
        [
            procedure.hand_ended_problem(
                field=field, hand_number=decision.hand_number, ended_by=ended_by
            )
        ]
    )


def decision_lock(decision: Decision) -> Decision:
    return (
        Decision.objects.select_for_update(of=("self",))
        .select_related("scoresheet__table__round__tournament")
        .get(pk=decision.pk)
    )


@transaction.atomic
def decision_rule(*, decision: Decision, ruling: Ruling, by: User) -> Decision:
    """Rule on a complaint: the severity and the circumstances, from which the penalty points
    follow (TSR 9.2-9.5). The decision waits for initials (TSR 8.2.2); until then it may be
    ruled again."""
    decision = decision_lock(decision)
    sheet = scoresheet_locked(decision.scoresheet)
    decision.scoresheet = sheet
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_rule(table=sheet.table, user=by))
    if decision.status not in {Decision.Status.OPEN, Decision.Status.DRAFT}:
        raise ValidationError(
            {
                "status": _(
                    "The decision is %(status)s: it is never changed again, only by the "
                    "arbitration panel on appeal (TSR 8.2.1)."
                )
                % {"status": decision.get_status_display()}
            }
        )
    require_match_open(sheet)
    for name, value in ruled(decision, ruling).items():
        setattr(decision, name, value)
    decision.ruled_by = by
    decision.status = Decision.Status.DRAFT
    save_validated(decision)
    log_event(
        tournament,
        by=by,
        action=Event.Action.RULING,
        decision=decision,
        summary=said(
            gettext_noop("Hand %(hand)d, seat %(seat)d: %(severity)s, %(points)s (%(rule)s)"),
            **_ruled_params(decision),
        ),
        penalty=decision.computed if not decision.deviates else seat_keys(decision.penalty),
        deviation_reason=decision.deviation_reason,
    )
    table_changed(round_id=sheet.table.round_id, number=sheet.table.number)
    return decision


def seat_keys(points: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): value for seat, value in points.items()}


def _shift_decisions(sheet: Scoresheet, *, after: int, by_lines: int) -> None:
    """The lines after ``after`` moved when a stopped hand came on or off the sheet: the
    decisions on them move with them."""
    Decision.objects.filter(scoresheet=sheet, hand_number__gt=after).update(
        hand_number=F("hand_number") + by_lines
    )


def _lines_added(sheet: Scoresheet, by_lines: int) -> None:
    """A decision put a line on the sheet or took one off: no hand the table wrote, so the
    count an appeal against another decision is timed by moves with it (TSR 9.7.7)."""
    Decision.objects.filter(scoresheet=sheet, hands_at_initials__isnull=False).update(
        hands_at_initials=F("hands_at_initials") + by_lines
    )


def _replaces_written(decision: Decision) -> bool:
    return decision.written_line == WrittenLine.STOPPED


def hand_stop(decision: Decision, by: User) -> None:
    """Put the hand the decision stopped on the sheet as not played (TSR 9.4.3): before the
    line written as its number, which is the replay (``written_line`` next, or the hand was
    being played), or in place of it, the line being the stopped game itself (``stopped``),
    which the decision keeps for an appeal."""
    replace_written = _replaces_written(decision)
    if not replace_written:
        _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=1)
        _lines_added(decision.scoresheet, 1)
    replaced = scoresheet_hand_stop(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        contract=Contract(decision.contract),
        soloist=decision.soloist,
        solo_type=SoloType(decision.solo_type) if decision.solo_type else None,
        by=by,
        replace_written=replace_written,
    )
    decision.replaced_line = hand_snapshot(replaced) if replaced else None


def hand_unstop(decision: Decision, by: User) -> None:
    """Undo ``hand_stop``: the stopped game's line comes off, and the line it replaced comes
    back in its place."""
    replaced = decision.replaced_line if _replaces_written(decision) else None
    scoresheet_hand_unstop(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        by=by,
        line=line_from_snapshot(replaced) if replaced else None,
    )
    if replaced is None:
        _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=-1)
        _lines_added(decision.scoresheet, -1)


def hand_void(decision: Decision, by: User) -> None:
    """Count the solo as played without game points (TSR 9.4.4): its line goes on the sheet
    with no points, or loses the scorekeeper's, which the decision keeps for an appeal; where
    the line written as its number is the game dealt after the solo (``written_line`` next),
    the solo's line goes in before it."""
    # Only an opponent's major breach in a solo is ruled so, and a solo names its soloist.
    assert decision.soloist is not None
    insert = decision.written_line == WrittenLine.NEXT
    if insert:
        _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=1)
    replaced = scoresheet_hand_void(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        contract=Contract(decision.contract),
        soloist=decision.soloist,
        solo_type=SoloType(decision.solo_type) if decision.solo_type else None,
        by=by,
        insert=insert,
    )
    if replaced is None:  # put in before the written line, or as the hand being played
        _lines_added(decision.scoresheet, 1)
    decision.replaced_line = hand_snapshot(replaced) if replaced else None


def hand_unvoid(decision: Decision, by: User) -> None:
    """The panel changed or annulled a decision that counted the solo as played without game
    points: the line gets back the scorekeeper's points; one the decision put in before a
    written line comes off again; one it put on the sheet as the hand being played comes off
    if it is the last (the game stood still, TSR 9.7.7), or else stays with no points for the
    scorekeeper to correct. Either way it is the scorekeeper's again."""
    removed = scoresheet_hand_unvoid(
        scoresheet=decision.scoresheet,
        number=decision.hand_number,
        line=line_from_snapshot(decision.replaced_line) if decision.replaced_line else None,
        by=by,
        remove=decision.written_line == WrittenLine.NEXT,
    )
    if removed:
        _shift_decisions(decision.scoresheet, after=decision.hand_number, by_lines=-1)
        _lines_added(decision.scoresheet, -1)


def require_written_line_known(decision: Decision) -> None:
    """TSR 9.4.3, 9.4.4: a ruling that changes a line says which the written line is; a hand
    written since the ruling is asked about before the initials put it on the sheet."""
    if not (decision.hand_not_played or decision.played_without_game_points):
        return
    if decision.written_line or decision.hand_number > decision.scoresheet.hands.count():
        return
    require_valid(
        [
            procedure.written_line_problem(
                decision.hand_number,
                written=True,
                written_line=None,
                stops=decision.hand_not_played,
            )
        ]
    )


@transaction.atomic
def decision_initial(*, decision: Decision, by: User) -> Decision:
    """Initial a ruling (TSR 8.2.2: the adjudicator, a deputy, or a member of the arbitration
    panel, ``policies.may_initial``): from now on its penalty points count on the sheet, in its
    PDF and in the standings, and it is never edited. A hand stopped by a major breach in a
    normal game (or by the soloist) comes on the sheet as not played (TSR 9.4.3); a solo
    stopped by an opponent's counts as played, its line without game points (TSR 9.4.4).
    Nothing more is initialled in a hand a major breach ended (TSR 9.4.2, 9.7.6)."""
    decision = decision_lock(decision)
    sheet = scoresheet_locked(decision.scoresheet)
    decision.scoresheet = sheet
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_initial(table=sheet.table, user=by))
    if decision.status != Decision.Status.DRAFT:
        raise ValidationError(
            {
                "status": _(
                    "Only a ruling waiting for initials is initialled; this one is %(status)s."
                )
                % {"status": decision.get_status_display()}
            }
        )
    require_match_open(sheet)
    require_hand_not_ended(decision, field="hand_number")
    require_written_line_known(decision)
    decision.status = Decision.Status.INITIALLED
    decision.initialled_by = by
    decision.initialled_at = timezone.now()
    if decision.played_without_game_points:
        hand_void(decision, by)
    elif decision.hand_not_played:
        hand_stop(decision, by)
    # The count an appeal is timed by (TSR 9.7.7), the decision's own line included.
    decision.hands_at_initials = sheet.hands.count()
    save_validated(decision)
    log_event(
        tournament,
        by=by,
        action=Event.Action.INITIALS,
        decision=decision,
        summary=said(
            gettext_noop("Hand %(hand)d, seat %(seat)d: initialled, %(points)s (%(rule)s)"),
            **_ruled_params(decision),
        ),
        hand_not_played=decision.hand_not_played,
        played_without_game_points=decision.played_without_game_points,
    )
    results_refresh(tables=[sheet.table])
    table_changed(
        round_id=sheet.table.round_id, number=sheet.table.number
    )  # the desk's complaint is decided
    return decision
