"""A tournament's role history: who held which role and whom he played as, kept for good
(``RoleRecord``), and what the steps that need a second person read of it (``doko.four_eyes``).

Every change to a ``TournamentRole`` is written here by the model's signals, so that no path
escapes it: the staff page and the API (``adjudication.services.staff``), a new tournament's
organiser, a match day's organisers, a copied tournament's staff, the administration, a
backup restored. A path that writes roles in bulk, without signals, calls ``roles_recorded``
itself. The roles in force are still ``TournamentRole``; this is what was.
"""

from collections.abc import Collection, Iterable

from django.db.models import Q, QuerySet
from django.db.models.signals import post_delete, post_save, pre_save

from tournaments.models import RoleRecord, TournamentRole


def roles_recorded(
    grants: Iterable[TournamentRole], *, change: str = RoleRecord.Change.GRANTED
) -> None:
    """Write ``change`` for each of these roles (saved already) to the history."""
    RoleRecord.objects.bulk_create(
        RoleRecord(
            tournament_id=grant.tournament_id,
            user_id=grant.user_id,
            role=grant.role,
            entry_id=grant.entry_id,
            change=change,
        )
        for grant in grants
    )


def _before(sender, instance: TournamentRole, raw: bool = False, **kwargs) -> None:
    """Whom the role played as before this save, to tell a changed *plays as* apart."""
    if raw or instance.pk is None:
        return
    instance._entry_before = (  # type: ignore[attr-defined]
        TournamentRole.objects.filter(pk=instance.pk).values_list("entry_id", flat=True).first()
    )


def _saved(sender, instance: TournamentRole, created: bool, raw: bool = False, **kwargs) -> None:
    if created:
        roles_recorded([instance])
    elif getattr(instance, "_entry_before", instance.entry_id) != instance.entry_id:
        roles_recorded([instance], change=RoleRecord.Change.CHANGED)


def _deleted(sender, instance: TournamentRole, origin=None, **kwargs) -> None:
    # Only a role taken away by itself: one that goes with its tournament or its account
    # leaves nobody to record it for (the history goes with them).
    deleted = getattr(origin, "model", type(origin))
    if deleted is TournamentRole:
        roles_recorded([instance], change=RoleRecord.Change.REMOVED)


def connect() -> None:
    """Write the history on every save and delete of a role (``TournamentsConfig.ready``)."""
    pre_save.connect(_before, sender=TournamentRole, dispatch_uid="role-history-before")
    post_save.connect(_saved, sender=TournamentRole, dispatch_uid="role-history-saved")
    post_delete.connect(_deleted, sender=TournamentRole, dispatch_uid="role-history-deleted")


# Reads ----------------------------------------------------------------------------------------


def held_roles(*, tournament_ids: Collection[int], user_id: int | None) -> set[int]:
    """Those of the tournaments in which the user holds or ever held a role."""
    if user_id is None or not tournament_ids:
        return set()
    held = Q(tournament_id__in=list(tournament_ids), user_id=user_id)
    now = TournamentRole.objects.filter(held).order_by().values_list("tournament_id", flat=True)
    ever = RoleRecord.objects.filter(held).order_by().values_list("tournament_id", flat=True)
    return set(now.union(ever))


def plays_as(
    *, entry_ids: Collection[int] = (), user_ids: Collection[int] = ()
) -> set[tuple[int, int]]:
    """Every (account, player) pair that is one person: an account whose role names, or ever
    named, the entry as whom he plays (``TournamentRole.entry``), among these entries or these
    accounts. One query."""
    if not entry_ids and not user_ids:
        return set()
    now, ever = plays_as_rows(entry_ids=entry_ids, user_ids=user_ids)
    return set(
        now.values_list("user_id", "entry_id").union(ever.values_list("user_id", "entry_id"))
    )


def plays_as_rows(
    *, entry_ids: Collection[int] | QuerySet = (), user_ids: Collection[int] = ()
) -> tuple[QuerySet[TournamentRole], QuerySet[RoleRecord]]:
    """The rows ``plays_as`` reads its pairs from (their ``user_id`` and ``entry_id``): the
    roles that name an entry as whom their account plays, and those that ever named one, among
    these entries (or the entries a subquery gives) or these accounts; for a caller that reads
    them in a query of its own."""
    entries = entry_ids if isinstance(entry_ids, QuerySet) else list(entry_ids)
    now = Q(entry_id__in=entries) | Q(user_id__in=list(user_ids))
    return (
        TournamentRole.objects.filter(now, entry__isnull=False).order_by(),
        RoleRecord.objects.filter(now, entry__isnull=False).order_by(),
    )


def played_by(user_ids: Collection[int], *, entry: str = "entry") -> Q:
    """A condition on rows reaching a player by the path ``entry`` (a seat's ``entry``; empty:
    the rows are the players, entries): that player is, or ever was, whom one of these
    accounts plays as. In the same query."""
    ids = list(user_ids)
    roles, key = (f"{entry}__staff_roles", f"{entry}_id") if entry else ("staff_roles", "id")
    ever = RoleRecord.objects.filter(user_id__in=ids, entry__isnull=False).values("entry_id")
    return Q(**{f"{roles}__user_id__in": ids}) | Q(**{f"{key}__in": ever})


def tablemates(*, user_id: int | None, tournament_id: int, round_id: int | None = None) -> set[int]:
    """The players (entries) who sit, in a round of the tournament not yet closed (or in
    ``round_id``), at a table with a player the account plays or played as: whose links he must
    not hold while he plays with them (he could act for their seats, TSR 7.3.2). Not his own.
    One query."""
    if user_id is None:
        return set()
    from tournaments.models import Round, Seat

    open_rounds = Q(round__tournament_id=tournament_id) & ~Q(round__status=Round.Status.CLOSED)
    if round_id is not None:
        open_rounds = Q(round_id=round_id)
    his = Seat.objects.filter(open_rounds, played_by([user_id]))
    mates = Seat.objects.filter(table_id__in=his.values("table_id")).exclude(
        entry_id__in=his.values("entry_id")
    )
    return set(mates.values_list("entry_id", flat=True))


def plays_in(*, user_id: int | None, tournament_id: int) -> bool:
    """Whether the account plays, or played, as a player of the tournament."""
    if user_id is None:
        return False
    from tournaments.models import Entry

    entries = Entry.objects.filter(played_by([user_id], entry=""), tournament_id=tournament_id)
    return entries.exists()
