"""Who may do what in adjudication (TSR 8.2.1, 8.2.2, 9.6.2, 9.6.3, 9.7.7), answered once: the
services enforce these answers, the pages and the API ask them to show or hide a button. Each
returns a ``Refusal`` (``tournaments.policies``, every app's one shape of it) saying why and who
decides instead, or None; ``enforce`` turns it into a 403.

The reading of TSR 8.2.1 ("Im Falle einer Reklamation entscheidet der Schiedsrichter in erster
Instanz [...] Das Schiedsgericht wird einberufen, wenn ein Spieler mit einer Entscheidung des
Schiedsrichters nicht einverstanden ist [...] Die Entscheidung des Schiedsgerichtes ist
endgültig"):

- The first instance is the adjudicator's, and a deputy adjudicator's whom the organiser
  appointed for it; a member of the arbitration panel rules on a complaint only as such a
  deputy, since the panel is the instance that hears the appeal against the ruling.
- Any decision of the adjudicator can be appealed to the panel: a ruling on a complaint, and
  the points of a bound decision he gave alone (TSR 9.6.3). What the panel decided itself is
  final.
- Nobody decides a case at a table where he plays (``TournamentRole.entry``, seated at that
  table in that round): not the adjudicator or a deputy in the first instance, not a member of
  the panel on appeal or on unsporting conduct. The TSR do not say so in words; it follows
  from the first instance being a neutral one and is how tournaments keep it.
"""

from collections.abc import Collection, Iterable

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from adjudication.models import Appeal, RoleOffer, StaffInvitation
from doko.four_eyes import Account, Deed, Done, Step, disqualifying
from doko.rules import procedure
from tournaments.models import Seat, Table, Tournament, TournamentRole

# enforce is re-exported, so that adjudication's services say policies.enforce(...).
from tournaments.policies import Refusal
from tournaments.policies import enforce as enforce
from tournaments.roles import CATALOGUE, FIRST_INSTANCE, PANEL
from tournaments.roles_history import played_by, plays_as
from tournaments.selectors import AnyUser, user_roles

Role = TournamentRole.Role

# What is decided, for the messages: "... decides %(what)s".
COMPLAINT = gettext_lazy("this complaint")
APPEAL = gettext_lazy("this appeal")
CONDUCT = gettext_lazy("this case of unsporting conduct")


def _roles(tournament: Tournament, user: AnyUser) -> set[str]:
    return user_roles(user=user, tournament=tournament)


def players_at(*, table: Table, users: Iterable[User | int]) -> set[int]:
    """The ids of those ``users`` who play at ``table``: the player one of their roles in the
    tournament names ("plays as"), or ever named (``tournaments.roles_history``: taking the
    *plays as* away makes nobody neutral after the fact), is seated there."""
    ids = {user if isinstance(user, int) else user.pk for user in users}
    entries = set(
        Seat.objects.filter(played_by(ids), table=table).values_list("entry_id", flat=True)
    )
    return {user for user, entry in plays_as(user_ids=ids) if entry in entries}


def _plays_at(table: Table, user: User) -> bool:
    return bool(players_at(table=table, users=[user]))


def _free(table: Table, role: str, *, besides: User) -> bool:
    """Whether someone else holds ``role`` in the tournament and does not play at ``table``."""
    holders = set(
        TournamentRole.objects.filter(tournament_id=table.round.tournament_id, role=role)
        .exclude(user=besides)
        .values_list("user_id", flat=True)
    )
    return bool(holders - players_at(table=table, users=holders))


def may_adjudicate(*, tournament: Tournament, user: AnyUser) -> Refusal | None:
    """Whether the user rules on complaints in the first instance at all: the adjudicator or a
    deputy adjudicator (TSR 8.2.1). At a given table ``may_rule`` says."""
    roles = _roles(tournament, user)
    if roles & FIRST_INSTANCE:
        return None
    if Role.PANEL in roles:
        return Refusal(
            _(
                "A member of the arbitration panel decides complaints only when appointed "
                "deputy adjudicator; the panel hears the appeals against the rulings "
                "(TSR 8.2.1)."
            )
        )
    return Refusal(
        _("Only the adjudicator or a deputy adjudicator decides complaints (TSR 8.2.1).")
    )


def may_rule(*, table: Table, user: AnyUser, what=COMPLAINT) -> Refusal | None:
    """Record, rule on and initial a complaint at ``table`` (TSR 8.2.1, 8.2.2, 9.7.5), or give
    a bound decision for conduct there (TSR 9.6.3, ``what=CONDUCT``): the adjudicator or a
    deputy adjudicator who does not play at that table. Who plays there is told who decides
    instead."""
    tournament = table.round.tournament
    if refusal := may_adjudicate(tournament=tournament, user=user):
        return refusal
    if not (user.is_authenticated and _plays_at(table, user)):
        return None
    roles = _roles(tournament, user)
    params = {"table": table.number, "what": what}
    # The adjudicator hands over to his deputy, a deputy back to the adjudicator.
    order = (
        [Role.DEPUTY, Role.ADJUDICATOR]
        if Role.ADJUDICATOR in roles
        else [Role.ADJUDICATOR, Role.DEPUTY]
    )
    for role in order:
        if not _free(table, role, besides=user):
            continue
        if role == Role.DEPUTY:
            message = (
                _(
                    "You play at table %(table)d: another deputy adjudicator decides %(what)s (TSR 8.2.1)."
                )
                if Role.DEPUTY in roles
                else _(
                    "You play at table %(table)d: the deputy adjudicator decides %(what)s (TSR 8.2.1)."
                )
            )
        else:
            message = (
                _("You play at table %(table)d: another adjudicator decides %(what)s (TSR 8.2.1).")
                if Role.ADJUDICATOR in roles
                else _("You play at table %(table)d: the adjudicator decides %(what)s (TSR 8.2.1).")
            )
        return Refusal(message % params, plays=True)
    return Refusal(
        _(
            "You play at table %(table)d: a deputy adjudicator who does not play there decides "
            "%(what)s; the organiser appoints one on the staff page (TSR 8.2.1)."
        )
        % params,
        plays=True,
    )


def may_initial(*, table: Table, user: AnyUser) -> Refusal | None:
    """Initial a ruling at ``table`` (TSR 8.2.2: "Vergebene Strafpunkte sind vom
    Schiedsrichter oder von einem Mitglied des Schiedsgerichtes in jedem Fall
    abzuzeichnen"): whoever may rule there, or a member of the arbitration panel who does not
    play there. Whoever initials does not then decide an appeal against it (TSR 8.2.1)."""
    refusal = may_rule(table=table, user=user)
    if refusal is None or Role.PANEL not in _roles(table.round.tournament, user):
        return refusal
    if user.is_authenticated and _plays_at(table, user):
        return Refusal(
            _(
                "You play at table %(table)d: the adjudicator, a deputy or another member of "
                "the arbitration panel initials the ruling (TSR 8.2.2)."
            )
            % {"table": table.number},
            plays=True,
        )
    return None


def _own_ruling(appeal: Appeal | None, users: Collection[User]) -> list[User]:
    """Those of ``users`` who decided in the first instance what ``appeal`` is against
    (TSR 8.2.1): ruled on or initialled the decision, or gave the bound sanction."""
    if appeal is None:
        return []
    if (decision := appeal.decision) is not None:
        ruled_by, initialled_by = decision.ruled_by_id, decision.initialled_by_id
    elif (sanction := appeal.sanction) is not None:
        ruled_by, initialled_by = sanction.decided_by_id, None
    else:
        return []
    own = procedure.own_ruling(
        deciders=[user.pk for user in users], ruled_by=ruled_by, initialled_by=initialled_by
    )
    return [user for user in users if user.pk in own]


def _panel_deeds(
    table: Table, users: Collection[User], appeal: Appeal | None
) -> dict[int, list[Deed]]:
    """For each of ``users``, what on the record makes him no second person to decide as the
    panel (``doko.four_eyes``, ``Step.DECIDE_APPEAL``): he plays, or played, at ``table``, or
    ruled on or initialled what ``appeal`` is against (TSR 8.2.1: two instances)."""
    record = [Done(Deed.PLAYED, Account(pk)) for pk in players_at(table=table, users=users)]
    record += [Done(Deed.RULED, Account(user.pk)) for user in _own_ruling(appeal, users)]
    return {
        user.pk: disqualifying(step=Step.DECIDE_APPEAL, record=record, actor={Account(user.pk)})
        for user in users
    }


def may_lodge_appeal(*, tournament: Tournament, user: AnyUser) -> Refusal | None:
    """Record a player's appeal against a decision of the adjudicator (TSR 9.7.7): the
    adjudicator, a deputy or a member of the panel, whoever the player turns to. Recording
    decides nothing, so playing at the table does not matter.

    An appeal is heard by the arbitration panel (TSR 8.2.1: "Das Schiedsgericht wird
    einberufen, wenn ein Spieler mit einer Entscheidung des Schiedsrichters nicht einverstanden
    ist"); while the tournament has no member of the panel nobody could decide it, so it is
    not accepted: the refusal says who appoints the panel. A refusal on the field ``panel``: the
    tournament's state stands in the way (a 400), not who asks."""
    if not _roles(tournament, user) & (FIRST_INSTANCE | PANEL):
        return Refusal(
            _(
                "Only the adjudicators and the arbitration panel record an appeal (TSR 8.2.1, "
                "9.7.7)."
            )
        )
    if TournamentRole.objects.filter(tournament_id=tournament.pk, role=Role.PANEL).exists():
        return None
    return Refusal(
        _(
            "This tournament has no arbitration panel, so nobody could decide an appeal: the "
            "organiser appoints its members on the staff page first (TSR 8.2.1)."
        ),
        field="panel",
    )


def may_sanction(*, tournament: Tournament, user: AnyUser) -> Refusal | None:
    """Impose a sanction for unsporting conduct at all: the panel (TSR 9.6.2), and the
    adjudicator or a deputy for the bound decisions of the catalogue (TSR 9.6.3). Which one
    and at which table: ``sanction_impose`` with ``may_rule`` and ``may_decide_as_panel``."""
    if _roles(tournament, user) & (FIRST_INSTANCE | PANEL):
        return None
    return Refusal(
        _(
            "Unsporting conduct is for the arbitration panel; the adjudicator gives only the "
            "bound decisions of the catalogue (TSR 9.6.2, 9.6.3)."
        )
    )


def may_decide_as_panel(
    *, table: Table, user: AnyUser, what=APPEAL, appeal: Appeal | None = None
) -> Refusal | None:
    """Record the arbitration panel's decision on an appeal (TSR 8.2.1, 9.7.7) or on
    unsporting conduct (TSR 9.6.2, ``what=CONDUCT``) concerning ``table``: a member of the
    panel who does not play there, and, on ``appeal``, did not rule on or initial what it is
    against (TSR 8.2.1: two instances)."""
    if Role.PANEL not in _roles(table.round.tournament, user):
        return Refusal(_("Only the arbitration panel decides this (TSR 8.2.1, 9.6.2)."))
    deeds = _panel_deeds(table, [user], appeal).get(user.pk, []) if isinstance(user, User) else []
    if Deed.PLAYED in deeds:
        return Refusal(
            _(
                "You play at table %(table)d: another member of the arbitration panel decides "
                "%(what)s (TSR 8.2.1)."
            )
            % {"table": table.number, "what": what},
            plays=True,
        )
    if Deed.RULED in deeds:
        return Refusal(
            _(
                "You ruled on or initialled the decision appealed against: another member of "
                "the arbitration panel records the panel's decision on %(what)s (TSR 8.2.1)."
            )
            % {"what": what}
        )
    return None


def may_sit_on_panel(
    *, table: Table, members: Collection[User], what=APPEAL, appeal: Appeal | None = None
) -> Refusal | None:
    """The members named for the panel's decision concerning ``table`` (TSR 8.2.1): members
    of the tournament's panel, none of whom plays at that table, nor, on ``appeal``, ruled
    on or initialled what it is against (two instances). A refusal names the field
    ``members``: the names given stand in the way, not who gives them."""
    if not members:
        return Refusal(_("Name the members of the arbitration panel."), field="members")
    panel = set(
        TournamentRole.objects.filter(
            tournament_id=table.round.tournament_id, role=Role.PANEL
        ).values_list("user_id", flat=True)
    )
    if outside := [member for member in members if member.pk not in panel]:
        return Refusal(
            _("Not on this tournament's arbitration panel: %(names)s.")
            % {"names": ", ".join(m.get_username() for m in outside)},
            field="members",
        )
    deeds = _panel_deeds(table, members, appeal)
    if playing := [member for member in members if Deed.PLAYED in deeds[member.pk]]:
        return Refusal(
            _(
                "Playing at table %(table)d, %(names)s cannot decide %(what)s: other members "
                "of the arbitration panel do (TSR 8.2.1)."
            )
            % {
                "table": table.number,
                "names": ", ".join(m.get_full_name() or m.get_username() for m in playing),
                "what": what,
            },
            field="members",
        )
    if own := [member for member in members if Deed.RULED in deeds[member.pk]]:
        return Refusal(
            _(
                "%(names)s ruled on or initialled the decision appealed against and cannot "
                "decide %(what)s: other members of the arbitration panel do (TSR 8.2.1)."
            )
            % {
                "names": ", ".join(m.get_full_name() or m.get_username() for m in own),
                "what": what,
            },
            field="members",
        )
    return None


def may_keep_catalogue(*, tournament: Tournament, user: AnyUser) -> Refusal | None:
    """Keep the tournament's catalogue of standard offences (TSR 9.1.7, 9.6.3)."""
    if _roles(tournament, user) & CATALOGUE:
        return None
    return Refusal(_("Only the organiser and the adjudicators keep the catalogue."))


def may_appoint_staff(*, tournament: Tournament, user: AnyUser) -> Refusal | None:
    """Appoint and dismiss the staff (TSR 8.2.1: "Es werden ein Schiedsrichter und ein
    Schiedsgericht eingesetzt"): the organiser."""
    if Role.ORGANISER in _roles(tournament, user):
        return None
    return Refusal(_("Only an organiser appoints the staff."))


def _ask(invitation: StaffInvitation) -> dict[str, str]:
    by = invitation.invited_by
    return {
        "by": by.get_full_name() or by.get_username(),
        "tournament": invitation.tournament.name,
    }


def _invitation_closed(invitation: StaffInvitation) -> Refusal | None:
    """Why an invitation's link no longer works (accepted, withdrawn or replaced, run out), and
    who to ask for a new one; None while it works."""
    if invitation.accepted_at is not None:
        return Refusal(
            _("This invitation has been accepted already. Log in to see %(tournament)s.")
            % _ask(invitation),
            field="invitation",
        )
    if invitation.withdrawn_at is not None:
        return Refusal(
            _(
                "This invitation has been withdrawn, or replaced by a newer one. If it was meant "
                "for you, ask %(by)s, who organises %(tournament)s."
            )
            % _ask(invitation),
            field="invitation",
        )
    if invitation.expires_at <= timezone.now():
        return Refusal(
            _(
                "This invitation has run out. Ask %(by)s, who organises %(tournament)s, to "
                "invite you again."
            )
            % _ask(invitation),
            field="invitation",
        )
    return None


def may_change_invitation(*, invitation: StaffInvitation, user: AnyUser) -> Refusal | None:
    """Invite again or withdraw an invitation that is still open: an organiser of its
    tournament."""
    if refusal := may_appoint_staff(tournament=invitation.tournament, user=user):
        return refusal
    if invitation.accepted_at is not None or invitation.withdrawn_at is not None:
        return Refusal(
            _("This invitation has been accepted or withdrawn already."), field="invitation"
        )
    return None


def may_read_invitation_link(
    *, invitation: StaffInvitation, roles: Collection[str]
) -> Refusal | None:
    """Read an open invitation's link on the staff page, to pass it on where the site sends no
    mail: an organiser of its tournament (who may invite again or withdraw it,
    ``may_change_invitation``), while the link works. ``roles``: the reader's in the
    invitation's tournament. Once the link has run out, "Invite again" makes a new one."""
    if Role.ORGANISER not in roles:
        return Refusal(_("Only an organiser appoints the staff."))
    if invitation.accepted_at is not None or invitation.withdrawn_at is not None:
        return Refusal(
            _("This invitation has been accepted or withdrawn already."), field="invitation"
        )
    if invitation.expires_at <= timezone.now():
        return Refusal(
            _("The link has run out; “Invite again” makes a new one."), field="invitation"
        )
    return None


def may_accept_invitation(
    *, invitation: StaffInvitation, account: User | None, user: AnyUser
) -> Refusal | None:
    """Accept an invitation through its link and take up its role (TSR 8.2.1), while it works.
    ``account``: the account that has the invitation's address, if any. Then only that
    account accepts, logged in: a link, which an organiser may have seen, never opens an
    account or sets its password. An address without an account: whoever holds the link, who
    chooses the new account's password."""
    if refusal := _invitation_closed(invitation):
        return refusal
    if account is None:
        return None
    email = invitation.email.casefold()
    if user.is_authenticated and isinstance(user, User) and user.email.casefold() == email:
        return None
    return Refusal(
        _("An account has the address %(email)s: log in as that account to accept the invitation.")
        % {"email": invitation.email}
    )


def _offer_ask(offer: RoleOffer) -> dict[str, str]:
    by = offer.offered_by
    return {
        "by": by.get_full_name() or by.get_username(),
        "tournament": offer.tournament.name,
        "role": str(TournamentRole.Role(offer.role).label),
    }


def _offer_closed(offer: RoleOffer) -> Refusal | None:
    """Why an offer can no longer be answered (accepted, declined, withdrawn or replaced, run
    out), and whom to ask; None while it is open."""
    if offer.accepted_at is not None:
        return Refusal(
            _("This offer has been accepted already: you are %(role)s in %(tournament)s.")
            % _offer_ask(offer),
            field="offer",
        )
    if offer.declined_at is not None:
        return Refusal(
            _(
                "This offer has been declined. Should you want the role after all, ask %(by)s, "
                "who organises %(tournament)s, to offer it again."
            )
            % _offer_ask(offer),
            field="offer",
        )
    if offer.withdrawn_at is not None:
        return Refusal(
            _(
                "This offer has been withdrawn, or replaced by a newer one. Ask %(by)s, who "
                "organises %(tournament)s."
            )
            % _offer_ask(offer),
            field="offer",
        )
    if offer.expires_at <= timezone.now():
        return Refusal(
            _(
                "This offer has run out. Ask %(by)s, who organises %(tournament)s, to offer it "
                "again."
            )
            % _offer_ask(offer),
            field="offer",
        )
    return None


def may_answer_role_offer(*, offer: RoleOffer, user: AnyUser) -> Refusal | None:
    """Accept or decline a role offered by user name (TSR 8.2.1), while it is open: only the
    account it was offered to, logged in. Nobody takes up a role for another, and nobody is
    given one he has not accepted."""
    if not user.is_authenticated or offer.user_id is None or offer.user_id != user.pk:
        return Refusal(
            _(
                "This offer is for another account: log in as the account it was offered to, "
                "or ask %(by)s, who organises %(tournament)s."
            )
            % _offer_ask(offer)
        )
    return _offer_closed(offer)


def may_withdraw_role_offer(*, offer: RoleOffer, user: AnyUser) -> Refusal | None:
    """Withdraw a role offer not yet answered: an organiser of its tournament."""
    if refusal := may_appoint_staff(tournament=offer.tournament, user=user):
        return refusal
    if offer.answered:
        return Refusal(
            _("This offer has been accepted, declined or withdrawn already."), field="offer"
        )
    return None
