"""Appeals to the arbitration panel, whose decision is final (TSR 8.2.1): against the
adjudicator's initialled decision on a complaint (TSR 9.7.7) or against a bound decision he gave
alone, a sanction with its points (TSR 9.6.3).

One flow serves both. Lodging: who records it (``policies.may_lodge_appeal``), that it is the
adjudicator's and not appealed yet, at once (TSR 9.7.7). The panel's decision: who sits
(``policies.may_decide_as_panel``, ``policies.may_sit_on_panel``), upheld, changed or annulled
with its reasons; what was appealed against superseded or annulled and the panel's own put in its
place; the log; the interruption given back to the tables concerned (TSR 8.5.1). What differs
with what is appealed against is an ``Appealed``: ``DecisionAppealed`` or ``SanctionAppealed``."""

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any, ClassVar, Protocol

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import Said, label_said, said
from adjudication.models import Appeal, Decision, Event, Sanction
from adjudication.services.common import log_event, require_match_open
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
from adjudication.services.sanctions import SanctionRuling, seat_of
from doko.rules import procedure
from doko.rules.penalty import Severity
from doko.rules.problems import ngettext_noop
from doko.rules.sanctions import (
    PanelSanction,
    SanctionKind,
    appeal_problem,
    appeal_round_problem,
    panel_sanction,
    panel_sanction_problems,
)
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, scoresheet_check
from scoring.services import scoresheet_locked
from tournaments.caching import table_changed
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.services import results_refresh, table_extra_time_give_back
from tournaments.services.common import save_validated

Appealable = Decision | Sanction


class Appealed(Protocol):
    """What an appeal is against, as the one flow needs it."""

    field: ClassVar[str]  # the messages' field: decision, sanction

    @property
    def row(self) -> Appealable: ...

    @property
    def table(self) -> Table: ...

    @property
    def tournament(self) -> Tournament: ...

    def offered(self) -> bool:
        """Whether it is the adjudicator's, in force and not appealed yet, as a page reads it
        (no query beyond what ``selectors`` fetched)."""

    def require_appealable(self) -> None:
        """The same, asked of the locked row before an appeal is lodged (TSR 8.2.1)."""

    def require_open(self) -> None:
        """Its match or round is under way: an appeal is at once (TSR 8.5.1, 9.7.7)."""

    def since(self) -> tuple[Scoresheet, int | None, datetime] | None:
        """Where and since when an appeal is timed (TSR 9.7.7): the sheet, the lines on it at
        the decision (None: as many as now), the moment; None: not timed."""

    def appellant(self, given: int | None) -> int:
        """The seat appealing."""

    def lodged(self, appellant: int) -> Said:
        """The log's line for the appeal lodged."""

    def change(
        self, outcome: Appeal.Outcome, *, ruling: Ruling | None, sanction: SanctionRuling | None
    ) -> Any:
        """The panel's own in its place, checked: given when, and only when, it changes."""

    def withdrawn(self, by: User) -> None:
        """What follows once the panel did not uphold it."""

    def put_in_place(
        self, appeal: Appeal, change: Any, *, members: Collection[User], by: User
    ) -> Appealable:
        """Record the panel's own in its place."""

    def decided(self, appeal: Appeal, replacement: Any, *, members: str) -> tuple[Said, object]:
        """The log's line for the panel's decision, and the points it keeps."""

    def interruption_reason(self) -> str:
        """Why the tables get extra time (TSR 8.5.1)."""

    def changes_results(self, replacement: Any) -> bool:
        """Whether the panel's decision changes the points of the match."""


@dataclass
class DecisionAppealed:
    """An appeal against the adjudicator's initialled decision on a complaint (TSR 9.7.7):
    changed, the panel's own ruling, initialled at once, supersedes it, its hand coming onto
    the sheet or off it."""

    field: ClassVar[str] = "decision"
    row: Decision

    @property
    def sheet(self) -> Scoresheet:
        return self.row.scoresheet

    @property
    def table(self) -> Table:
        return self.sheet.table

    @property
    def tournament(self) -> Tournament:
        return self.table.round.tournament

    def offered(self) -> bool:
        return (
            self.row.status == Decision.Status.INITIALLED
            and self.row.appeal_id is None
            and getattr(self.row, "appealed", None) is None
        )

    def require_appealable(self) -> None:
        decision = self.row
        if decision.status != Decision.Status.INITIALLED:
            raise ValidationError(
                {
                    "decision": _(
                        "An appeal is against the adjudicator's initialled decision; this one "
                        "is %(status)s (TSR 9.7.7)."
                    )
                    % {"status": decision.get_status_display()}
                }
            )
        if decision.appeal_id is not None:
            raise ValidationError(
                {
                    "decision": _(
                        "This is the arbitration panel's decision: it is final (TSR 8.2.1)."
                    )
                }
            )
        if Appeal.objects.filter(decision=decision).exists():
            raise ValidationError({"decision": _("This decision has been appealed already.")})

    def require_open(self) -> None:
        require_match_open(self.sheet)

    def since(self) -> tuple[Scoresheet, int | None, datetime] | None:
        assert self.row.initialled_at is not None  # only an initialled decision is appealed
        return self.sheet, self.row.hands_at_initials, self.row.initialled_at

    def appellant(self, given: int | None) -> int:
        require_valid([procedure.seat_problem("appellant", given, self.sheet.table_size())])
        return given  # type: ignore[return-value]  # None: the model refuses it

    def lodged(self, appellant: int) -> Said:
        return said(
            gettext_noop("Round %(round)d, table %(table)d, hand %(hand)d: seat %(seat)d appeals"),
            round=self.table.round.number,
            table=self.table.number,
            hand=self.row.hand_number,
            seat=appellant,
        )

    def change(
        self, outcome: Appeal.Outcome, *, ruling: Ruling | None, sanction: SanctionRuling | None
    ) -> Ruling | None:
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
                        "The panel gives its own ruling when, and only when, it changes the "
                        "decision."
                    )
                }
            )
        return ruling

    def withdrawn(self, by: User) -> None:
        """Its hand comes back onto the sheet or off it."""
        if self.row.hand_not_played:
            hand_unstop(self.row, by)
        elif self.row.played_without_game_points:
            hand_unvoid(self.row, by)

    def put_in_place(
        self, appeal: Appeal, change: Ruling, *, members: Collection[User], by: User
    ) -> Decision:
        """The panel's own ruling on the complaint, initialled at once, its hand stopped or
        counted as played without game points as it rules."""
        decision = self.row
        replacement = Decision(
            scoresheet=self.sheet,
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
        if change.severity == Severity.MAJOR:
            require_hand_not_ended(replacement, field="severity")
        for name, value in ruled(replacement, change).items():
            setattr(replacement, name, value)
        replacement.ruled_by = by
        if replacement.played_without_game_points:
            hand_void(replacement, by)
        elif replacement.hand_not_played:
            hand_stop(replacement, by)
        replacement.hands_at_initials = self.sheet.hands.count()
        return save_validated(replacement)

    def decided(
        self, appeal: Appeal, replacement: Decision | None, *, members: str
    ) -> tuple[Said, object]:
        summary = said(
            gettext_noop(
                "Hand %(hand)d: the arbitration panel (%(members)s) %(outcome)s the decision: "
                "%(reasons)s"
            ),
            hand=self.row.hand_number,
            members=members,
            outcome=label_said(Appeal.Outcome(appeal.outcome).label),
            reasons=appeal.reasons,
        )
        return summary, seat_keys(replacement.penalty) if replacement else None

    def interruption_reason(self) -> str:
        return _("Arbitration panel on table %(table)d, hand %(hand)d (TSR 8.5.1)") % {
            "table": self.table.number,
            "hand": self.row.hand_number,
        }

    def changes_results(self, replacement: Decision | None) -> bool:
        return True


@dataclass
class SanctionAppealed:
    """An appeal against a bound decision the adjudicator gave alone (TSR 8.2.1, 9.6.3): until
    the panel decides, the sanction counts; changed, the panel's own sanction, a warning or a
    deduction in the same round's match, counts instead."""

    field: ClassVar[str] = "sanction"
    row: Sanction

    @cached_property
    def seat(self) -> Seat:
        return seat_of(self.row.entry, self.row.round)

    @property
    def table(self) -> Table:
        return self.seat.table

    @property
    def tournament(self) -> Tournament:
        return self.row.round.tournament

    def offered(self) -> bool:
        return (
            self.row.status == Sanction.Status.IN_FORCE
            and self.row.appeal_id is None
            and not self.row.members.all()
            and getattr(self.row, "appealed", None) is None
        )

    def require_appealable(self) -> None:
        # Asked one after the other, as far as needed (TSR 8.2.1).
        sanction = self.row
        in_force = sanction.status == Sanction.Status.IN_FORCE
        by_panel = in_force and (sanction.appeal_id is not None or sanction.members.exists())
        appealed = in_force and not by_panel and Appeal.objects.filter(sanction=sanction).exists()
        require_valid(
            [
                appeal_problem(
                    withdrawn=None if in_force else sanction.get_status_display(),
                    by_panel=by_panel,
                    appealed=appealed,
                )
            ]
        )

    def require_open(self) -> None:
        """While the round's matches are played or checked
        (``doko.rules.sanctions.appeal_round_problem``)."""
        round_ = self.row.round
        under_way = round_.status in {Round.Status.RUNNING, Round.Status.FINISHED}
        require_valid(
            [
                appeal_round_problem(
                    round=round_.number, under_way=under_way, status=round_.get_status_display()
                )
            ]
        )

    def since(self) -> tuple[Scoresheet, int | None, datetime] | None:
        """A sanction from before the count was kept is timed by the round alone."""
        sheet = Scoresheet.objects.filter(table=self.table).first()
        if self.row.hands_at_decision is None or sheet is None:
            return None
        return sheet, self.row.hands_at_decision, self.row.decided_at

    def appellant(self, given: int | None) -> int:
        """The player sanctioned."""
        return self.seat.position

    def lodged(self, appellant: int) -> Said:
        return said(
            gettext_noop(
                "Round %(round)d, table %(table)d: %(player)s appeals against the sanction"
            ),
            round=self.row.round.number,
            table=self.table.number,
            player=self.row.entry.name,
        )

    def change(
        self, outcome: Appeal.Outcome, *, ruling: Ruling | None, sanction: SanctionRuling | None
    ) -> PanelSanction | None:
        """A warning or a deduction, never a ruling on a hand (``doko.rules.sanctions``,
        TSR 8.2.1, 9.6.2)."""
        changes = outcome == Appeal.Outcome.CHANGE
        kind = None if sanction is None else SanctionKind(sanction.kind)
        points = None if sanction is None else sanction.points
        require_valid(
            panel_sanction_problems(
                changes=changes, kind=kind, points=points, ruling_given=ruling is not None
            )
        )
        return panel_sanction(changes=changes, kind=kind, points=points)

    def withdrawn(self, by: User) -> None:
        pass

    def put_in_place(
        self, appeal: Appeal, change: PanelSanction, *, members: Collection[User], by: User
    ) -> Sanction:
        sanction = self.row
        replacement = save_validated(
            Sanction(
                entry=sanction.entry,
                round=sanction.round,
                kind=Sanction.Kind(change.kind),
                points=change.points,
                offence=sanction.offence,
                reasons=appeal.reasons,
                decided_by=by,
                appeal=appeal,
            )
        )
        replacement.members.set(members)
        return replacement

    def decided(
        self, appeal: Appeal, replacement: Sanction | None, *, members: str
    ) -> tuple[Said, object]:
        summary = said(
            gettext_noop(
                "Round %(round)d, table %(table)d: the arbitration panel (%(members)s) "
                "%(outcome)s the sanction against %(player)s: %(reasons)s"
            ),
            round=self.row.round.number,
            table=self.table.number,
            members=members,
            outcome=label_said(Appeal.Outcome(appeal.outcome).label),
            player=self.row.entry.name,
            reasons=appeal.reasons,
        )
        return summary, replacement.points if replacement else None

    def interruption_reason(self) -> str:
        return _("Arbitration panel on table %(table)d (TSR 8.5.1)") % {"table": self.table.number}

    def changes_results(self, replacement: Sanction | None) -> bool:
        """A deduction taken away or given (TSR 9.6.2 b)."""
        return Sanction.Kind.DEDUCTION in {self.row.kind, replacement and replacement.kind}


def against(row: Appealable) -> dict[str, Any]:
    """The keyword naming what an appeal is against, for the appeal, the log and
    ``appeal_lodge``: ``decision`` or ``sanction`` (the constraint
    appeal_against_a_decision_or_a_sanction)."""
    return {"decision": row} if isinstance(row, Decision) else {"sanction": row}


def appealed(row: Appealable) -> Appealed:
    """The appeal's flow for what it is against."""
    if isinstance(row, Decision):
        return DecisionAppealed(row)
    return SanctionAppealed(row)


def _locked(*, decision: Decision | None, sanction: Sanction | None) -> Appealed:
    """What an appeal is against, locked until the transaction ends: one of them (the
    constraint appeal_against_a_decision_or_a_sanction)."""
    if decision is not None:
        return DecisionAppealed(decision_lock(decision))
    assert sanction is not None
    return SanctionAppealed(
        Sanction.objects.select_for_update(of=("self",))
        .select_related("entry", "round__tournament")
        .get(pk=sanction.pk)
    )


def require_in_time(appealed: Appealed) -> None:
    """TSR 9.7.7 "nur sofort" (``doko.rules.procedure.appeal_in_time``): no hand written at the
    table since the decision, and if no hand follows there (the last hand, the sheet handed in),
    within ``APPEAL_MINUTES`` of it."""
    since = appealed.since()
    if since is None:
        return
    sheet, hands_at, at = since
    lines = hand_lines(list(sheet.hands.all()))
    follows = (
        sheet.status == Scoresheet.Status.DRAFT
        and not scoresheet_check(
            scoresheet=sheet, hands=lines, table_size=sheet.table_size()
        ).complete
    )
    problem = procedure.appeal_time_problem(
        hands_at_initials=len(lines) if hands_at is None else hands_at,
        hands_written=len(lines),
        hand_follows=follows,
        initialled_at=at,
        now=timezone.now(),
    )
    require_valid([problem and replace(problem, field=appealed.field)])


@transaction.atomic
def appeal_lodge(
    *,
    decision: Decision | None = None,
    sanction: Sanction | None = None,
    appellant: int | None = None,
    grounds: str = "",
    by: User,
) -> Appeal:
    """A player appeals against the adjudicator's initialled ``decision`` (the ``appellant``'s
    seat) or a bound decision's ``sanction`` he gave alone (the player sanctioned), at once
    (TSR 9.7.7): before his table writes another hand, or if none follows within
    ``APPEAL_MINUTES``. A decision's game stays suspended, a sanction counts, until the
    arbitration panel has decided; what the panel decided itself is final (TSR 8.2.1). Not
    while the tournament has no panel to decide it (``policies.may_lodge_appeal``)."""
    what = _locked(decision=decision, sanction=sanction)
    policies.enforce(policies.may_lodge_appeal(tournament=what.tournament, user=by))
    what.require_appealable()
    what.require_open()
    require_in_time(what)
    seat = what.appellant(appellant)
    appeal = save_validated(
        Appeal(appellant=seat, grounds=grounds.strip(), lodged_by=by, **against(what.row))
    )
    log_event(
        what.tournament,
        by=by,
        action=Event.Action.APPEAL,
        appeal=appeal,
        summary=what.lodged(seat),
        grounds=appeal.grounds,
        **against(what.row),
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
    """The arbitration panel's final decision on an appeal (TSR 8.2.1): uphold, change or
    annul, with its members (none of whom plays at the table concerned or decided in the first
    instance) and its reasons. Changed, its own supersedes what was appealed against: on a
    complaint its ``ruling``, initialled at once (a hand stopped or no longer stopped comes on or
    off the sheet; a solo no longer counted as played without game points gets back the
    scorekeeper's points, or, put on the sheet by the decision, comes off if it is the last
    line, and one the panel counts so loses them); on a bound decision its ``sanction``.
    Annulled, it no longer counts. The table concerned and the tables of the members get the
    interruption back as extra time (TSR 8.5.1)."""
    appeal = Appeal.objects.select_for_update(of=("self",)).get(pk=appeal.pk)
    what = _locked(decision=appeal.decision, sanction=appeal.sanction)
    if isinstance(what, DecisionAppealed):
        what.row.scoresheet = scoresheet_locked(what.row.scoresheet)
    table = what.table
    policies.enforce(policies.may_decide_as_panel(table=table, user=by, appeal=appeal))
    if appeal.outcome:
        raise ValidationError(
            {
                "outcome": _(
                    "The arbitration panel has decided already; its decision is final (TSR 8.2.1)."
                )
            }
        )
    outcome = Appeal.Outcome(outcome)
    policies.enforce(policies.may_sit_on_panel(table=table, members=members, appeal=appeal))
    if not reasons.strip():
        raise ValidationError(
            {"reasons": _("The arbitration panel's decision gives its reasons (TSR 8.2.1).")}
        )
    if interruption < 0:
        raise ValidationError(
            {"interruption": _("The interruption is a number of minutes, 0 or more.")}
        )
    change = what.change(outcome, ruling=ruling, sanction=sanction)
    what.require_open()

    appeal.outcome = outcome
    appeal.reasons = reasons.strip()
    appeal.interruption = interruption
    appeal.decided_by = by
    appeal.decided_at = timezone.now()
    save_validated(appeal)
    appeal.members.set(members)

    replacement = None
    row = what.row
    if outcome != Appeal.Outcome.UPHOLD:
        superseded = outcome == Appeal.Outcome.CHANGE
        row.status = row.Status.SUPERSEDED if superseded else row.Status.ANNULLED
        save_validated(row)
        what.withdrawn(by)
        if superseded:
            replacement = what.put_in_place(appeal, change, members=members, by=by)
    names = ", ".join(m.get_full_name() or m.get_username() for m in members)
    summary, points = what.decided(appeal, replacement, members=names)
    log_event(
        what.tournament,
        by=by,
        action=Event.Action.PANEL,
        appeal=appeal,
        summary=summary,
        points=points,
        **against(replacement or row),
    )
    _interruption_give_back(
        appeal, table, members=members, reason=what.interruption_reason(), by=by
    )
    if what.changes_results(replacement):
        results_refresh(tables=[table])
        table_changed(round_id=table.round_id, number=table.number)  # its points
    return appeal


def _interruption_give_back(
    appeal: Appeal, table: Table, *, members: Collection[User], reason: str, by: User
) -> None:
    """TSR 8.5.1: the table concerned and the tables where members of the panel play get the
    time the panel's decision took (the player any of a member's roles names, as in
    ``policies.players_at``), logged. Tables whose sheet is confirmed have finished playing."""
    if not appeal.interruption:
        return
    member_tables = Seat.objects.filter(
        table__round=table.round, entry__staff_roles__user__in=list(members)
    ).values_list("table_id", flat=True)
    tables = (
        Table.objects.filter(pk__in={table.pk, *member_tables})
        .exclude(scoresheet__status=Scoresheet.Status.CONFIRMED)
        .select_related("round")
        .order_by("number")
    )
    granted = []
    for each in tables:
        table_extra_time_give_back(table=each, minutes=appeal.interruption, reason=reason, by=by)
        granted.append(each.number)
    log_event(
        table.round.tournament,
        by=by,
        action=Event.Action.EXTRA_TIME,
        appeal=appeal,
        summary=said(
            gettext_noop("Round %(round)d: %(minutes)s for %(tables)s (TSR 8.5.1)"),
            round=table.round.number,
            minutes=said(
                ngettext_noop("%(count)d minute", "%(count)d minutes"), count=appeal.interruption
            ),
            tables=said(
                ngettext_noop("table %(tables)s", "tables %(tables)s", count="many"),
                many=len(granted),
                tables=", ".join(map(str, granted)),
            ),
        ),
        tables=granted,
        minutes=appeal.interruption,
    )
