"""Reads of tournaments, their entries and who holds which role."""

import functools
import logging
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, PermissionsMixin, User
from django.db import transaction
from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments import caching, play
from tournaments.models import (
    Entry,
    FormerSlug,
    Round,
    Table,
    Tournament,
    TournamentRole,
)
from tournaments.prepared import Prepared
from tournaments.selectors.find import entry_filter

logger = logging.getLogger(__name__)


AnyUser = User | AnonymousUser


def tournaments_visible(*, user: AnyUser) -> QuerySet[Tournament]:
    """Public tournaments, and the others to their staff and to superusers."""
    return _visible_to(user.pk if user.is_authenticated else None, every=user.is_superuser)


def _visible_to(user_id: int | None, *, every: bool) -> QuerySet[Tournament]:
    """``tournaments_visible`` by the user's id (None: nobody logged in); ``every``: a
    superuser's."""
    tournaments = Tournament.objects.all()
    if every:
        return tournaments
    if user_id is not None:
        staff = TournamentRole.objects.filter(user_id=user_id).values("tournament_id")
        return tournaments.filter(Q(is_public=True) | Q(pk__in=staff))
    return tournaments.filter(is_public=True)


def _count(queryset: QuerySet) -> Coalesce:
    """A correlated COUNT(*) subquery: no join, so counting two relations multiplies nothing."""
    counted = queryset.order_by().values("tournament").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)


def _current_round() -> QuerySet[Round]:
    """The tournament's current round, first: the one running, else the last one played
    (finished or closed), else the next one drawn."""
    played = [Round.Status.FINISHED, Round.Status.CLOSED]
    return (
        Round.objects.filter(tournament=OuterRef("pk"))
        .exclude(status=Round.Status.PLANNED)
        .annotate(
            priority=Case(
                When(status=Round.Status.RUNNING, then=Value(0)),
                When(status__in=played, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
            order=Case(
                When(status__in=played, then=-F("number")),
                default=F("number"),
                output_field=IntegerField(),
            ),
        )
        .order_by("priority", "order")
    )


def tournament_list(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments for the home page and the API, newest first, with their sizes and their
    current round (``current_round``, ``current_round_status``; None before the first draw),
    in one query."""
    return _counted(tournaments_visible(user=user))


def _counted(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """``tournament_list``'s annotations and order on these tournaments."""
    current = _current_round()
    return tournaments.annotate(
        entry_count=_count(
            Entry.objects.filter(tournament=OuterRef("pk"), status=Entry.Status.ACTIVE)
        ),
        round_count=_count(Round.objects.filter(tournament=OuterRef("pk"))),
        current_round=Subquery(current.values("number")[:1]),
        current_round_status=Subquery(current.values("status")[:1]),
    ).order_by("-starts_on", "name")


def tournaments_current(*, user: AnyUser) -> QuerySet[Tournament]:
    """``tournament_list`` without the archived tournaments: the home page's."""
    return tournament_list(user=user).filter(archived_at__isnull=True)


def tournaments_home(*, user: AnyUser) -> tuple[list[Tournament], list[Tournament]]:
    """The home page's tournaments as ``tournament_list`` reads them, in its one query: the
    current ones, and apart the archived ones the user organises (a superuser: all)."""
    organised = tournaments_organised(user=user).values("pk")
    rows = list(
        tournament_list(user=user).filter(Q(archived_at__isnull=True) | Q(pk__in=organised))
    )
    return (
        [row for row in rows if row.archived_at is None],
        [row for row in rows if row.archived_at is not None],
    )


def tournaments_organised(*, user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments the user organises (a superuser: all), newest first: those he may start
    a new one from."""
    tournaments = Tournament.objects.order_by("-starts_on", "name")
    if not user.is_authenticated:
        return tournaments.none()
    if user.is_superuser:
        return tournaments
    organised = TournamentRole.objects.filter(user=user, role=TournamentRole.Role.ORGANISER)
    return tournaments.filter(pk__in=organised.values("tournament_id"))


def entry_count_of(tournament: Tournament) -> int | None:
    """The active entries ``tournament_list`` counted on the row (as ``tournament_get`` with
    ``counts``); None on a row read without. An annotation, which the type checker does not see
    on the model: read here."""
    return getattr(tournament, "entry_count", None)


HEAD_CACHE_SECONDS = 60


def _head_key(slug: str) -> str:
    return f"tournament-head:{slug}"


def _head_generation_key(slug: str) -> str:
    return f"tournament-head-generation:{slug}"


@dataclass(frozen=True)
class Head:
    """A public tournament's own fields as the pages that phones refresh need them, read once
    and kept: the tournament, shared by this process's requests while it is kept (read it,
    never change it), and its ``version`` (``caching.head_version``), which names every cached
    answer and ETag."""

    tournament: Tournament
    version: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> "Head":
        """From the tournament's row as ``QuerySet.values()`` reads it."""
        tournament = Tournament(**row)
        return cls(tournament, caching.head_version(tournament))


def public_head(*, slug: str) -> Head:
    """A public tournament's head (404 for any other), for a reader without a login: no query
    at all while it is cached.

    The shared cache keeps the row for a minute under the tournament's generation, which every
    committed save renews (``tournament_head_forget``): a row is read only under the generation
    it was cached with, so a reader that read the row before a change committed and caches it
    after never serves it to anyone (one round trip reads both). Each process also keeps the
    head in its own memory for ``TOURNAMENT_HEAD_LOCAL_SECONDS``, counted from before it asked
    the cache: a phone's refresh then costs no round trip at all, and no process shows a
    tournament made private, or its standings hidden, longer than that after the commit (the
    process that saved it not at all)."""
    key, generation_key = _head_key(slug), _head_generation_key(slug)
    seconds = settings.TOURNAMENT_HEAD_LOCAL_SECONDS
    head: Head | None = caching.memory.get(key) if seconds > 0 else None
    if head is None:
        asked = time.monotonic()
        found = caching.cache_get_many([key, generation_key])
        generation = found.get(generation_key)
        if generation is None:
            generation = caching.generation_start(generation_key)
        kept = found.get(key)
        if generation is not None and isinstance(kept, tuple) and kept[0] == generation:
            row = kept[1]
        else:
            row = Tournament.objects.filter(slug=slug, is_public=True).values().first()
            if row is None:
                raise Http404
            if generation is not None:  # else the cache is down, or was down when changed
                caching.cache_put(key, (generation, row), HEAD_CACHE_SECONDS)
        head = Head.of(row)
        left = seconds - (time.monotonic() - asked)
        if left > 0:
            caching.memory.put(key, head, seconds=left)
    return head


def tournament_head(*, slug: str, user: AnyUser) -> Tournament:
    """The tournament's own fields for the pages that phones refresh: for an anonymous reader
    from ``public_head``, else ``tournament_get``."""
    if user.is_authenticated:
        return tournament_get(slug=slug, user=user, counts=False)
    return public_head(slug=slug).tournament


def _head_forget_now(slug: str) -> None:
    caching.generation_renew(_head_generation_key(slug))
    caching.forget(_head_key(slug))


def tournament_head_forget(*, slug: str) -> None:
    """Forget the cached head once the change commits (at once outside a transaction): after
    the tournament is saved or its standings rebuilt. Dropped before the commit, a reader in
    between would cache the row as it was; the new generation also retires what a reader
    that read before the commit caches after it (``public_head``)."""
    transaction.on_commit(functools.partial(_head_forget_now, slug))


def _one(*, counts: bool, who: str) -> Prepared:
    """``tournament_get``'s read for those who see the public tournaments (``who``:
    "public"), also those they are staff of ("staff", by the user's id) or every one ("every")."""

    def build(slug: str, user_id: int | None = None) -> QuerySet[Tournament]:
        tournaments = _visible_to(user_id, every=who == "every")
        return (_counted(tournaments) if counts else tournaments).filter(slug=slug)

    return Prepared(build)


# Compiled once: building and compiling tournament_list's subqueries cost a page more than
# running them.
_ONE = {
    (counts, who): _one(counts=counts, who=who)
    for counts in (True, False)
    for who in ("public", "staff", "every")
}


def tournament_get(*, slug: str, user: AnyUser, counts: bool = True) -> Tournament:
    """One tournament the user may see (404 otherwise), with ``tournament_list``'s sizes and
    current round unless ``counts`` is false (a plain query of one row, for the pages that
    phones refresh)."""
    if user.is_superuser:
        found = _ONE[counts, "every"](slug)
    elif user.is_authenticated:
        found = _ONE[counts, "staff"](slug, user.pk)
    else:
        found = _ONE[counts, "public"](slug)
    if not found:
        raise Http404("No Tournament matches the given query.")
    return found[0]


def tournament_renamed(*, slug: str, user: AnyUser) -> Tournament | None:
    """The tournament the user may see that had this short name for links before its
    organiser changed it (``FormerSlug``), if none has it now; else None."""
    former = FormerSlug.objects.filter(slug=slug).values("tournament_id")
    return tournaments_visible(user=user).filter(pk__in=former).exclude(slug=slug).first()


def user_roles(*, user: AnyUser, tournament: Tournament) -> set[str]:
    """The user's roles in the tournament; a superuser holds them all. ``user``: a request's,
    or the one a service acts for."""
    if not user.is_authenticated:
        return set()
    if isinstance(user, PermissionsMixin) and user.is_superuser:
        return set(TournamentRole.Role.values)
    roles = TournamentRole.objects.filter(user=user, tournament=tournament)
    return set(roles.values_list("role", flat=True))


def user_roles_by_tournament(
    *, user: AnyUser, tournament_ids: Collection[int]
) -> dict[int, set[str]]:
    """The user's roles in each of these tournaments (``user_roles`` for many), in at most one
    query; a tournament where he holds none is left out."""
    if not user.is_authenticated or not tournament_ids:
        return {}
    if isinstance(user, PermissionsMixin) and user.is_superuser:
        return {pk: set(TournamentRole.Role.values) for pk in tournament_ids}
    roles: dict[int, set[str]] = {}
    for tournament_id, role in TournamentRole.objects.filter(
        user=user, tournament_id__in=list(tournament_ids)
    ).values_list("tournament_id", "role"):
        roles.setdefault(tournament_id, set()).add(role)
    return roles


def entry_list(*, tournament: Tournament, query: str = "") -> QuerySet[Entry]:
    """The players by start number; with a query, those with that start number or whose name
    matches it (``entry_filter``)."""
    entries = tournament.entries.select_related("player").order_by("start_number")
    return entry_filter(entries, query=query) if query.strip() else entries


def entry_get(*, tournament: Tournament, start_number: int) -> Entry:
    return get_object_or_404(tournament.entries.select_related("player"), start_number=start_number)


@dataclass(frozen=True)
class TournamentContents:
    """What a tournament holds, counted: what deleting it takes along, and the confirmed
    scoresheets that stand in the way (``policies.may_delete_tournament``)."""

    players: int
    rounds: int
    scoresheets: int
    confirmed: int
    staff: int
    printouts: int
    ranking_requests: int


def tournament_contents(*, tournament: Tournament) -> TournamentContents:
    """Its players, rounds, scoresheets (confirmed ones apart), staff roles, printouts and
    requests to ranking lists, in two queries."""
    # The printouts are the printing app's (it sits above): counted by its relation's name.
    players, rounds, staff, printouts, ranking_requests = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            n_players=_count(Entry.objects.filter(tournament=OuterRef("pk"))),
            n_rounds=_count(Round.objects.filter(tournament=OuterRef("pk"))),
            n_staff=_count(TournamentRole.objects.filter(tournament=OuterRef("pk"))),
            n_printouts=Count("jobs", distinct=True),
            n_ranking_requests=Count("ranking_admissions", distinct=True),
        )
        .values_list("n_players", "n_rounds", "n_staff", "n_printouts", "n_ranking_requests")
        .get()
    )
    sheets = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(sheet_status=play.recorded().sheet_status(table=""))
        .aggregate(
            scoresheets=Count("pk", filter=Q(sheet_status__isnull=False)),
            confirmed=Count("pk", filter=Q(sheet_status=play.SheetStatus.CONFIRMED)),
        )
    )
    return TournamentContents(
        players=players,
        rounds=rounds,
        scoresheets=sheets["scoresheets"],
        confirmed=sheets["confirmed"],
        staff=staff,
        printouts=printouts,
        ranking_requests=ranking_requests,
    )


@dataclass(frozen=True)
class SlugUse:
    """Whether the tournament's links have gone out with its short name: on a printout, or
    with a round's published seating (``policies.may_change_slug``)."""

    printed: bool
    published: bool


def slug_use(*, tournament: Tournament) -> SlugUse:
    """Whether a printout of the tournament was made (the printing app's jobs, counted by their
    relation's name: it sits above) and whether a round's seating is published; one query."""
    row = Tournament.objects.filter(pk=tournament.pk).aggregate(
        printouts=Count("jobs", distinct=True),
        published=Count("rounds", filter=Q(rounds__published_at__isnull=False), distinct=True),
    )
    return SlugUse(printed=bool(row["printouts"]), published=bool(row["published"]))
