"""Who may do what with a tournament or a round, answered once per action; and the one shape
of an answer for every app's policies (``Refusal``, ``enforce``).

Each policy returns None when the action is allowed, otherwise a ``Refusal`` with the reason (a
translated message that cites the TSR). The services enforce it; the pages and the API ask the
same function whether to show the button. ``roles`` are the actor's roles in the tournament
(``selectors.user_roles``, or ``permissions.roles_of`` for a request, which looks them up once).
"""

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import (
    Entry,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.roles import (
    CHECKS_IN,
    CLOCK,
    ENDS_PLAYING_TIME,
    EXTRA_TIME,
    ORGANISER,
    READS_SEAT_LINKS,
    STAFF,
)
from tournaments.roles_history import played_by


@dataclass(frozen=True)
class Refusal:
    """Why someone may not do something, for a 403 or beside a hidden button.

    ``field``: None when it is not his to do (a 403); else the field of the object's state
    that stands in the way, a sheet still a draft, say (a 400 on that field).
    ``plays``: he holds the role but plays at the table concerned; the message says who
    decides instead, worth showing him where the button would be (adjudication's policies).
    """

    message: str
    field: str | None = None
    plays: bool = False

    def __str__(self) -> str:
        return self.message


def enforce(refusal: Refusal | None) -> None:
    """For the services: refuse as the policy says, with a 403 and the reason when it is not
    the actor's to do, else with a 400 on the field that stands in the way."""
    if refusal is None:
        return
    if refusal.field is None:
        raise PermissionDenied(refusal.message)
    raise ValidationError({refusal.field: refusal.message})


# Who may create tournaments: the permission, granted in the administration through this group
# (made by a migration), and held by every superuser. The creator becomes the organiser.
CREATE_PERMISSION = "tournaments.add_tournament"
ORGANISERS_GROUP = "Organisers"


def may_create_tournament(*, user: User | AnonymousUser) -> Refusal | None:
    """Create a tournament (and become its organiser): users with the permission to, which an
    administrator grants by adding them to the Organisers group."""
    if user.is_authenticated and user.has_perm(CREATE_PERMISSION):
        return None
    return Refusal(
        _("Only organisers create tournaments; an administrator adds you to the “%(group)s” group.")
        % {"group": ORGANISERS_GROUP}
    )


# Who corrects a person (``Player``) or merges two records of one person: the permission to
# change players, granted in the administration, and held by every superuser.
PERSON_PERMISSION = "tournaments.change_player"


# Who else vouches for persons, asked by ``may_change_person``: each app above that has such
# users registers a question when Django starts (rankings: a ranking list's maintainers, who
# vouch for the results the lists are made of). Tournaments may not ask that app itself (it
# stands above); without it, only the permission counts. By the question's name, so that a
# second start-up registers nothing twice.
_person_keepers: dict[str, Callable[[User], bool]] = {}


def person_keeper_register(*, name: str, keeps: Callable[[User], bool]) -> None:
    """An app's question whether a (signed-in) user keeps persons (registered once, at
    start-up)."""
    _person_keepers[name] = keeps


def may_change_person(*, user: User | AnonymousUser) -> Refusal | None:
    """Correct a person's name, club or DDV number, or merge another record of the same person
    into theirs: what every tournament and ranking list of theirs refers to, so not any one
    organiser's. The site's administrators, users with the permission to change players, and
    whoever an app above says keeps persons (``person_keeper_register``: the maintainers of a
    ranking list)."""
    if isinstance(user, User) and (
        user.has_perm(PERSON_PERMISSION) or any(keeps(user) for keeps in _person_keepers.values())
    ):
        return None
    return Refusal(
        _(
            "Only the site's administrators or a ranking list's maintainers correct a person "
            "or merge two records of one person."
        )
    )


def may_correct_person_with_entry(
    *, tournament_ids: Collection[int], roles_by_tournament: Mapping[int, Collection[str]]
) -> Refusal | None:
    """Let the person follow the correction of an entry (its name, club, DDV number): when every
    tournament the person plays in (``tournament_ids``) is one the user organises (his roles by
    tournament, ``selectors.user_roles_by_tournament``), the person is only his. Otherwise the
    entry alone is corrected, and the person as ``may_change_person`` says."""
    if all(set(roles_by_tournament.get(pk, ())) & ORGANISER for pk in tournament_ids):
        return None
    return Refusal(
        _(
            "The person plays in other organisers' tournaments too: only the site's "
            "administrators or a ranking list's maintainers correct a person."
        )
    )


def may_copy_tournament(*, roles: Collection[str]) -> Refusal | None:
    """Start a new tournament from an earlier one, with its settings and perhaps its players:
    that tournament's organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser of a tournament starts a new one from it."))


def may_copy_staff(*, roles: Collection[str], roles_new: Collection[str]) -> Refusal | None:
    """Appoint an earlier tournament's staff again in the new one started from it: whoever
    organises both (``roles``: his in the earlier, ``roles_new``: in the new one), as the
    organiser appoints the staff (TSR 8.2.1) and grants no role he could not grant himself."""
    if set(roles) & ORGANISER and set(roles_new) & ORGANISER:
        return None
    return Refusal(_("Only an organiser of both tournaments appoints the staff again."))


def may_delete_tournament(
    *, tournament: Tournament, roles: Collection[str], confirmed: int
) -> Refusal | None:
    """Delete a tournament with everything in it (a test, a tournament made by mistake): its
    organisers, while no scoresheet of it is confirmed (``confirmed``: how many are). Once a
    result counts, the tournament is archived instead (``may_archive_tournament``)."""
    if not set(roles) & ORGANISER:
        return Refusal(_("Only an organiser of the tournament deletes it."))
    if confirmed:
        return Refusal(
            ngettext(
                "%(count)d scoresheet of this tournament is confirmed: its results stay. "
                "Archive the tournament instead; it leaves the home page.",
                "%(count)d scoresheets of this tournament are confirmed: their results stay. "
                "Archive the tournament instead; it leaves the home page.",
                confirmed,
            )
            % {"count": confirmed},
            field="scoresheets",
        )
    return None


def may_archive_tournament(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Archive a tournament (off the home page and the organisers' current lists, still at its
    address and in the ranking lists), or take it out of the archive: its organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser of the tournament archives it."))


def may_change_slug(
    *, tournament: Tournament, roles: Collection[str], printed: bool, published: bool
) -> Refusal | None:
    """Change the short name in the tournament's links: its organisers, until the links have
    gone out: nothing printed yet (``printed``: a printout of it was made, its QR codes and
    links on paper) and no round's seating published (``published``: players were sent to
    its pages). After that it stays as it is."""
    if refusal := may_change_settings(tournament=tournament, roles=roles):
        return refusal
    if printed:
        return Refusal(
            _(
                "Printouts of the tournament carry links with this short name, so it stays as "
                "it is."
            ),
            field="slug",
        )
    if published:
        return Refusal(
            _(
                "The seating of a round is published and its links went out with this short "
                "name, so it stays as it is."
            ),
            field="slug",
        )
    return None


def may_change_settings(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Change a tournament's settings (TSR 8.3.1, 10: how it is played; what the public sees):
    organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser changes the tournament's settings."))


def may_end_playing_time(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Announce the end of a round's playing time (TSR 8.5.1): adjudicators and organisers."""
    if set(roles) & ENDS_PLAYING_TIME:
        return None
    return Refusal(_("Only an adjudicator or an organiser ends the playing time (TSR 8.5.1)."))


def plays_at_table(*, table: Table, user: User | AnonymousUser) -> int | None:
    """The seat at ``table`` of the player one of ``user``'s roles names (*plays as*) or ever
    named (``roles_history``: a *plays as* taken away still counts), if any. One query."""
    if not user.is_authenticated:
        return None
    seats = Seat.objects.filter(played_by([user.pk]), table_id=table.pk)
    return seats.values_list("position", flat=True).distinct().first()


def may_grant_extra_time(
    *, table: Table, user: User | AnonymousUser, roles: Collection[str]
) -> Refusal | None:
    """Give one table extra playing time (TSR 8.5.1: "In begründeten Ausnahmefällen darf der
    Schiedsrichter für einzelne Tische hiervon abweichen"; "Der Schiedsrichter ist berechtigt,
    bei einer Reklamation die zeitliche Begrenzung an dem betroffenen Tisch um die Zeit der
    Unterbrechung zu verlängern"): whoever may rule at that table, the adjudicator or a deputy
    adjudicator (TSR 8.2.1), and the organiser, who runs the clock for the adjudicator
    (``roles.CLOCK``); none of them at a table where he plays himself. Extra time for the
    panel's decision follows from the decision itself (adjudication's panel services).

    Here, not in adjudication's policies, though it reads as adjudication's ``may_rule``: the
    clock is the tournaments app's and it only needs the tournament's roles and seats; the
    apps import downwards, so the round page and its API could not ask adjudication."""
    if not set(roles) & EXTRA_TIME:
        return Refusal(
            _(
                "Only the adjudicator, a deputy adjudicator or the organiser gives a table extra "
                "time (TSR 8.5.1)."
            )
        )
    if (seat := plays_at_table(table=table, user=user)) is not None:
        return Refusal(
            _(
                "You play at seat %(seat)d of table %(table)d, so you do not give it extra "
                "time: the adjudicator or a deputy adjudicator who does not play there does "
                "(TSR 8.2.1, 8.5.1)."
            )
            % {"seat": seat, "table": table.number},
            plays=True,
        )
    return None


def may_read_standings(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Read the standings, and the points on the public pages: the staff always, everyone
    else while the organiser shows them."""
    if tournament.standings_public or set(roles) & STAFF:
        return None
    return Refusal(_("The organiser has hidden the standings for now."))


def may_read_unpublished_seating(*, roles: Collection[str]) -> Refusal | None:
    """Read the seating of rounds drawn but not yet published: the staff, who prepare and
    check it. Not a scorekeeper account, which types sheets in once play begins."""
    if set(roles) & STAFF:
        return None
    return Refusal(_("The seating is shown once the organiser publishes it."))


def may_read_seating(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Read a round's seating, its tables and seats and so their scoresheets, on every page and
    in the API: everyone once it is published; before, as ``may_read_unpublished_seating``."""
    if round.published_at is not None or may_read_unpublished_seating(roles=roles) is None:
        return None
    return Refusal(
        _("The seating of round %(round)d has not been published yet.") % {"round": round.number}
    )


def may_allow_tables_of_five(*, roles: Collection[str]) -> Refusal | None:
    """Allow tables of five for the rest of a tournament (TSR 8.3.1, 10): organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(
        _("Only an organiser decides whether tables of five are played (TSR 8.3.1, 10).")
    )


def may_print(*, roles: Collection[str]) -> Refusal | None:
    """Start a printout of the tournament and read its jobs: organisers (the tournament's
    management prepares the lists, cards and sheets)."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser starts printouts and downloads them."))


def may_seat_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Draw (or draw again) a round's seating (TSR 8.3): organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser draws the seating."))


def may_undo_draw(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Undo a round's draw before it starts, so that it is planned again: organisers, who
    draw it."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser undoes the draw of a round."))


def may_delete_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Delete the last round before it starts: organisers, who add rounds."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser deletes a round."))


def may_publish_seating(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Publish the seating, so that players find their tables: organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser publishes the seating."))


def may_start_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Start a round's clock for all tables (TSR 8.5.1): adjudicators and organisers."""
    if set(roles) & CLOCK:
        return None
    return Refusal(_("Only an adjudicator or an organiser starts the round (TSR 8.5.1)."))


def may_close_round(*, round: Round, roles: Collection[str]) -> Refusal | None:
    """Close a round once every sheet is confirmed: organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser closes a round."))


def may_check_in(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Mark players as arrived at the door, or take it back: the organiser and the desk
    (scorekeeper accounts), until the tournament is finished."""
    if not set(roles) & CHECKS_IN:
        return Refusal(_("Only an organiser or the desk (a scorekeeper) checks players in."))
    if tournament.status == Tournament.Status.FINISHED:
        return Refusal(_("The tournament is finished; nobody checks in any more."), "status")
    return None


def may_read_personal_links(*, roles: Collection[str]) -> Refusal | None:
    """See, print, mail and replace the players' personal links: the tournament's management and
    its adjudicator, who hand one out again at the venue. Whoever holds a link sees what the
    player sees and uses the player's seat, so nobody else."""
    if set(roles) & READS_SEAT_LINKS:
        return None
    return Refusal(_("Only an organiser or the adjudicator hands out the players' personal links."))


def may_read_personal_link(
    *, entry: Entry, roles: Collection[str], tablemates: Collection[int]
) -> Refusal | None:
    """See, print, send or replace one player's personal link (``may_read_personal_links``),
    unless the reader plays at a table with him in a round not yet closed (``tablemates``:
    ``roles_history.tablemates`` of the reader): with it he could act for that player's seat
    at his own table, confirm the sheet his own seat handed in (TSR 7.3.2). Another organiser
    or the adjudicator, who does not play with him, hands it out."""
    if refusal := may_read_personal_links(roles=roles):
        return refusal
    if entry.pk in tablemates:
        return Refusal(
            _(
                "You play at a table with %(player)s, so you do not hold his personal link: "
                "another organiser or the adjudicator, who does not play with him, hands it "
                "out (TSR 7.3.2)."
            )
            % {"player": entry.name},
            plays=True,
        )
    return None


def may_print_every_link(*, roles: Collection[str], plays: bool) -> Refusal | None:
    """Print every player's personal link at once (the cards, the seat slips): organisers who
    do not play in the tournament (``plays``: the reader plays, or played, as one of its
    players). A playing organiser would hold his tablemates' links; another organiser prints
    them, or he prints one player's card at a time, for players he does not play with."""
    if refusal := may_print(roles=roles):
        return refusal
    if plays:
        return Refusal(
            _(
                "You play in this tournament, so you do not print every player's link: with "
                "them you could act for your tablemates' seats (TSR 7.3.2). Another organiser "
                "who does not play prints them; you may print the card of a player you do not "
                "play with."
            ),
            plays=True,
        )
    return None
