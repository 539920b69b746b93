"""Who may do what with a scoresheet, answered once per action (as ``tournaments.policies``).

Each policy returns None when the action is allowed, otherwise the reason it is refused. The
services enforce it; the pages and the API ask the same function whether to show the form.
``roles`` are the account's roles in the tournament; a player's seat link has none.

A sheet's policies also say when the sheet's state stands in the way (a draft, a round not
under way): their ``Refusal`` then names that field, and the services refuse with a 400 on
it instead of a 403.
"""

from collections.abc import Collection
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from doko.four_eyes import Account, Deed, Identity, Player, Step, disqualifying, person, two_players
from scoring.models import Scoresheet, SecondEntry
from scoring.selectors.record import SheetRecord, first_entry_blind, sheet_record
from tournaments.models import Round, Seat, SheetKeeping, Table
from tournaments.policies import Refusal, may_read_seating, plays_at_table
from tournaments.roles import (
    FIRST_INSTANCE,
    HANDS_OVER_SHEET,
    ORGANISER,
    READS_SEAT_LINKS,
    SHEET_READERS,
    SHEET_STAFF,
)

AnyUser = User | AnonymousUser


def may_hand_over_sheet(*, roles: Collection[str]) -> Refusal | None:
    """Move the keeping of a table's sheet to another of its seats (TSR 3.1.1, 8.4.1): the
    organiser or an adjudicator."""
    if set(roles) & HANDS_OVER_SHEET:
        return None
    return Refusal(
        _(
            "Only an organiser or an adjudicator hands the scoresheet over to another player "
            "of the table (TSR 3.1.1, 8.4.1)."
        )
    )


def may_read_seat_links(
    *, roles: Collection[str], table: Table | None = None, user: AnyUser | None = None
) -> Refusal | None:
    """Read the private link of every seat of a table, to hand one out again: the organiser or
    an adjudicator. A link lets its holder act as that seat, so no one else reads them, a
    player's own link included; nor does a member of staff whose *plays as* is, or ever was, a
    seat of that ``table``: with another seat's link he could confirm the sheet his own seat
    handed in (TSR 7.3.2). Another member of staff reads them for him. (``table`` and ``user``: when a
    table's links are asked for; without them, whether the roles read links at all.)

    Printed links follow the same rule (``printing.services``): every player's link at once
    is printed by organisers who do not play, and the blank scoresheets a playing organiser
    prints leave out the scorekeeper's link at his own table. A seat's link used on a device
    where a player of the table is logged in confirms nothing but as his own seat
    (``may_confirm_sheet``: one request, two players)."""
    if not set(roles) & READS_SEAT_LINKS:
        return Refusal(_("Only an organiser or an adjudicator reads the players' private links."))
    position = plays_at_table(table=table, user=user) if table is not None and user else None
    if position is not None:
        return Refusal(
            _(
                "You play at seat %(seat)d of this table, so you do not read its players' "
                "private links: another organiser or adjudicator of the tournament, who does "
                "not play at this table, reads them for you."
            )
            % {"seat": position},
            plays=True,
        )
    return None


def may_read_desk(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Read the desk's view of a round, every table's sheet at a glance (TSR 7.3.4): the
    tournament's staff who read sheets (organisers, adjudicators, deputies, the panel,
    scorekeeper accounts), once they may read the round's seating, which the sheets name."""
    if not set(roles) & SHEET_READERS:
        return Refusal(
            _(
                "Only the tournament's staff see the desk: its organisers, adjudicators, "
                "deputy adjudicators, arbitration panel and scorekeepers. An organiser "
                "appoints them on the staff page."
            )
        )
    return may_read_seating(round=round, roles=roles)


@dataclass(frozen=True)
class Actor:
    """Who changes a sheet: a staff member's account, or a player through their seat's link."""

    user: User | None = None
    seat: Seat | None = None
    # Through a seat's link: the account logged in on the device that used it (its session),
    # if any. A member of staff who plays at the table confirms nothing with another seat's
    # link (``may_confirm_sheet``).
    account: User | None = None

    def __post_init__(self) -> None:
        if (self.user is None) == (self.seat is None):
            raise ValueError("an actor is either a user or a seat")
        if self.account is not None and self.seat is None:
            raise ValueError("only a seat's link is used by an account")

    @property
    def name(self) -> str:
        if self.seat is not None:
            return _("%(name)s (seat %(seat)d)") % {
                "name": self.seat.entry.name,
                "seat": self.seat.position,
            }
        assert self.user is not None  # either a user or a seat (__post_init__)
        return self.user.get_full_name() or self.user.get_username()


def actor_identities(actor: Actor) -> set[Identity]:
    """The identities a request presents (``doko.four_eyes``): its account, the player whose
    seat's link it uses, and the account logged in on the device that uses the link (its
    session or its API token)."""
    found: set[Identity] = set()
    if actor.user is not None:
        found.add(Account(actor.user.pk))
    if actor.seat is not None:
        found.add(Player(actor.seat.entry_id))
    if actor.account is not None:
        found.add(Account(actor.account.pk))
    return found


def typist_of(actor: Actor) -> str:
    """Who types on an entry page, as the page's saves name him (the field ``typist``): an
    account (``user:<id>``) or a seat's link (``seat:<id>``). A hand kept on a device while the
    connection was down carries it until it is sent (static/js/offline-queue.js)."""
    if actor.seat is not None:
        return f"seat:{actor.seat.pk}"
    assert actor.user is not None  # either a user or a seat (Actor.__post_init__)
    return f"user:{actor.user.pk}"


def may_save_typed(*, typed_by: str, typed_by_name: str, actor: Actor) -> Refusal | None:
    """Save a hand as typed by ``typed_by`` (``typist_of``; ``typed_by_name``: his name): only
    as whoever typed it. On a device several people share, a hand typed by one person and sent
    later, once another has logged in, is refused, so that nothing is saved under another
    person's name; the page asks the person what to do. A save that names no typist (a plain
    form, the API) is the sender's own."""
    if not typed_by or typed_by == typist_of(actor):
        return None
    return Refusal(
        _(
            "This hand was typed on this device by %(typist)s, and %(name)s is logged in now: "
            "nothing was saved, since nothing is saved under another person's name. If you "
            "typed it, save it again as yours; if %(typist)s did, they log in here again to "
            "send it."
        )
        % {"typist": typed_by_name, "name": actor.name}
    )


UNDER_WAY = {Round.Status.RUNNING, Round.Status.FINISHED}


def _who(
    sheet: Scoresheet,
    actor: Actor,
    roles: Collection[str],
    *,
    table_size: int | None,
    keeper: bool = False,
    organiser: bool = False,
) -> Refusal | None:
    """Whether the sheet is the actor's to change at all (``table_size``: if known; else it is
    counted when needed): staff who keep sheets (``organiser``:
    organisers only), or a player of the table through his seat's link (``keeper``: only the
    scorekeeper's, TSR 7.3.4, 8.4.1, 10.1.4)."""
    if actor.user is not None:
        if not set(roles) & (ORGANISER if organiser else SHEET_STAFF):
            return Refusal(_("You may not change this scoresheet."))
        return None
    if organiser:
        return Refusal(_("Only an organiser reopens a scoresheet."))
    assert actor.seat is not None  # either a user or a seat (Actor.__post_init__)
    if actor.seat.table_id != sheet.table_id:
        return Refusal(_("This link does not open this scoresheet."))
    if not keeper:
        return None
    size = table_size if table_size is not None else sheet.table_size()
    if actor.seat.position != (seat := sheet.keeper(size)):
        return Refusal(
            _(
                "Only the scorekeeper, seat %(seat)d, enters and hands in the scoresheet "
                "(TSR 7.3.4, 8.4.1, 10.1.4)."
            )
            % {"seat": seat}
        )
    return None


def round_under_way(sheet: Scoresheet) -> Refusal | None:
    """Sheets are kept from the start of the round until it is closed (TSR 8.5.1)."""
    round_ = sheet.table.round
    if round_.status in UNDER_WAY:
        return None
    return Refusal(
        _(
            "Round %(round)d is %(status)s: scoresheets are kept from the start of the "
            "round until it is closed (TSR 8.5.1)."
        )
        % {"round": round_.number, "status": round_.get_status_display()},
        field="round",
    )


def sheet_is(sheet: Scoresheet, status: str, doing: str) -> Refusal | None:
    """The sheet is in ``status``, else: "The scoresheet is …; ``doing``"."""
    if sheet.status == status:
        return None
    return Refusal(
        _("The scoresheet is %(status)s; %(doing)s.")
        % {"status": sheet.get_status_display(), "doing": doing},
        field="status",
    )


def _kept_on_paper(sheet: Scoresheet, actor: Actor) -> Refusal | None:
    """A tournament that keeps its sheets on paper only: the players' links follow the sheet
    the desk types in, and do not enter it (TSR 7.3.4)."""
    if actor.seat is None or sheet.table.round.tournament.sheet_keeping != SheetKeeping.PAPER:
        return None
    return Refusal(
        _(
            "This tournament keeps its scoresheets on paper: the scorekeeper hands the signed "
            "sheet to the tournament desk, which types it in (TSR 7.3.4). Here you follow it."
        )
    )


def _typing_second_entry(sheet: Scoresheet, actor: Actor) -> Refusal | None:
    """Who types a sheet's second entry does not type its first (double entry). One query,
    none without double entry."""
    tournament = sheet.table.round.tournament
    if actor.user is None or not tournament.double_entry:
        return None
    if not SecondEntry.objects.filter(scoresheet_id=sheet.pk, by_id=actor.user.pk).exists():
        return None
    return Refusal(
        _(
            "You are typing the second entry of this scoresheet; another member of the desk "
            "types the first (double entry)."
        )
    )


def _not_ended(sheet: Scoresheet) -> Refusal | None:
    """A sheet ended early takes no more hands until the end is taken back."""
    if not sheet.ended_early:
        return None
    return Refusal(
        _(
            "The scoresheet was ended early (%(reason)s): no more hands are entered. Who ended "
            "it, the adjudicator or the organiser, can take that back."
        )
        % {"reason": sheet.ended_early_reason},
        field="ended_early",
    )


def _rules_at_table(
    sheet: Scoresheet, user: AnyUser, roles: Collection[str], *, may: frozenset, who: str
) -> Refusal | None:
    """One of the roles ``may`` who does not play at the sheet's table (TSR 8.2.1); ``who``
    names them in the refusal."""
    if not set(roles) & may:
        return Refusal(who)
    # Asked once per sheet and account, as the page asks several of these policies.
    known = sheet.__dict__.setdefault("_plays_at", {})
    if user.pk not in known:
        known[user.pk] = plays_at_table(table=sheet.table, user=user)
    if (seat := known[user.pk]) is not None:
        return Refusal(
            _(
                "You play at seat %(seat)d of table %(table)d: the adjudicator or a deputy "
                "adjudicator who does not play there decides this for the table (TSR 8.2.1)."
            )
            % {"seat": seat, "table": sheet.table.number},
            plays=True,
        )
    return None


def may_end_sheet_early(
    *, sheet: Scoresheet, user: AnyUser, roles: Collection[str]
) -> Refusal | None:
    """End the sheet of a table that cannot finish, a player having left or been disqualified
    mid-round (the TSR is silent; docs/rules.md, "A table that cannot finish"): whoever may rule
    at that table, the adjudicator or a deputy adjudicator (TSR 8.2.1), or the organiser, who
    runs the tournament; none at a table where he plays. On a draft, while the round is under
    way, not ended already."""
    return (
        _rules_at_table(
            sheet,
            user,
            roles,
            may=FIRST_INSTANCE | ORGANISER,
            who=_(
                "Only the adjudicator, a deputy adjudicator or the organiser ends a table's "
                "scoresheet early, with the reason (TSR 8.2.1)."
            ),
        )
        or round_under_way(sheet)
        or sheet_is(sheet, Scoresheet.Status.DRAFT, _("only a draft is ended early"))
        or _not_ended(sheet)
    )


def may_undo_end_early(
    *, sheet: Scoresheet, user: AnyUser, roles: Collection[str]
) -> Refusal | None:
    """Take back a mistaken early end: the same people as ``may_end_sheet_early``, while the
    sheet is not confirmed; a handed-in sheet goes back to a draft with it."""
    refusal = _rules_at_table(
        sheet,
        user,
        roles,
        may=FIRST_INSTANCE | ORGANISER,
        who=_(
            "Only the adjudicator, a deputy adjudicator or the organiser takes back the early "
            "end of a scoresheet (TSR 8.2.1)."
        ),
    ) or round_under_way(sheet)
    if refusal is not None:
        return refusal
    if not sheet.ended_early:
        return Refusal(_("The scoresheet was not ended early."), field="ended_early")
    if sheet.status == Scoresheet.Status.CONFIRMED:
        return Refusal(
            _(
                "The scoresheet is confirmed: its match is over (TSR 8.5.2). The organiser "
                "reopens it first."
            ),
            field="status",
        )
    return None


def may_record_replay(
    *, sheet: Scoresheet, user: AnyUser, roles: Collection[str]
) -> Refusal | None:
    """Put a game broken off and dealt again on the sheet (TSR 9.1.3): by the consent of the
    four "in Anwesenheit und mit Zustimmung des Schiedsrichters", or by his ruling; so the
    adjudicator or a deputy adjudicator who does not play at that table records it, on a draft
    while the round is under way."""
    return (
        _rules_at_table(
            sheet,
            user,
            roles,
            may=FIRST_INSTANCE,
            who=_(
                "Only the adjudicator or a deputy adjudicator records a game broken off and "
                "dealt again: it needs his presence and consent (TSR 9.1.3)."
            ),
        )
        or round_under_way(sheet)
        or sheet_is(sheet, Scoresheet.Status.DRAFT, _("a replay is recorded only on a draft"))
        or _not_ended(sheet)
    )


def may_edit_sheet(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Enter, correct or strike hands: the scorekeeper's link or sheet staff, on a draft while
    the round is under way (TSR 7.3.4, 8.4.1, 8.5.1); on paper only, the desk alone, and not
    whoever types the sheet's second entry; a draft the desk types blind (double entry) only
    who types it, or who opened it since (``first_entry_hidden``)."""
    return (
        _who(sheet, actor, roles, table_size=table_size, keeper=True)
        or _kept_on_paper(sheet, actor)
        or round_under_way(sheet)
        or sheet_is(sheet, Scoresheet.Status.DRAFT, _("only a draft can be changed"))
        or _not_ended(sheet)
        or _typing_second_entry(sheet, actor)
        or first_entry_hidden(sheet=sheet, actor=actor)
    )


def may_submit_sheet(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Hand the sheet in: as ``may_edit_sheet`` (TSR 7.3.2, 8.5.2)."""
    return (
        _who(sheet, actor, roles, table_size=table_size, keeper=True)
        or _kept_on_paper(sheet, actor)
        or round_under_way(sheet)
        or sheet_is(sheet, Scoresheet.Status.DRAFT, _("only a draft can be submitted"))
        or _typing_second_entry(sheet, actor)
        or first_entry_hidden(sheet=sheet, actor=actor)
    )


def may_confirm_sheet(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Confirm a handed-in sheet: another player of the table or staff, a second person by
    the sheet's record (``doko.four_eyes``, ``Step.CONFIRM``): not whoever handed it in or
    typed its hands, under any identity (his account, his seat's link, the seat of the player
    he is), nor a request that is two players of the table at once (an account that plays at
    one seat, sending another seat's key) (TSR 7.3.2, 8.5.2)."""
    refusal = _who(sheet, actor, roles, table_size=table_size) or sheet_is(
        sheet, Scoresheet.Status.SUBMITTED, _("only a submitted sheet can be confirmed")
    )
    if refusal is not None:
        return refusal
    if (refusal := _awaits_second_entry(sheet)) is not None:
        return refusal
    record = sheet_record(sheet)
    identities = actor_identities(actor)
    if two := two_players(actor=identities, players=record.seats, same=record.same):
        own = _own_seat(record, actor, two)
        return Refusal(
            _(
                "You play at seat %(seat)d of this table and are logged in as its staff: "
                "another seat's link confirms nothing for you. Another player of the table, "
                "with his own link, or a member of staff who does not play here must confirm "
                "it (TSR 7.3.2)."
            )
            % {"seat": own},
            field="confirmed_by",
            plays=True,
        )
    deeds = disqualifying(step=Step.CONFIRM, record=record.done, actor=identities, same=record.same)
    if Deed.HANDED_IN in deeds:
        direct = (actor.user is not None and actor.user.pk == sheet.submitted_by_id) or (
            actor.seat is not None and actor.seat.pk == sheet.submitted_by_seat_id
        )
        position = None if direct else _seat_that(record, identities, Deed.HANDED_IN)
        if position is None:
            return Refusal(
                _(
                    "You handed this scoresheet in; another player of the table or a member of "
                    "staff must confirm it (TSR 7.3.2, 8.5.2)."
                ),
                field="confirmed_by",
            )
        return Refusal(
            _(
                "You play at seat %(seat)d, which handed this scoresheet in; another player "
                "of the table or a member of staff who does not play there must confirm it "
                "(TSR 7.3.2, 8.5.2)."
            )
            % {"seat": position},
            field="confirmed_by",
            plays=True,
        )
    if Deed.TYPED in deeds:
        return Refusal(
            _(
                "You typed hands of this scoresheet, so you are not the second person who "
                "confirms it: another player of the table, or a member of staff who did not "
                "type it, must confirm it (TSR 7.3.2, 8.5.2)."
            ),
            field="confirmed_by",
        )
    return None


def _own_seat(record: SheetRecord, actor: Actor, players: list[Player]) -> int:
    """Of two players of the table a request presents, the seat of the one that is not the
    link's: the player the logged-in account is."""
    link = Player(actor.seat.entry_id) if actor.seat is not None else None
    return min(record.seats[player] for player in players if player != link)


def _seat_that(record: SheetRecord, identities: set[Identity], deed: Deed) -> int | None:
    """The seat of the actor's player (through the identities linked to his) that did
    ``deed``, if it was a seat of the table that did it."""
    who = person(identities, record.same)
    seats = [
        record.seats[done.by]
        for done in record.done
        if done.deed == deed and done.by in who and isinstance(done.by, Player)
    ]
    return min(seats) if seats else None


def typed_at_the_desk(sheet: Scoresheet) -> bool:
    """Whether a handed-in sheet was typed in by a member of staff (a paper sheet at the desk)
    rather than by the scorekeeper through his seat's link."""
    return sheet.submitted_by_id is not None


def double_entry_applies(sheet: Scoresheet) -> bool:
    """Whether this handed-in sheet is confirmed by a second, blind entry: the tournament
    checks its paper sheets so, and this one was typed at the desk."""
    return sheet.table.round.tournament.double_entry and typed_at_the_desk(sheet)


def _awaits_second_entry(sheet: Scoresheet) -> Refusal | None:
    if not double_entry_applies(sheet):
        return None
    return Refusal(
        _(
            "This tournament checks paper sheets by a second, blind entry: another member of "
            "the desk types this sheet again without seeing the first entry, and it is "
            "confirmed when both agree. An organiser can switch double entry off in the "
            "settings."
        ),
        field="confirmed_by",
    )


def _desk(actor: Actor, roles: Collection[str], doing: str) -> Refusal | None:
    """Only a member of the desk through his account: sheet staff (organisers, adjudicators,
    scorekeeper accounts)."""
    if actor.user is not None and set(roles) & SHEET_STAFF:
        return None
    return Refusal(
        _("Only the tournament desk (an organiser, an adjudicator or a scorekeeper) %(doing)s.")
        % {"doing": doing}
    )


def may_confirm_from_signed_sheet(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Confirm a sheet from the paper sheet the players signed (TSR 7.3.4, 8.5.2): the
    signatures are the second person, so the member of the desk who typed it confirms it
    himself; a complete draft is handed in and confirmed in one step. Not where the sheets are
    kept on phones only, nor where double entry checks them."""
    refusal = _desk(actor, roles, _("confirms a scoresheet from the signed paper sheet"))
    if refusal is not None:
        return refusal
    tournament = sheet.table.round.tournament
    if tournament.sheet_keeping == SheetKeeping.PHONES:
        return Refusal(
            _(
                "This tournament keeps its scoresheets on phones: another player of the table "
                "confirms each one (TSR 7.3.2). An organiser can allow paper sheets in the "
                "settings."
            ),
            field="from_signed_sheet",
        )
    if tournament.double_entry:
        return Refusal(
            _(
                "This tournament checks paper sheets by a second, blind entry, not by the "
                "signatures alone: another member of the desk types the sheet again. An "
                "organiser can switch double entry off in the settings."
            ),
            field="from_signed_sheet",
        )
    if sheet.status == Scoresheet.Status.DRAFT:
        return round_under_way(sheet)
    return sheet_is(
        sheet, Scoresheet.Status.SUBMITTED, _("only a submitted sheet can be confirmed")
    )


def may_enter_second(
    *,
    sheet: Scoresheet,
    actor: Actor,
    roles: Collection[str],
    entry: SecondEntry | None,
) -> Refusal | None:
    """Type a paper sheet a second time without seeing the first entry (double entry): a
    member of the desk who is a second person by the sheet's record (``doko.four_eyes``,
    ``Step.SECOND_ENTRY``): he did not type or hand in the first entry, did not open it while
    it was blind, and does not play at the table; while the round is under way and the sheet
    is not confirmed; one member at a time (``entry``: the sheet's second entry so far)."""
    refusal = _desk(actor, roles, _("types the second entry of a scoresheet"))
    if refusal is not None:
        return refusal
    assert actor.user is not None  # the desk acts through its accounts (_desk)
    if not sheet.table.round.tournament.double_entry:
        return Refusal(
            _(
                "This tournament does not check paper sheets by a second entry; an organiser "
                "can switch double entry on in the settings."
            ),
            field="double_entry",
        )
    refusal = round_under_way(sheet)
    if refusal is not None:
        return refusal
    if sheet.status == Scoresheet.Status.CONFIRMED:
        return Refusal(_("The scoresheet is confirmed already."), field="status")
    if sheet.submitted_by_seat_id is not None:
        return Refusal(
            _(
                "The scorekeeper handed this sheet in through his link: another player of the "
                "table or a member of staff confirms it; it needs no second entry."
            ),
            field="status",
        )
    record = sheet_record(sheet)
    deeds = disqualifying(
        step=Step.SECOND_ENTRY,
        record=record.done,
        actor=actor_identities(actor),
        same=record.same,
    )
    if Deed.TYPED in deeds or Deed.HANDED_IN in deeds:
        return Refusal(
            _(
                "You typed the first entry of this scoresheet; another member of the desk "
                "types the second, without seeing the first (double entry)."
            ),
            field="by",
        )
    if Deed.READ in deeds:
        return Refusal(
            _(
                "You opened the first entry of this scoresheet while it was blind, so you do "
                "not type its second entry: another member of the desk who has not seen it "
                "does (double entry)."
            ),
            field="by",
        )
    if Deed.PLAYED in deeds:
        return Refusal(
            _(
                "You play at this table and signed its paper sheet: another member of the desk "
                "types the second entry (double entry)."
            ),
            field="by",
            plays=True,
        )
    if entry is not None and entry.by_id != actor.user.pk:
        return Refusal(
            _(
                "%(name)s is typing the second entry of this scoresheet. Start it over only "
                "if he has stopped."
            )
            % {"name": entry.by.get_full_name() or entry.by.get_username()},
            field="second_entry",
        )
    return None


# What a player (a seat's link, a phone without a login) reads instead of a blind first entry.
BLIND_TO_PLAYERS = gettext_lazy(
    "This scoresheet is being checked at the tournament desk by a second, blind entry: its "
    "hands show here once it is confirmed. The signed paper sheet has them."
)


def first_entry_hidden(*, sheet: Scoresheet, actor: Actor) -> Refusal | None:
    """Whether the hands of the sheet's first entry are withheld from ``actor`` (the refusal
    says why), or shown (None). While the first entry is blind (``first_entry_blind``: typed
    at the desk in a tournament that checks paper sheets by a second entry, until it is
    confirmed), only who typed or handed it in sees its hands, and who opened it since
    (``may_open_first_entry``, which is recorded and costs him its second entry)."""
    if not first_entry_blind(sheet):
        return None
    record = sheet_record(sheet)
    if record.did(
        person(actor_identities(actor), record.same), Deed.TYPED, Deed.HANDED_IN, Deed.READ
    ):
        return None
    if actor.user is None:
        return Refusal(str(BLIND_TO_PLAYERS), field="blind")
    return Refusal(
        _(
            "Table %(table)d's scoresheet was typed at the desk and is checked by a second, "
            "blind entry: until it is confirmed only who typed it sees its hands. Whoever "
            "opens them no longer types its second entry, and it is recorded."
        )
        % {"table": sheet.table.number},
        field="blind",
    )


def may_open_first_entry(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str]
) -> Refusal | None:
    """Open the hands of a blind first entry all the same (an adjudicator ruling at the
    table, an organiser who must): the tournament's staff who read sheets, through their
    accounts; the opening is recorded (``SheetRead``) and he no longer types the sheet's
    second entry (``may_enter_second``)."""
    if actor.user is None or not set(roles) & SHEET_READERS:
        return Refusal(
            _(
                "Only the tournament's staff open a scoresheet's first entry while it is "
                "checked by a second entry; the players see it once it is confirmed."
            )
        )
    return None


def may_discard_second_entry(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str]
) -> Refusal | None:
    """Throw a second entry away to start it over (its typist stopped, or it went wrong): any
    member of the desk, until the sheet is confirmed."""
    return _desk(actor, roles, _("starts a second entry over")) or (
        Refusal(_("The scoresheet is confirmed already."), field="status")
        if sheet.status == Scoresheet.Status.CONFIRMED
        else None
    )


def may_compare_entries(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str]
) -> Refusal | None:
    """Compare a complete second entry with the handed-in first: any member of the desk,
    while the sheet is handed in (TSR 7.3.4). The comparison names the differing hands only,
    never what the first entry has in them."""
    return (
        _desk(actor, roles, _("compares the two entries of a scoresheet"))
        or round_under_way(sheet)
        or sheet_is(
            sheet, Scoresheet.Status.SUBMITTED, _("only a handed-in sheet's entries are compared")
        )
    )


def _settling(sheet: Scoresheet, actor: Actor, roles: Collection[str]) -> list[Deed]:
    """What on the sheet's record stands between ``actor`` and settling its differences
    alone (``Step.SETTLE``)."""
    record = sheet_record(sheet)
    return disqualifying(
        step=Step.SETTLE, record=record.done, actor=actor_identities(actor), same=record.same
    )


def may_settle_differences(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str]
) -> Refusal | None:
    """Settle the hands in which the two entries of a paper sheet differ, each from the paper
    sheet itself, alone: a member of the desk who typed neither entry and does not play at the
    table (``doko.four_eyes``, ``Step.SETTLE``), while the sheet is handed in (TSR 7.3.4). A
    typist of either entry proposes instead, and the other typist agrees
    (``may_propose_settlement``)."""
    refusal = may_compare_entries(sheet=sheet, actor=actor, roles=roles)
    if refusal is not None:
        return refusal
    deeds = _settling(sheet, actor, roles)
    if Deed.PLAYED in deeds:
        return Refusal(
            _(
                "You play at this table: a member of the desk who does not play there "
                "settles the differences between its two entries."
            ),
            field="by",
            plays=True,
        )
    if deeds:
        return Refusal(
            _(
                "You typed one of the two entries, so you do not settle their differences "
                "alone: propose how the paper sheet has them, and the other typist agrees; or "
                "a member of the desk who typed neither settles them."
            ),
            field="by",
        )
    return None


def may_propose_settlement(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str]
) -> Refusal | None:
    """Propose how to settle the differences, for the other typist to agree (or agree to the
    other's proposal): a typist of either entry who does not play at the table, while the
    sheet is handed in. Settled only when both typists chose the same
    (``doko.four_eyes.settle_pair``)."""
    refusal = may_compare_entries(sheet=sheet, actor=actor, roles=roles)
    if refusal is not None:
        return refusal
    deeds = _settling(sheet, actor, roles)
    if Deed.PLAYED in deeds:
        return may_settle_differences(sheet=sheet, actor=actor, roles=roles)
    if not deeds:
        return Refusal(
            _("You typed neither entry: you settle the differences yourself."), field="by"
        )
    return None


def may_reopen_sheet(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Return a handed-in sheet to draft: organisers, until the round is closed."""
    refusal = _who(sheet, actor, roles, table_size=table_size, organiser=True)
    if refusal is not None:
        return refusal
    if sheet.status == Scoresheet.Status.DRAFT:
        return Refusal(_("The scoresheet is a draft already."), field="status")
    if sheet.table.round.status == Round.Status.CLOSED:
        return Refusal(
            _("Round %(round)d is closed; its scoresheets can no longer be reopened.")
            % {"round": sheet.table.round.number},
            field="round",
        )
    return None


def may_return_sheet(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Send a handed-in sheet back to its scorekeeper with a reason, before it is confirmed
    (TSR 7.3.2): any player of the table through their link (the scorekeeper too, who sees a
    mistake of his own) or sheet staff, while the round is under way."""
    return (
        _who(sheet, actor, roles, table_size=table_size)
        or round_under_way(sheet)
        or sheet_is(
            sheet,
            Scoresheet.Status.SUBMITTED,
            _("only a handed-in sheet not yet confirmed can be sent back"),
        )
        # Who does not see the hands (a blind first entry) cannot say what is wrong in them.
        or first_entry_hidden(sheet=sheet, actor=actor)
    )


def may_attach_scan(
    *, sheet: Scoresheet, actor: Actor, roles: Collection[str], table_size: int | None = None
) -> Refusal | None:
    """Attach or replace the photo or scan of the signed paper sheet (TSR 7.3.4, 8.5.2): the
    scorekeeper's link or sheet staff, once the round has started, whatever the sheet's state
    (the table signs it once it is complete, and the desk often photographs the sheets after
    they are confirmed); once the round is closed, an organiser only."""
    if actor.user is not None:
        if not set(roles) & SHEET_STAFF:
            return Refusal(
                _(
                    "The scorekeeper, an organiser, an adjudicator or a scorekeeper account "
                    "attaches the signed scoresheet."
                )
            )
    else:
        refusal = _who(sheet, actor, roles, table_size=table_size)
        if refusal is not None:
            return refusal
        assert actor.seat is not None  # either a user or a seat (Actor.__post_init__)
        size = table_size if table_size is not None else sheet.table_size()
        if actor.seat.position != (seat := sheet.keeper(size)):
            return Refusal(
                _("The scorekeeper (seat %(seat)d) or the desk attaches the signed scoresheet.")
                % {"seat": seat}
            )
    round_ = sheet.table.round
    if round_.status == Round.Status.CLOSED:
        if set(roles) & ORGANISER:
            return None
        return Refusal(
            _("Round %(round)d is closed: only an organiser attaches a signed scoresheet now.")
            % {"round": round_.number},
            field="round",
        )
    if round_.status not in UNDER_WAY:
        return Refusal(
            _(
                "Round %(round)d has not started: the signed scoresheet is attached once the "
                "table has played (TSR 7.3.4)."
            )
            % {"round": round_.number},
            field="round",
        )
    return None


def may_read_scan(*, sheet: Scoresheet, actor: Actor, roles: Collection[str]) -> Refusal | None:
    """See the photo or scan of the signed sheet: every player of the table through their
    link, and whoever reads the sheet through an account (``SHEET_READERS``), by the sheet's
    rule: once the seating is published, or before as staff."""
    if actor.seat is not None:
        return _who(sheet, actor, roles, table_size=None)
    if not set(roles) & SHEET_READERS:
        return Refusal(_("You may not see this scoresheet."))
    return may_read_seating(round=sheet.table.round, roles=roles)
