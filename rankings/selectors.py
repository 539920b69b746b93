"""Reads of the ranking lists across tournaments: their lines, a player's places in them, the
rounds they count, the admissions and the log of their keeping."""

import dataclasses
import datetime
from collections.abc import Collection
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet, Sum
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_noop

from doko import rankings, standings
from rankings import policies
from rankings.models import RankingAdmission, RankingList, RankingLogEntry
from tournaments.models import (
    Entry,
    Player,
    Round,
    Seat,
    SeatResult,
    Tournament,
)
from tournaments.policies import Refusal
from tournaments.roles_history import held_roles
from tournaments.selectors.rounds import springer_corrections
from tournaments.selectors.tournaments import (
    AnyUser,
    tournaments_visible,
)


def tournaments_ranked(*, ranking_list: RankingList | None = None) -> QuerySet[Tournament]:
    """The tournaments that count for a ranking list (``ranking_list`` None: for any): admitted
    by its maintainers (``RankingAdmission``), and still finished, counting by the organiser's
    choice, and public with public standings. A list shows nothing that the tournament hides:
    hidden later, it drops out at the next rebuild (``services.RANKING_SETTINGS``)."""
    admitted = RankingAdmission.objects.filter(status=RankingAdmission.Status.ADMITTED)
    if ranking_list is not None:
        admitted = admitted.filter(ranking_list=ranking_list)
    return Tournament.objects.filter(
        status=Tournament.Status.FINISHED,
        counts_for_ranking=True,
        is_public=True,
        standings_public=True,
        pk__in=admitted.values("tournament_id"),
    )


def ranking_lists(*, user: AnyUser) -> QuerySet[RankingList]:
    """The public lists, and the others to their maintainers and to superusers."""
    lists = RankingList.objects.all()
    if user.is_superuser:
        return lists
    if user.is_authenticated:
        maintained = RankingList.maintainers.through.objects.filter(user_id=user.pk)
        return lists.filter(Q(is_public=True) | Q(pk__in=maintained.values("rankinglist_id")))
    return lists.filter(is_public=True)


def ranking_get(*, slug: str, user: AnyUser) -> RankingList:
    return get_object_or_404(ranking_lists(user=user), slug=slug)


@dataclass(frozen=True)
class RankingLine:
    rank: int | None  # None: fewer rounds than the list asks for
    player: Player
    rounds: int
    points: int

    @property
    def average(self) -> float:
        return self.points / self.rounds


def ranking_lines(*, ranking_list: RankingList) -> list[RankingLine]:
    """The list as last rebuilt, with the players' names: one query."""
    players = Player.objects.in_bulk([player_id for _r, player_id, *_ in ranking_list.data])
    return [
        RankingLine(rank=rank, player=players[player_id], rounds=rounds, points=points)
        for rank, player_id, rounds, points in ranking_list.data
        if player_id in players
    ]


@dataclass(frozen=True)
class RankingPlace:
    ranking_list: RankingList
    line: RankingLine


def player_ranking_places(*, player: Player, user: AnyUser) -> list[RankingPlace]:
    """Where the player stands in each ranking list: one query."""
    places = []
    for ranking_list in ranking_lists(user=user):
        for rank, player_id, rounds, points in ranking_list.data:
            if player_id == player.pk:
                line = RankingLine(rank=rank, player=player, rounds=rounds, points=points)
                places.append(RankingPlace(ranking_list=ranking_list, line=line))
                break
    return places


def ranking_rounds(
    *, ranking_list: RankingList, since: datetime.date, until: datetime.date
) -> list[standings.PlayedRound]:
    """The confirmed rounds of the tournaments that count for the list
    (``tournaments_ranked``) and ended after ``since`` and by ``until``, in one query: their
    results as they are now, changed since admission or not."""
    rounds: dict[tuple[int, int], standings.PlayedRound] = {}
    seconds = []
    for player_id, ends_on, points, round_id, second in SeatResult.objects.filter(
        confirmed=True,
        round__tournament__in=tournaments_ranked(ranking_list=ranking_list),
        round__tournament__ends_on__gt=since,
        round__tournament__ends_on__lte=until,
    ).values_list("entry__player_id", "round__tournament__ends_on", "points", "round_id", "second"):
        played = standings.PlayedRound(player_id=player_id, played_on=ends_on, points=points)
        if second:
            seconds.append((round_id, played))
        else:
            rounds[player_id, round_id] = played
    # A Springer's round (TSR 10) is one round: the mean of his two tables, a half against him.
    for round_id, played in seconds:
        first = rounds.get((played.player_id, round_id))
        rounds[played.player_id, round_id] = (
            played
            if first is None
            else dataclasses.replace(first, points=(first.points + played.points) // 2)
        )
    return list(rounds.values())


# The keeping of the lists: criteria, admissions, changes since admission, the log ----------------


def ranking_criteria(ranking_list: RankingList) -> rankings.Criteria:
    return rankings.Criteria(
        months=ranking_list.months,
        min_players=ranking_list.tournament_min_players,
        min_rounds=ranking_list.tournament_min_rounds,
        tables_of_four_only=ranking_list.tournament_tables_of_four_only,
        official_only=ranking_list.tournament_official_only,
    )


def admission_facts(*, tournament: Tournament) -> rankings.Facts:
    """The tournament as a list's criteria see it (``doko.rankings.Facts``): three queries."""
    largest = (
        Seat.objects.filter(round__tournament=tournament)
        .values("table_id")
        .annotate(seats=Count("pk"))
        .order_by("-seats")
        .values_list("seats", flat=True)
        .first()
    )
    return rankings.Facts(
        finished=tournament.status == Tournament.Status.FINISHED,
        public=tournament.is_public,
        standings_public=tournament.standings_public,
        ends_on=tournament.ends_on,
        players=tournament.entries.filter(status=Entry.Status.ACTIVE).count(),
        rounds=tournament.rounds.filter(status=Round.Status.CLOSED).count(),
        largest_table=largest or 0,
        official=tournament.official,
    )


def counted_results(*, tournament_ids: Collection[int]) -> dict[int, list[rankings.Counted]]:
    """Each tournament's counted results, per player (confirmed rounds, their points, the
    entry's status), as a snapshot stores them: one query for them all, and one more for
    the tournaments with a Springer."""
    # A Springer's round (TSR 10) counts once, as the mean of his two tables.
    confirmed = Q(results__confirmed=True, results__second=False)
    counted: dict[int, list[rankings.Counted]] = {pk: [] for pk in tournament_ids}
    if not tournament_ids:
        return counted
    rows = list(
        Entry.objects.filter(tournament_id__in=list(tournament_ids))
        .values("tournament_id", "player_id", "status", "pk", "tournament__springer")
        .annotate(
            rounds=Count("results", filter=confirmed),
            points=Sum("results__points", filter=confirmed),
        )
        .order_by()
        .values_list(
            "tournament_id", "player_id", "status", "rounds", "points", "pk", "tournament__springer"
        )
    )
    springers = {row[0] for row in rows if row[-1]}
    corrections = (
        springer_corrections(
            SeatResult.objects.filter(round__tournament_id__in=springers, confirmed=True)
        )
        if springers
        else {}
    )
    for tournament_id, player_id, status, rounds, points, entry_id, _springer in rows:
        points = (points or 0) + corrections.get(entry_id, 0)
        counted[tournament_id].append(rankings.Counted(player_id, rounds, points, status))
    return counted


def admission_get(
    *, ranking_list: RankingList, tournament_slug: str, user: AnyUser
) -> RankingAdmission:
    """A tournament's admission to the list; 404 if it never asked, or if the user may not
    see the tournament and does not maintain the list."""
    admissions = RankingAdmission.objects.select_related("tournament", "ranking_list")
    if not policies.maintains(ranking_list=ranking_list, user=user):
        admissions = admissions.filter(tournament__in=tournaments_visible(user=user))
    return get_object_or_404(
        admissions, ranking_list=ranking_list, tournament__slug=tournament_slug
    )


@dataclass(frozen=True)
class RankingAdmissionLine:
    ranking_list: RankingList
    admission: RankingAdmission | None


def tournament_admissions(*, tournament: Tournament) -> list[RankingAdmissionLine]:
    """Each list the tournament may ask, with its admission if any: for its settings page
    (the lists its organiser sees)."""
    admissions = {
        admission.ranking_list_id: admission
        for admission in RankingAdmission.objects.filter(tournament=tournament)
    }
    return [
        RankingAdmissionLine(ranking_list=ranking_list, admission=admissions.get(ranking_list.pk))
        for ranking_list in RankingList.objects.filter(
            Q(is_public=True) | Q(pk__in=list(admissions))
        )
    ]


@dataclass(frozen=True)
class ChangeLine:
    """A player whose counted results changed since the tournament was admitted."""

    player: Player | None
    change: rankings.Change


@dataclass(frozen=True)
class AdmissionChanges:
    admission: RankingAdmission
    lines: list[ChangeLine]


@dataclass(frozen=True)
class LogLine:
    entry: RankingLogEntry

    @property
    def reason(self) -> str:
        """The reason as written; the migration's, in the reader's language."""
        if self.entry.reason == MIGRATED_REASON:
            return gettext(MIGRATED_REASON)
        return self.entry.reason


# What the migration that gave the lists maintainers wrote as the reason of each admission
# (tournaments/migrations/0021_ranking_governance.py, which cannot import this module).
MIGRATED_REASON = gettext_noop(
    "Admitted when the ranking lists got maintainers: it counted before."
)

# The log on the list's page: the newest entries.
LOG_SHOWN = 50
# What the public reads in the log: the decisions and who keeps the list; requests and their
# withdrawal are the maintainers'.
PUBLIC_LOG = (
    RankingLogEntry.Kind.ADMITTED,
    RankingLogEntry.Kind.READMITTED,
    RankingLogEntry.Kind.DECLINED,
    RankingLogEntry.Kind.MAINTAINER_ADDED,
    RankingLogEntry.Kind.MAINTAINER_REMOVED,
)


@dataclass(frozen=True)
class RankingKeeping:
    """How a list is kept, as its page and the API show it: who maintains it, the tournaments
    admitted, the log; to its maintainers also the pending requests and the changes since
    admission (``policies.may_read_admission_requests``)."""

    criteria: rankings.Criteria
    maintainers: list[User]
    maintains: bool
    admitted: list[RankingAdmission]
    pending: list[RankingAdmission]
    changes: list[AdmissionChanges]
    log: list[LogLine]
    # Why the user may not decide on an admission (by its pk; None: he may), for the buttons.
    refusals: dict[int, Refusal | None]
    # Why he may not appoint or remove maintainers (None: he may).
    maintainers_refusal: Refusal | None

    @property
    def pending_lines(self) -> "list[Decidable]":
        return [Decidable(a, self.refusals.get(a.pk)) for a in self.pending]

    @property
    def change_lines(self) -> "list[Decidable]":
        return [Decidable(c.admission, self.refusals.get(c.admission.pk), c) for c in self.changes]


@dataclass(frozen=True)
class Decidable:
    """An admission to decide on, with why the user may not (None: he may)."""

    admission: RankingAdmission
    refusal: Refusal | None
    changes: AdmissionChanges | None = None


def ranking_keeping(*, ranking_list: RankingList, user: AnyUser) -> RankingKeeping:
    """The keeping of a list for ``user``: a fixed number of queries however many tournaments
    it admitted (four for the public, six for a maintainer)."""
    maintainers = list(ranking_list.maintainers.order_by("username"))
    ranking_list.maintainer_ids = {m.pk for m in maintainers}  # type: ignore[attr-defined]
    maintains = policies.may_read_admission_requests(ranking_list=ranking_list, user=user) is None
    admissions = RankingAdmission.objects.filter(ranking_list=ranking_list).select_related(
        "tournament", "requested_by", "decided_by"
    )
    if not maintains:
        # The public reads what counts: admitted tournaments it may see.
        admissions = admissions.filter(
            status=RankingAdmission.Status.ADMITTED, tournament__is_public=True
        )
    else:
        admissions = admissions.filter(
            status__in=[RankingAdmission.Status.ADMITTED, RankingAdmission.Status.REQUESTED]
        )
    admissions = admissions.order_by("-tournament__ends_on", "tournament__name")
    listed = list(admissions)
    admitted = [a for a in listed if a.status == RankingAdmission.Status.ADMITTED]
    pending = [a for a in listed if a.status == RankingAdmission.Status.REQUESTED]
    changes: list[AdmissionChanges] = []
    if maintains and admitted:
        now = counted_results(tournament_ids=[a.tournament_id for a in admitted])
        found = [
            (
                admission,
                rankings.changes(admitted=admission.snapshot, now=now[admission.tournament_id]),
            )
            for admission in admitted
        ]
        found = [(admission, changed) for admission, changed in found if changed]
        players = Player.objects.in_bulk(
            {change.player_id for _admission, changed in found for change in changed}
        )
        changes = [
            AdmissionChanges(
                admission=admission,
                lines=[ChangeLine(players.get(change.player_id), change) for change in changed],
            )
            for admission, changed in found
        ]
    log = RankingLogEntry.objects.filter(ranking_list=ranking_list)
    if not maintains:
        log = log.filter(kind__in=PUBLIC_LOG).exclude(
            tournament__isnull=False, tournament__is_public=False
        )
    refusals: dict[int, Refusal | None] = {}
    if maintains:
        decidable = [*pending, *(c.admission for c in changes)]
        staff_of = held_roles(tournament_ids={a.tournament_id for a in decidable}, user_id=user.pk)
        for admission in decidable:
            admission.ranking_list = ranking_list  # its maintainers read once, above
            refusals[admission.pk] = policies.may_decide_admission(
                admission=admission, user=user, held_role=admission.tournament_id in staff_of
            )
    return RankingKeeping(
        refusals=refusals,
        maintainers_refusal=policies.may_change_maintainers(ranking_list=ranking_list, user=user),
        criteria=ranking_criteria(ranking_list),
        maintainers=maintainers,
        maintains=maintains,
        admitted=admitted,
        pending=pending,
        changes=changes,
        log=[LogLine(entry) for entry in log[:LOG_SHOWN]],
    )
