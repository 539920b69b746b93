"""Reads for adjudication: what the adjudicators decided about a sheet, a table or a
tournament."""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from adjudication.models import Appeal, Decision, Event, Offence, Sanction
from scoring.models import Scoresheet
from tournaments.models import ExtraTime, Round, Tournament, TournamentRole


@dataclass(frozen=True)
class SheetAdjudication:
    """What counts on one scoresheet besides the hands: the penalty points of initialled
    decisions by hand and seat (TSR 8.2.2), the hands stopped and counted as not played
    (TSR 9.4.3), and the points deducted from seats for unsporting conduct (TSR 9.7.2 b)."""

    decisions: list[Decision] = field(default_factory=list)  # every one, for the record
    deductions: dict[int, int] = field(default_factory=dict)  # by seat, negative

    @property
    def counting(self) -> list[Decision]:
        return [d for d in self.decisions if d.status == Decision.Status.INITIALLED]

    @property
    def penalties(self) -> dict[int, dict[int, int]]:
        """The initialled penalty points by hand number and seat, several decisions summed."""
        by_hand: dict[int, dict[int, int]] = {}
        for decision in self.counting:
            points = by_hand.setdefault(decision.hand_number, {})
            for seat, value in decision.penalty.items():
                points[seat] = points.get(seat, 0) + value
        return by_hand

    @property
    def stopped(self) -> set[int]:
        return {d.hand_number for d in self.counting if d.hand_not_played}

    def of_hand(self, number: int) -> list[Decision]:
        return [d for d in self.decisions if d.hand_number == number]


NONE = SheetAdjudication()


def initials(user) -> str:
    """A user's initials, as an adjudicator signs a scoresheet: of the first and last name,
    else the user name."""
    name = f"{user.first_name[:1]}{user.last_name[:1]}".upper()
    return name or user.get_username()


def sheet_adjudication(*, sheet: Scoresheet) -> SheetAdjudication:
    """The decisions on a sheet and the deductions of its players in its round, in two
    queries."""
    decisions = list(
        Decision.objects.filter(scoresheet=sheet)
        .select_related("initialled_by", "offence")
        .order_by("hand_number", "recorded_at", "pk")
    )
    deductions: dict[int, int] = {}
    for position, points in Sanction.objects.filter(
        round_id=sheet.table.round_id,
        kind=Sanction.Kind.DEDUCTION,
        entry__seats__table_id=sheet.table_id,
    ).values_list("entry__seats__position", "points"):
        deductions[position] = deductions.get(position, 0) - points
    return SheetAdjudication(decisions=decisions, deductions=deductions)


# Reads for the pages ------------------------------------------------------------------------------

_DECISION_RELATED = (
    "scoresheet__table__round",
    "offence",
    "recorded_by",
    "initialled_by",
    "appealed",
)


def tournament_decisions(*, tournament: Tournament) -> QuerySet[Decision]:
    """The tournament's decisions with their table, round, offence and appeal, in one query."""
    return (
        Decision.objects.filter(scoresheet__table__round__tournament=tournament)
        .select_related(*_DECISION_RELATED)
        .order_by("-recorded_at", "-pk")
    )


def decision_get(*, tournament: Tournament, pk: int) -> Decision:
    return get_object_or_404(
        tournament_decisions(tournament=tournament).select_related("appeal"), pk=pk
    )


@dataclass(frozen=True)
class Dashboard:
    """What an adjudicator walking between the tables needs to see: what waits for him, and
    what was decided lately."""

    open: list[Decision]  # complaints not ruled yet
    drafts: list[Decision]  # ruled, waiting for initials (TSR 8.2.2)
    appeals: list[Appeal]  # lodged, the panel has not decided (TSR 9.6.7)
    recent: list[Decision]  # initialled, changed or annulled, newest first
    extra_time: list[ExtraTime]  # in the round being played (TSR 8.5.1)
    sanctions: list[Sanction]  # newest first
    round: Round | None


RECENT = 20


def playing_round(*, tournament: Tournament) -> Round | None:
    """The round whose matches are played or checked now: complaints are about it."""
    return (
        Round.objects.filter(
            tournament=tournament, status__in=[Round.Status.RUNNING, Round.Status.FINISHED]
        )
        .order_by("-number")
        .first()
    )


def adjudication_dashboard(*, tournament: Tournament) -> Dashboard:
    """The dashboard in six queries, however much was decided."""
    waiting = list(
        tournament_decisions(tournament=tournament)
        .filter(status__in=[Decision.Status.OPEN, Decision.Status.DRAFT])
        .order_by("recorded_at", "pk")
    )
    recent = list(
        tournament_decisions(tournament=tournament).exclude(
            status__in=[Decision.Status.OPEN, Decision.Status.DRAFT]
        )[:RECENT]
    )
    appeals = list(
        Appeal.objects.filter(decision__scoresheet__table__round__tournament=tournament, outcome="")
        .select_related("decision__scoresheet__table__round", "decision__offence")
        .order_by("lodged_at", "pk")
    )
    round_ = playing_round(tournament=tournament)
    extra_time = (
        list(
            ExtraTime.objects.filter(table__round=round_)
            .select_related("table", "granted_by")
            .order_by("-granted_at", "-pk")
        )
        if round_
        else []
    )
    sanctions = list(
        Sanction.objects.filter(entry__tournament=tournament)
        .select_related("entry__player", "round", "offence", "decided_by")
        .order_by("-decided_at", "-pk")[:RECENT]
    )
    return Dashboard(
        open=[d for d in waiting if d.status == Decision.Status.OPEN],
        drafts=[d for d in waiting if d.status == Decision.Status.DRAFT],
        appeals=appeals,
        recent=recent,
        extra_time=extra_time,
        sanctions=sanctions,
        round=round_,
    )


def offence_list(*, tournament: Tournament) -> QuerySet[Offence]:
    return Offence.objects.filter(tournament=tournament).order_by("kind", "name")


def event_log(*, tournament: Tournament) -> QuerySet[Event]:
    """The tournament's adjudication log, oldest first, with who did it."""
    return Event.objects.filter(tournament=tournament).select_related("by").order_by("at", "pk")


def staff_roles(*, tournament: Tournament) -> QuerySet[TournamentRole]:
    return (
        TournamentRole.objects.filter(tournament=tournament)
        .select_related("user", "entry__player")
        .order_by("role", "user__username")
    )


def panel_members(*, tournament: Tournament):
    """The users on the tournament's arbitration panel."""
    return (
        get_user_model()
        .objects.filter(
            tournament_roles__tournament=tournament,
            tournament_roles__role=TournamentRole.Role.PANEL,
        )
        .order_by("last_name", "first_name", "username")
    )
