"""Appeals against the adjudicator's decisions, heard by the arbitration panel, whose decision
is final (TSR 8.2.1, 9.7)."""

from collections.abc import Collection

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import label_said, said
from adjudication.models import (
    Appeal,
    Decision,
    Event,
)
from adjudication.services.common import (
    log_event,
    require_match_open,
)
from adjudication.services.decisions import (
    Ruling,
    decision_lock,
    hand_stop,
    hand_unstop,
    hand_unvoid,
    hand_void,
    require_hand_not_ended,
    require_valid,
    ruled,
    seat_keys,
)
from adjudication.services.panel import interruption_give_back, panel_checks, panel_record
from adjudication.services.sanctions import SanctionRuling, sanction_appeal_decide
from doko.rules import procedure
from doko.rules.penalty import Severity
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, scoresheet_check
from scoring.services import (
    scoresheet_locked,
)
from tournaments.caching import table_changed
from tournaments.services import results_refresh
from tournaments.services.common import save_validated


def require_in_time(decision: Decision) -> None:
    """TSR 9.7.7 "nur sofort" (``doko.rules.procedure.appeal_in_time``): no hand written since
    the initials, and if no hand follows (the last hand, the sheet handed in), within
    ``APPEAL_MINUTES`` of them."""
    sheet = decision.scoresheet
    lines = hand_lines(list(sheet.hands.all()))
    follows = (
        sheet.status == Scoresheet.Status.DRAFT
        and not scoresheet_check(
            scoresheet=sheet, hands=lines, table_size=sheet.table_size()
        ).complete
    )
    assert decision.initialled_at is not None  # only an initialled decision gets here
    require_valid(
        [
            procedure.appeal_time_problem(
                hands_at_initials=(
                    len(lines) if decision.hands_at_initials is None else decision.hands_at_initials
                ),
                hands_written=len(lines),
                hand_follows=follows,
                initialled_at=decision.initialled_at,
                now=timezone.now(),
            )
        ]
    )


@transaction.atomic
def appeal_lodge(*, decision: Decision, appellant: int, grounds: str = "", by: User) -> Appeal:
    """A player appeals against the adjudicator's decision, at once (TSR 9.7.7): before the
    table writes another hand, or if none follows within ``APPEAL_MINUTES`` of the initials;
    the game stays suspended until the arbitration panel has decided. Not while the tournament
    has no arbitration panel to decide it (TSR 8.2.1, ``policies.panel_appointed``)."""
    policies.enforce(
        policies.panel_appointed(tournament=decision.scoresheet.table.round.tournament)
    )
    decision = decision_lock(decision)
    sheet = decision.scoresheet
    tournament = sheet.table.round.tournament
    policies.enforce(policies.may_lodge_appeal(tournament=tournament, user=by))
    if decision.status != Decision.Status.INITIALLED:
        raise ValidationError(
            {
                "decision": _(
                    "An appeal is against the adjudicator's initialled decision; this one is "
                    "%(status)s (TSR 9.7.7)."
                )
                % {"status": decision.get_status_display()}
            }
        )
    if decision.appeal_id is not None:
        raise ValidationError(
            {"decision": _("This is the arbitration panel's decision: it is final (TSR 8.2.1).")}
        )
    if Appeal.objects.filter(decision=decision).exists():
        raise ValidationError({"decision": _("This decision has been appealed already.")})
    require_match_open(sheet)
    require_in_time(decision)
    require_valid([procedure.seat_problem("appellant", appellant, sheet.table_size())])
    appeal = save_validated(
        Appeal(decision=decision, appellant=appellant, grounds=grounds.strip(), lodged_by=by)
    )
    log_event(
        tournament,
        by=by,
        action=Event.Action.APPEAL,
        decision=decision,
        appeal=appeal,
        summary=said(
            gettext_noop("Round %(round)d, table %(table)d, hand %(hand)d: seat %(seat)d appeals"),
            round=sheet.table.round.number,
            table=sheet.table.number,
            hand=decision.hand_number,
            seat=appellant,
        ),
        grounds=appeal.grounds,
    )
    return appeal


@transaction.atomic
def appeal_decide(
    *,
    appeal: Appeal,
    outcome: Appeal.Outcome,
    members: Collection[User],
    reasons: str,
    interruption: int = 0,
    ruling: Ruling | None = None,
    sanction: SanctionRuling | None = None,
    by: User,
) -> Appeal:
    """The arbitration panel's final decision on an appeal (TSR 8.2.1): uphold the decision,
    change it, or annul it; its members (none of whom plays at the table concerned) and its
    reasons. On a complaint's ruling, a change is the panel's own ``ruling``, initialled at
    once, which supersedes it: a hand stopped or no longer stopped comes on or off the sheet;
    a solo no longer counted as played without game points gets back the scorekeeper's points
    (or, put on the sheet by the decision, comes off if it is the last line), and one the
    panel counts so loses them. On a bound decision (a sanction), a change is the panel's own
    ``sanction``; annulled, a deduction no longer counts. The table concerned and the tables
    of the members get the interruption back as extra time (TSR 8.5.1)."""
    appeal = Appeal.objects.select_for_update(of=("self",)).get(pk=appeal.pk)
    if appeal.sanction_id is not None:
        return sanction_appeal_decide(
            appeal=appeal,
            outcome=outcome,
            members=members,
            reasons=reasons,
            interruption=interruption,
            ruling=ruling,
            change=sanction,
            by=by,
        )
    # Not against a sanction, so against a decision (appeal_against_a_decision_or_a_sanction).
    assert appeal.decision is not None
    decision = decision_lock(appeal.decision)
    sheet = scoresheet_locked(decision.scoresheet)
    decision.scoresheet = sheet
    outcome = panel_checks(
        appeal,
        table=sheet.table,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )
    _require_own_ruling(outcome, ruling=ruling, sanction=sanction)
    require_match_open(sheet)
    panel_record(
        appeal,
        outcome=outcome,
        members=members,
        reasons=reasons,
        interruption=interruption,
        by=by,
    )

    replacement = _decision_change(decision, appeal, outcome=outcome, ruling=ruling, by=by)
    _log_panel(appeal, decision, replacement, members=members, by=by)
    reason = _("Arbitration panel on table %(table)d, hand %(hand)d (TSR 8.5.1)") % {
        "table": sheet.table.number,
        "hand": decision.hand_number,
    }
    interruption_give_back(appeal, sheet.table, members=members, reason=reason, by=by)
    results_refresh(tables=[sheet.table])
    table_changed(round_id=sheet.table.round_id, number=sheet.table.number)
    return appeal


def _require_own_ruling(
    outcome: Appeal.Outcome, *, ruling: Ruling | None, sanction: SanctionRuling | None
) -> None:
    """On a complaint the panel gives its own ruling when, and only when, it changes the
    decision, and never a sanction of its own."""
    if sanction is not None:
        raise ValidationError(
            {
                "sanction": _(
                    "The panel's own sanction is for an appeal against a sanction; on a "
                    "complaint it gives its own ruling."
                )
            }
        )
    if (ruling is not None) != (outcome == Appeal.Outcome.CHANGE):
        raise ValidationError(
            {
                "ruling": _(
                    "The panel gives its own ruling when, and only when, it changes the decision."
                )
            }
        )


def _decision_change(
    decision: Decision,
    appeal: Appeal,
    *,
    outcome: Appeal.Outcome,
    ruling: Ruling | None,
    by: User,
) -> Decision | None:
    """Supersede or annul the decision the panel did not uphold, its hand coming back onto the
    sheet or off it, and record the panel's own ruling if it changed the decision (TSR 8.2.1).
    Returns that ruling's decision."""
    if outcome == Appeal.Outcome.UPHOLD:
        return None
    decision.status = (
        Decision.Status.SUPERSEDED if outcome == Appeal.Outcome.CHANGE else Decision.Status.ANNULLED
    )
    save_validated(decision)
    if decision.hand_not_played:
        hand_unstop(decision, by)
    elif decision.played_without_game_points:
        hand_unvoid(decision, by)
    if outcome != Appeal.Outcome.CHANGE:
        return None
    assert ruling is not None  # a change comes with the panel's ruling, checked above
    return _panel_ruling(decision, appeal, ruling=ruling, by=by)


def _panel_ruling(decision: Decision, appeal: Appeal, *, ruling: Ruling, by: User) -> Decision:
    """The panel's own ruling on the complaint of ``decision``, initialled at once, its hand
    stopped or counted as played without game points as it rules."""
    sheet = decision.scoresheet
    replacement = Decision(
        scoresheet=sheet,
        hand_number=decision.hand_number,
        offender=decision.offender,
        complainant=decision.complainant,
        offence=decision.offence,
        description=decision.description,
        recorded_by=by,
        initialled_by=by,
        initialled_at=appeal.decided_at,
        status=Decision.Status.INITIALLED,
        appeal=appeal,
    )
    # Nothing more is penalised in a hand ended already (TSR 9.7.6), whatever its line.
    if ruling.severity == Severity.MAJOR:
        require_hand_not_ended(replacement, field="severity")
    for name, value in ruled(replacement, ruling).items():
        setattr(replacement, name, value)
    replacement.ruled_by = by
    if replacement.played_without_game_points:
        hand_void(replacement, by)
    elif replacement.hand_not_played:
        hand_stop(replacement, by)
    replacement.hands_at_initials = sheet.hands.count()
    save_validated(replacement)
    return replacement


def _log_panel(
    appeal: Appeal,
    decision: Decision,
    replacement: Decision | None,
    *,
    members: Collection[User],
    by: User,
) -> None:
    """Append the panel's decision to the tournament's log, with its members and reasons."""
    tournament = decision.scoresheet.table.round.tournament
    names = ", ".join(m.get_full_name() or m.get_username() for m in members)
    log_event(
        tournament,
        by=by,
        action=Event.Action.PANEL,
        decision=replacement or decision,
        appeal=appeal,
        summary=said(
            gettext_noop(
                "Hand %(hand)d: the arbitration panel (%(members)s) %(outcome)s the decision: "
                "%(reasons)s"
            ),
            hand=decision.hand_number,
            members=names,
            outcome=label_said(Appeal.Outcome(appeal.outcome).label),
            reasons=appeal.reasons,
        ),
        points=seat_keys(replacement.penalty) if replacement else None,
    )
