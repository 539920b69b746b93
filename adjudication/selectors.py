"""Reads for adjudication: what the adjudicators decided about a sheet, a table or a
tournament."""

import functools
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    Expression,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from adjudication import policies
from adjudication.invitations import invitation_key_again, invitation_key_hash, invitation_key_path
from adjudication.models import (
    Appeal,
    Decision,
    Event,
    Offence,
    RoleOffer,
    Sanction,
    StaffInvitation,
)
from doko.names import matches, search_key, search_words
from scoring.models import Scoresheet
from scoring.rulings import Reading, SheetAdjudication
from tournaments import prepared
from tournaments.models import ExtraTime, Round, Seat, Table, Tournament, TournamentRole
from tournaments.prepared import Prepared


def sheet_adjudication(*, sheet: Scoresheet) -> SheetAdjudication:
    """The decisions on a sheet and the deductions of its players in its round, in two
    queries sent together (compiled once, one round trip: every read of a sheet's entry
    page, every live check and every table page built anew asks them)."""
    decisions, deducted = prepared.run(
        _SHEET_DECISIONS.bound(sheet.pk),
        _TABLE_DEDUCTIONS.bound(sheet.table.round_id, sheet.table_id),
    )
    return _adjudication(sheet, decisions, deducted)


def table_adjudication_reading(*, round_id: int, number: int) -> Reading:
    """``sheet_adjudication`` of the sheet of table ``number`` of the round, its two reads
    found by the table, for its page to send with the table's own (``Reading``)."""
    return Reading(
        steps=(
            _NUMBERED_DECISIONS.bound(round_id, number),
            _NUMBERED_DEDUCTIONS.bound(round_id, number),
        ),
        made=lambda sheet, results: _adjudication(sheet, *results),
    )


def _adjudication(sheet: Scoresheet, decisions: list, deducted: list) -> SheetAdjudication:
    for decision in decisions:
        decision._state.fields_cache["scoresheet"] = sheet
    deductions: dict[int, int] = {}
    for position, points in deducted:
        assert points is not None  # a deduction has its points (sanction_deduction_1_to_12)
        deductions[position] = deductions.get(position, 0) - points
    return SheetAdjudication(decisions=decisions, deductions=deductions)


def _decisions(sheet: Q) -> QuerySet[Decision]:
    return (
        Decision.objects.filter(sheet)
        .select_related("initialled_by", "offence")
        .order_by("hand_number", "recorded_at", "pk")
    )


def _deductions(seat: Q, *, round_id: int) -> QuerySet[Sanction, tuple[int, int | None]]:
    """The deductions in force in the round from the players of the seats ``seat`` finds (in
    one ``filter``: the seat the position is read from is the one found)."""
    return (
        Sanction.objects.filter(
            seat, round_id=round_id, kind=Sanction.Kind.DEDUCTION, status=Sanction.Status.IN_FORCE
        )
        .order_by()
        .values_list("entry__seats__position", "points")
    )


_SHEET_DECISIONS = Prepared(lambda sheet_id: _decisions(Q(scoresheet_id=sheet_id)))
_TABLE_DEDUCTIONS = Prepared(
    lambda round_id, table_id: _deductions(Q(entry__seats__table_id=table_id), round_id=round_id)
)
# The same by the table's round and number, where the sheet is not read yet (its table's page).
_NUMBERED_DECISIONS = Prepared(
    lambda round_id, number: _decisions(
        Q(scoresheet__table__round_id=round_id, scoresheet__table__number=number)
    )
)
_NUMBERED_DEDUCTIONS = Prepared(
    lambda round_id, number: _deductions(
        Q(entry__seats__table__round_id=round_id, entry__seats__table__number=number),
        round_id=round_id,
    )
)


def _correlated_sum(queryset: QuerySet, field: str, *, by: str) -> Expression:
    """A correlated SUM subquery of ``field`` over ``queryset`` (one group, ``by``): no join, so
    summing two relations multiplies nothing."""
    summed = queryset.order_by().values(by).annotate(total=Sum(field)).values("total")
    return Coalesce(Subquery(summed), 0)


@functools.cache
def _anything_ruled_sql() -> tuple[str, tuple[str, ...]]:
    """``SheetRulings.anything_ruled`` in SQL, for a query of scoresheets: a decision on the
    sheet, or a deduction in force from a player seated at its table in its round."""
    q = connection.ops.quote_name

    def column(model, name: str) -> str:
        return q(model._meta.get_field(name).column)

    sheet, table = q(Scoresheet._meta.db_table), q(Table._meta.db_table)
    decision, sanction, seat = (q(model._meta.db_table) for model in (Decision, Sanction, Seat))
    sql = (
        f"(EXISTS (SELECT 1 FROM {decision} WHERE {decision}.{column(Decision, 'scoresheet')}"
        f" = {sheet}.{column(Scoresheet, 'id')})"
        f" OR EXISTS (SELECT 1 FROM {sanction} INNER JOIN {seat}"
        f" ON {seat}.{column(Seat, 'entry')} = {sanction}.{column(Sanction, 'entry')}"
        f" WHERE {seat}.{column(Seat, 'table')} = {sheet}.{column(Scoresheet, 'table')}"
        f" AND {sanction}.{column(Sanction, 'round')} = (SELECT {table}.{column(Table, 'round')}"
        f" FROM {table} WHERE {table}.{column(Table, 'id')} = {sheet}.{column(Scoresheet, 'table')})"
        f" AND {sanction}.{column(Sanction, 'kind')} = %s"
        f" AND {sanction}.{column(Sanction, 'status')} = %s))"
    )
    return sql, (Sanction.Kind.DEDUCTION.value, Sanction.Status.IN_FORCE.value)


class SheetRulings:
    """Adjudication's answers to scoring's questions (``scoring.rulings.Rulings``), registered
    by ``AdjudicationConfig.ready``. The sums are subqueries, so that a page or the results
    read them in the one query that reads the tables."""

    def of_sheet(self, *, sheet: Scoresheet) -> SheetAdjudication:
        return sheet_adjudication(sheet=sheet)

    def of_table(self, *, round_id: int, number: int) -> Reading:
        return table_adjudication_reading(round_id=round_id, number=number)

    def penalty_sum(self, seat: int, *, sheet: str) -> Expression:
        decisions = Decision.objects.filter(
            scoresheet=OuterRef(sheet), status=Decision.Status.INITIALLED
        )
        return _correlated_sum(decisions, f"penalty_{seat}", by="scoresheet")

    def deducted_sum(self, *, entry: str, round: str) -> Expression:
        deductions = Sanction.objects.filter(
            entry=OuterRef(entry),
            round=OuterRef(round),
            kind=Sanction.Kind.DEDUCTION,
            status=Sanction.Status.IN_FORCE,  # not changed or annulled on appeal (TSR 8.2.1)
        )
        return _correlated_sum(deductions, "points", by="entry")

    def anything_ruled(self) -> Expression:
        # Written out once (``_anything_ruled_sql``): built as querysets, the two EXISTS cost
        # a write lock more to make than the two queries they save.
        sql, params = _anything_ruled_sql()
        return RawSQL(sql, params, output_field=BooleanField())

    def open_count(self, *, sheet: str) -> Expression:
        waiting = Decision.objects.filter(
            scoresheet=OuterRef(sheet), status__in=[Decision.Status.OPEN, Decision.Status.DRAFT]
        )
        counted = waiting.order_by().values("scoresheet").annotate(count=Count("pk"))
        return Coalesce(Subquery(counted.values("count")), 0)


# Reads for the pages ------------------------------------------------------------------------------

_DECISION_RELATED = (
    "scoresheet__table__round",
    "offence",
    "recorded_by",
    "initialled_by",
    "ruled_by",
    "appealed",
)


@dataclass(frozen=True)
class Dashboard:
    """What an adjudicator walking between the tables needs to see: what waits for him, and
    what was decided recently."""

    open: list[Decision]  # complaints not ruled yet
    drafts: list[Decision]  # ruled, waiting for initials (TSR 8.2.2)
    appeals: list[Appeal]  # lodged, the panel has not decided (TSR 9.7.7)
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
    pending = [Decision.Status.OPEN, Decision.Status.DRAFT]
    waiting = list(decision_list(tournament=tournament).filter(status__in=pending))
    recent = list(
        decision_list(tournament=tournament)
        .exclude(status__in=pending)
        .order_by("-recorded_at", "-pk")[:RECENT]
    )
    appeals = list(
        _appeals_of(tournament)
        .filter(outcome="")
        .select_related(
            "decision__scoresheet__table__round",
            "decision__offence",
            "sanction__entry",
            "sanction__round",
        )
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
        .select_related("entry", "round", "offence", "decided_by")
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


def _appeals_of(tournament: Tournament) -> QuerySet[Appeal]:
    """The appeals against the tournament's decisions and sanctions (TSR 8.2.1)."""
    return Appeal.objects.filter(
        Q(decision__scoresheet__table__round__tournament=tournament)
        | Q(sanction__entry__tournament=tournament)
    )


def offence_list(*, tournament: Tournament) -> QuerySet[Offence]:
    return Offence.objects.filter(tournament=tournament).order_by("kind", "name")


def event_log(*, tournament: Tournament) -> QuerySet[Event]:
    """The tournament's adjudication log, oldest first, with who did it."""
    return Event.objects.filter(tournament=tournament).select_related("by").order_by("at", "pk")


def staff_roles(*, tournament: Tournament) -> QuerySet[TournamentRole]:
    return (
        TournamentRole.objects.filter(tournament=tournament)
        .select_related("tournament", "user", "entry")
        .order_by("role", "user__username")
    )


def panel_members(*, tournament: Tournament) -> QuerySet[User]:
    """The users on the tournament's arbitration panel."""
    return (
        get_user_model()
        .objects.filter(
            tournament_roles__tournament=tournament,
            tournament_roles__role=TournamentRole.Role.PANEL,
        )
        .order_by("last_name", "first_name", "username")
    )


# Reads for the API
# Each runs a fixed number of queries, however many rows it returns.


def decision_list(
    *, tournament: Tournament, status: str | None = None, round_number: int | None = None
) -> QuerySet[Decision]:
    """The tournament's decisions in the order recorded, optionally of one status or round,
    with their table, offence, who recorded and initialled them, and the appeal against them
    with its members and the panel's own decision: three queries (one without appeals)."""
    decisions = (
        Decision.objects.filter(scoresheet__table__round__tournament=tournament)
        .select_related(*_DECISION_RELATED, "appealed__lodged_by", "appealed__decided_by")
        .prefetch_related("appealed__members", "appealed__replacement")
    )
    if status:
        decisions = decisions.filter(status=status)
    if round_number is not None:
        decisions = decisions.filter(scoresheet__table__round__number=round_number)
    return decisions.order_by("recorded_at", "pk")


def decision_detail(*, tournament: Tournament, pk: int) -> Decision:
    """One decision of the tournament as ``decision_list`` reads it (404 otherwise)."""
    return get_object_or_404(decision_list(tournament=tournament), pk=pk)


def appeal_list(*, tournament: Tournament) -> QuerySet[Appeal]:
    """The appeals in the order lodged, with the decision or sanction appealed against, the
    panel's members and its own decision or sanction: four queries."""
    return (
        _appeals_of(tournament)
        .select_related(
            "decision__scoresheet__table__round",
            "sanction__entry",
            "sanction__round",
            "lodged_by",
            "decided_by",
        )
        .prefetch_related("members", "replacement", "replacement_sanction")
        .order_by("lodged_at", "pk")
    )


def appeal_detail(*, tournament: Tournament, pk: int) -> Appeal:
    return get_object_or_404(appeal_list(tournament=tournament), pk=pk)


def sanction_list(*, tournament: Tournament) -> QuerySet[Sanction]:
    """The sanctions in the order decided, with the player, round, offence, the panel's
    members and the appeal against them with its members and the panel's own sanction: up to
    four queries."""
    return (
        Sanction.objects.filter(entry__tournament=tournament)
        .select_related(
            "entry",
            "round",
            "offence",
            "decided_by",
            "appealed__lodged_by",
            "appealed__decided_by",
        )
        .prefetch_related("members", "appealed__members", "appealed__replacement_sanction")
        .order_by("decided_at", "pk")
    )


def sanction_detail(*, tournament: Tournament, pk: int) -> Sanction:
    """One sanction of the tournament as ``sanction_list`` reads it (404 otherwise)."""
    return get_object_or_404(sanction_list(tournament=tournament), pk=pk)


def sanction_seat(*, sanction: Sanction) -> Seat | None:
    """Where the sanctioned player sat in the sanction's round: the table concerned."""
    return (
        Seat.objects.filter(table__round_id=sanction.round_id, entry_id=sanction.entry_id)
        .select_related("table__round")
        .first()
    )


def offence_detail(*, tournament: Tournament, pk: int) -> Offence:
    return get_object_or_404(offence_list(tournament=tournament), pk=pk)


def offence_of(*, tournament: Tournament, pk: int) -> Offence | None:
    """An offence of the tournament's catalogue named in a request; None if there is none."""
    return offence_list(tournament=tournament).filter(pk=pk).first()


def staff_invitations(*, tournament: Tournament) -> QuerySet[StaffInvitation]:
    """The tournament's open invitations (neither accepted nor withdrawn), run out or not."""
    return (
        StaffInvitation.objects.filter(
            tournament=tournament, accepted_at__isnull=True, withdrawn_at__isnull=True
        )
        .select_related("tournament", "invited_by", "entry")
        .order_by("created_at", "pk")
    )


def staff_invitation_links(
    *, invitations: Iterable[StaffInvitation], roles: Collection[str]
) -> list[tuple[StaffInvitation, str | None]]:
    """The invitations, each with the path of its link where a reader with ``roles`` may read
    it (``policies.may_read_invitation_link``) and it can be made again from its seed (not for
    invitations made before the seeds were kept: "Invite again" gives those a link)."""
    shown = []
    for invitation in invitations:
        key = (
            invitation_key_again(invitation)
            if policies.may_read_invitation_link(invitation=invitation, roles=roles) is None
            else None
        )
        shown.append((invitation, invitation_key_path(key) if key else None))
    return shown


def staff_invitation_detail(*, tournament: Tournament, pk: int) -> StaffInvitation:
    return get_object_or_404(
        StaffInvitation.objects.filter(tournament=tournament).select_related(
            "tournament", "invited_by", "entry"
        ),
        pk=pk,
    )


def staff_invitation_by_key(*, key: str) -> StaffInvitation | None:
    """The invitation of a link's key, whatever its state; None for a key no invitation has."""
    return (
        StaffInvitation.objects.filter(key_hash=invitation_key_hash(key))
        .select_related("tournament", "invited_by", "entry")
        .first()
    )


def role_detail(*, tournament: Tournament, pk: int) -> TournamentRole:
    return get_object_or_404(staff_roles(tournament=tournament), pk=pk)


def scoresheet_at(
    *, tournament: Tournament, round_number: int, table_number: int
) -> Scoresheet | None:
    """The scoresheet of a table in a round, with its round and tournament; None if there is
    none."""
    return (
        Scoresheet.objects.filter(
            table__round__tournament=tournament,
            table__round__number=round_number,
            table__number=table_number,
        )
        .select_related("table__round__tournament")
        .first()
    )


def round_of(*, tournament: Tournament, number: int) -> Round | None:
    return Round.objects.filter(tournament=tournament, number=number).first()


def users_named(*, usernames: list[str]) -> dict:
    """The users of these user names, by user name; those not found are left out."""
    model = get_user_model()
    users = model.objects.filter(**{f"{model.USERNAME_FIELD}__in": usernames})
    return {user.get_username(): user for user in users}


# Accounts the staff page's search looks through: a club's site has a few dozen; past this many,
# the newest are not searched (offering a role by user name still reaches them).
MOST_ACCOUNTS_SEARCHED = 5000


def accounts_matching(*, query: str, by: User, limit: int = 10) -> list[User]:
    """Active accounts whose user name or full name match ``query`` as every name search does
    (``doko.names``: any case, accents or not, "Mueller" and "Muller" for Müller), by user
    name; at most ``limit``. Only accounts ``by`` has worked with: those holding a role in a
    tournament he organises, whom its staff page shows him anyway (a superuser, who sees every
    account in the administration, searches them all). Whether any other name has an account
    is told to nobody. Filtered in Python: the database holds no search key of accounts."""
    if not search_words(query):
        return []
    model = get_user_model()
    accounts = model.objects.filter(is_active=True)
    if not by.is_superuser:
        organised = TournamentRole.objects.filter(user=by, role=TournamentRole.Role.ORGANISER)
        accounts = accounts.filter(
            pk__in=TournamentRole.objects.filter(
                tournament__in=organised.values("tournament")
            ).values("user")
        )
    rows = accounts.order_by("pk").values_list("pk", "username", "first_name", "last_name")[
        :MOST_ACCOUNTS_SEARCHED
    ]
    found = sorted(
        (username, pk)
        for pk, username, first_name, last_name in rows.iterator(chunk_size=500)
        if matches(search_key(username, first_name, last_name), query)
    )[:limit]
    return list(model.objects.filter(pk__in=[pk for _name, pk in found]).order_by("username"))


def invitation_account(email: str) -> User | None:
    """The account of an address (the first made, should there be several), or None."""
    return User.objects.filter(email__iexact=email).order_by("pk").first()


def offer_account(*, username: str) -> User | None:
    """The active account a role offered to ``username`` goes to: the one of exactly that name,
    else the only one of that name in another case; None if there is none. One query, whatever
    the answer (``services.role_offer``)."""
    found = list(User.objects.filter(username__iexact=username, is_active=True)[:5])
    exact = [user for user in found if user.username == username]
    if exact:
        return exact[0]
    return found[0] if len(found) == 1 else None


def role_offers(*, tournament: Tournament) -> QuerySet[RoleOffer]:
    """The tournament's role offers not answered or withdrawn, run out or not, as the
    organiser wrote them."""
    return (
        RoleOffer.objects.filter(
            tournament=tournament,
            accepted_at__isnull=True,
            declined_at__isnull=True,
            withdrawn_at__isnull=True,
        )
        .select_related("tournament", "offered_by", "entry")
        .order_by("created_at", "pk")
    )


def role_offer_detail(*, tournament: Tournament, pk: int) -> RoleOffer:
    return get_object_or_404(
        RoleOffer.objects.filter(tournament=tournament).select_related(
            "tournament", "offered_by", "entry"
        ),
        pk=pk,
    )


def role_offers_for(*, user: User) -> list[RoleOffer]:
    """The roles offered to ``user`` that he may still accept or decline, oldest first."""
    return list(
        RoleOffer.objects.open()
        .filter(user=user)
        .select_related("tournament", "offered_by", "entry")
        .order_by("created_at", "pk")
    )


def role_offer_of(*, user: User, pk: int) -> RoleOffer:
    """One of the roles offered to ``user``, answered or not; a 404 for anyone else's, as for
    one that does not exist."""
    return get_object_or_404(
        RoleOffer.objects.filter(user=user).select_related("tournament", "offered_by", "entry"),
        pk=pk,
    )


# The roles "Your roles" lists, newest tournaments first; older ones are on the home page.
MOST_ROLES_SHOWN = 50


def roles_held(*, user: User) -> list[TournamentRole]:
    """The roles ``user`` holds, with their tournaments, the newest tournaments first."""
    return list(
        TournamentRole.objects.filter(user=user)
        .select_related("tournament", "entry")
        .order_by("-tournament__starts_on", "tournament__name", "role")[:MOST_ROLES_SHOWN]
    )
