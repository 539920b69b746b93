"""Appointing and dismissing the tournament's staff (TSR 8.2.1), offering a role by user name,
and inviting them by e-mail address. Nobody holds a role he has not accepted.

A role named by user name is offered (``RoleOffer``) and taken up once its account accepts it,
logged in (``role_offer_accept``); the organiser's answer is the same whether the name has an
account. Only the organiser himself takes a role at once (``staff_appoint``).

An invitation (``StaffInvitation``) is stored with a link, valid seven days, and mailed once the
answer has gone; it looks up no account and makes none, so that the organiser's answer is the
same, in the same time, for every address, and tells nobody who has an account on the site. The
person accepts through the link: an address with an account by logging in as it, a new one by
choosing a password (``staff_invitation_accept``). Where the site sends no mail the organiser is
given the link to pass on, for every address alike."""

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.invitations import (
    VALID_FOR,
    invitation_key_hash,
    invitation_key_of_seed,
    invitation_key_path,
    invitation_key_seed_new,
)
from adjudication.messages import Said, label_said, said
from adjudication.models import Event, RoleOffer, StaffInvitation
from adjudication.selectors import invitation_account, offer_account
from adjudication.services.common import Role, log_event
from doko.names import spelt_out
from tournaments.after_response import task_after_response
from tournaments.mails import mail_leaves_the_server
from tournaments.models import Entry, Tournament, TournamentRole
from tournaments.selectors import AnyUser
from tournaments.services.common import name_lock

# A person's name as the organiser writes it: first and last name fit the account's fields.
MOST_NAME = 150
MOST_EMAIL = 254
# Readable user names: the name's first 30 letters, spelt out ("hans.mueller").
MOST_USERNAME_BASE = 30


@dataclass(frozen=True)
class Invitation:
    """An invitation made; ``url``: its link for the organiser to pass on, where the site sends
    no mail (None where it does: then only the address gets it)."""

    invitation: StaffInvitation
    url: str | None


def _role_said(grant: TournamentRole, *, playing: bool = False) -> Said:
    """Who holds which role, for the log (read in each reader's language); ``playing``: and
    which player he is in this tournament, if he plays."""
    user = grant.user
    who = user.get_full_name() or user.get_username()
    role = label_said(TournamentRole.Role(grant.role).label)
    if playing and grant.entry is not None:
        return said(
            gettext_noop("%(user)s as %(role)s, plays as %(player)s"),
            user=who,
            role=role,
            player=grant.entry.name,
        )
    return said(gettext_noop("%(user)s as %(role)s"), user=who, role=role)


def _appoint(
    *,
    tournament: Tournament,
    user: User,
    role: TournamentRole.Role,
    entry: Entry | None,
    by: User,
    summary: str,
) -> TournamentRole:
    """Give ``user`` the role and log it; ``summary`` says how (a message id marked with
    ``gettext_noop``, "Appointed: %(grant)s"; it may name the account's ``%(username)s``)."""
    grant, created = TournamentRole.objects.select_for_update().get_or_create(
        tournament=tournament, user=user, role=role, defaults={"entry": entry}
    )
    if not created:
        grant.entry = entry
        grant.save(update_fields=["entry"])
    log_event(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(summary, grant=_role_said(grant, playing=True), username=user.get_username()),
        user=user.get_username(),
        role=role,
    )
    return grant


def _entry_check(tournament: Tournament, entry: Entry | None) -> None:
    if entry is not None and entry.tournament_id != tournament.pk:
        raise ValidationError({"entry": _("The player is not registered in this tournament.")})


@transaction.atomic
def role_grant(
    *,
    tournament: Tournament,
    user: User,
    role: TournamentRole.Role,
    entry: Entry | None = None,
    by: User,
) -> TournamentRole:
    """Give ``user`` a role at once (TSR 8.2.1): adjudicator, member of the arbitration panel,
    scorekeeper at the desk, organiser. ``entry``: the player he is in this tournament, if he
    plays (his table gets the panel's interruption back, 8.5.1). The pages and the API call it
    only for the organiser himself (``staff_appoint``): anyone else is offered the role
    (``role_offer``) and holds it once he accepts."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    _entry_check(tournament, entry)
    return _appoint(
        tournament=tournament,
        user=user,
        role=role,
        entry=entry,
        by=by,
        summary=gettext_noop("Appointed: %(grant)s"),
    )


@dataclass(frozen=True)
class Appointment:
    """What naming someone by user name did (``staff_appoint``): ``grant``, the role taken at
    once, when the name is the organiser's own; else ``offer``, the role offered, waiting for
    its account to accept it."""

    grant: TournamentRole | None = None
    offer: RoleOffer | None = None


@transaction.atomic
def staff_appoint(
    *,
    tournament: Tournament,
    username: str,
    role: TournamentRole.Role,
    entry: Entry | None = None,
    by: User,
) -> Appointment:
    """The organiser names a member of staff by user name (TSR 8.2.1): his own, and he takes
    the role at once (``role_grant``); anyone else's, and the role is offered to that account
    (``role_offer``), the same answer whether the name has one."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    username = _username_check(username)
    if username == by.get_username():
        grant = role_grant(tournament=tournament, user=by, role=role, entry=entry, by=by)
        return Appointment(grant=grant)
    offer = role_offer(tournament=tournament, username=username, role=role, entry=entry, by=by)
    return Appointment(offer=offer)


def _username_check(username: str) -> str:
    username = username.strip()
    if not username:
        raise ValidationError({"username": _("Give the person's user name.")})
    if len(username) > MOST_NAME or not _printable(username):
        raise ValidationError(
            {
                "username": _("Give a user name of at most %(most)d characters.")
                % {"most": MOST_NAME}
            }
        )
    return username


def _offer_said(offer: RoleOffer) -> Said:
    """To whom a role is offered and which, for the log: the user name as the organiser wrote
    it (whether it has an account is not said)."""
    role = label_said(TournamentRole.Role(offer.role).label)
    if offer.entry is not None:
        return said(
            gettext_noop("%(username)s as %(role)s, plays as %(player)s"),
            username=offer.username,
            role=role,
            player=offer.entry.name,
        )
    return said(gettext_noop("%(username)s as %(role)s"), username=offer.username, role=role)


def _open_offers(*, tournament: Tournament, username: str, role: str):
    return RoleOffer.objects.filter(
        tournament=tournament,
        username__iexact=username,
        role=role,
        accepted_at__isnull=True,
        declined_at__isnull=True,
        withdrawn_at__isnull=True,
    )


@transaction.atomic
def role_offer(
    *,
    tournament: Tournament,
    username: str,
    role: TournamentRole.Role,
    entry: Entry | None = None,
    by: User,
) -> RoleOffer:
    """Offer a role to the account of a user name (TSR 8.2.1), valid seven days: the role is
    its holder's once he accepts it, logged in (``role_offer_accept``). The offer, the answer
    and the queries are the same whether the name has an account: its account is looked up
    once either way and kept with the offer (None: nobody can accept it, and it runs out as
    any other). An earlier open offer of the name and role is withdrawn."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    username = _username_check(username)
    _entry_check(tournament, entry)
    return _offer_make(
        tournament=tournament,
        username=username,
        user=offer_account(username=username),
        role=role,
        entry=entry,
        by=by,
    )


@transaction.atomic
def role_offer_to(
    *,
    tournament: Tournament,
    user: User,
    role: str,
    entry: Entry | None = None,
    by: User,
) -> RoleOffer:
    """Offer a role to an account the organiser knows already: the staff of the tournament a
    new one was started from (``tournaments.staff_offers``), who take up their roles again
    once they accept."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    _entry_check(tournament, entry)
    return _offer_make(
        tournament=tournament,
        username=user.get_username(),
        user=user,
        role=role,
        entry=entry,
        by=by,
    )


class StaffOffers:
    """The answer to ``tournaments.staff_offers`` (registered in ``AdjudicationConfig``)."""

    def offer(
        self, *, tournament: Tournament, user: User, role: str, entry: Entry | None, by: User
    ) -> None:
        role_offer_to(tournament=tournament, user=user, role=role, entry=entry, by=by)


def _offer_make(
    *,
    tournament: Tournament,
    username: str,
    user: User | None,
    role: str,
    entry: Entry | None,
    by: User,
) -> RoleOffer:
    """Store an offer, valid seven days (an earlier open one of the name and role is
    withdrawn), and log it by the name as given."""
    now = timezone.now()
    _open_offers(tournament=tournament, username=username, role=role).update(withdrawn_at=now)
    offer = RoleOffer.objects.create(
        tournament=tournament,
        username=username,
        user=user,
        role=role,
        entry=entry,
        offered_by=by,
        created_at=now,
        expires_at=now + VALID_FOR,
    )
    log_event(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(gettext_noop("Offered: %(offer)s"), offer=_offer_said(offer)),
        user=username,
        role=role,
    )
    return offer


def _offer_locked(offer: RoleOffer) -> RoleOffer:
    return (
        RoleOffer.objects.select_for_update(of=("self",))
        .select_related("tournament", "offered_by", "entry", "user")
        .get(pk=offer.pk)
    )


@transaction.atomic
def role_offer_accept(*, offer: RoleOffer, by: AnyUser) -> TournamentRole:
    """The account a role was offered to accepts it, logged in, and takes it up (TSR
    8.2.1)."""
    offer = _offer_locked(offer)
    policies.enforce(policies.may_answer_role_offer(offer=offer, user=by))
    assert isinstance(by, User)  # the policy let only the offer's own account through
    offer.accepted_at = timezone.now()
    offer.save(update_fields=["accepted_at"])
    return _appoint(
        tournament=offer.tournament,
        user=by,
        role=TournamentRole.Role(offer.role),
        entry=offer.entry,
        by=by,
        summary=gettext_noop("Accepted (%(username)s): %(grant)s"),
    )


@transaction.atomic
def role_offer_decline(*, offer: RoleOffer, by: AnyUser) -> RoleOffer:
    """The account a role was offered to declines it: nothing is granted, and the log says
    so."""
    offer = _offer_locked(offer)
    policies.enforce(policies.may_answer_role_offer(offer=offer, user=by))
    assert isinstance(by, User)  # the policy let only the offer's own account through
    offer.declined_at = timezone.now()
    offer.save(update_fields=["declined_at"])
    log_event(
        offer.tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(
            gettext_noop("Declined (%(username)s): %(offer)s"),
            username=by.get_username(),
            offer=_offer_said(offer),
        ),
        user=by.get_username(),
        role=offer.role,
    )
    return offer


@transaction.atomic
def role_offer_withdraw(*, offer: RoleOffer, by: User) -> RoleOffer:
    """Withdraw a role offer not yet answered: it can no longer be accepted."""
    offer = _offer_locked(offer)
    policies.enforce(policies.may_withdraw_role_offer(offer=offer, user=by))
    offer.withdrawn_at = timezone.now()
    offer.save(update_fields=["withdrawn_at"])
    log_event(
        offer.tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(gettext_noop("Offer withdrawn: %(offer)s"), offer=_offer_said(offer)),
        user=offer.username,
        role=offer.role,
    )
    return offer


def _printable(text: str) -> bool:
    """No control characters, lone surrogates or private-use characters: what a name or an
    address is never made of, and what a database may refuse to store."""
    return not any(unicodedata.category(char) in {"Cc", "Cs", "Co"} for char in text)


def name_parts(name: str) -> tuple[str, str]:
    """First and last name of a name as written: "Hans Müller", "Müller, Hans" → ("Hans",
    "Müller"); the first word is the first name, the rest the last ("Anna von der Heide"). A
    single word is the last name."""
    if "," in name:
        last, first = (" ".join(part.split()) for part in name.split(",", 1))
        return first, last
    words = name.split()
    if len(words) == 1:
        return "", words[0]
    return words[0], " ".join(words[1:])


def username_base(*, first_name: str, last_name: str, email: str) -> str:
    """A user name one can read and type: the name spelt out ("hans.mueller" for Hans Müller,
    "jiri.dvorak" for Jiří Dvořák); for a name without Latin letters the e-mail address's user
    part; else "staff"."""
    for text in (f"{first_name} {last_name}", email.split("@")[0]):
        base = ".".join(re.findall(r"[a-z0-9]+", spelt_out(text)))[:MOST_USERNAME_BASE]
        if base := base.strip("."):
            return base
    return "staff"


def _usernames(base: str) -> Iterator[str]:
    yield base
    number = 2
    while True:
        yield f"{base}{number}"
        number += 1


def _account_create(*, first_name: str, last_name: str, email: str, password: str) -> User:
    """An account with ``password`` (checked by the site's password validators, as field
    ``password``), under the first free user name of ``username_base`` (whatever its case:
    "Hans.Mueller" is taken when "hans.mueller" is)."""
    base = username_base(first_name=first_name, last_name=last_name, email=email)
    person = User(username=base, first_name=first_name, last_name=last_name, email=email)
    try:
        password_validation.validate_password(password, person)
    except ValidationError as error:
        raise ValidationError({"password": error.messages}) from error
    for _attempt in range(5):
        taken = {
            name.casefold()
            for name in User.objects.filter(username__istartswith=base).values_list(
                "username", flat=True
            )
        }
        username = next(name for name in _usernames(base) if name not in taken)
        user = User(username=username, first_name=first_name, last_name=last_name, email=email)
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:  # another account took the name in between: the next one
            continue
        return user
    raise ValidationError(
        {"name": _("No user name could be made for this name. Please try again.")}
    )


def _person_check(name: str, email: str) -> tuple[str, str]:
    """The name (spaces tidied) and the e-mail address, or the errors of both. Whether an
    account has the address is not asked: the answer must be the same for every address."""
    errors: dict[str, str] = {}
    name = " ".join(name.split())
    if not name:
        errors["name"] = _("Give the person's name.")
    elif len(name) > MOST_NAME or not _printable(name):
        errors["name"] = _("Give a name of at most %(most)d letters.") % {"most": MOST_NAME}
    email = User.objects.normalize_email(email.strip())
    try:
        if len(email) > MOST_EMAIL or not _printable(email):
            raise ValidationError("")
        validate_email(email)
    except ValidationError:
        errors["email"] = _("Enter a valid e-mail address.")
    if errors:
        raise ValidationError(errors)
    return name, email


def _invitation_said(invitation: StaffInvitation) -> Said:
    """Whom an invitation is for and as what, for the log: the name and address as the
    organiser wrote them (no account is named: none is looked up)."""
    role = label_said(TournamentRole.Role(invitation.role).label)
    if invitation.entry is not None:
        return said(
            gettext_noop("%(name)s <%(email)s> as %(role)s, plays as %(player)s"),
            name=invitation.name,
            email=invitation.email,
            role=role,
            player=str(invitation.entry.player),
        )
    return said(
        gettext_noop("%(name)s <%(email)s> as %(role)s"),
        name=invitation.name,
        email=invitation.email,
        role=role,
    )


def _open_invitations(*, tournament: Tournament, email: str, role: str):
    return StaffInvitation.objects.filter(
        tournament=tournament,
        email__iexact=email,
        role=role,
        accepted_at__isnull=True,
        withdrawn_at__isnull=True,
    )


def _invitation_make(
    *,
    tournament: Tournament,
    name: str,
    email: str,
    role: str,
    entry: Entry | None,
    address: Callable[[str], str],
    by: User,
) -> Invitation:
    """Store an invitation with a fresh key (an earlier open one of the address and role is
    withdrawn: one is open at a time), and send its mail once the answer has gone."""
    now = timezone.now()
    _open_invitations(tournament=tournament, email=email, role=role).update(withdrawn_at=now)
    seed = invitation_key_seed_new()
    key = invitation_key_of_seed(seed)
    invitation = StaffInvitation.objects.create(
        tournament=tournament,
        name=name,
        email=email,
        role=role,
        entry=entry,
        invited_by=by,
        key_hash=invitation_key_hash(key),
        key_seed=seed,
        created_at=now,
        expires_at=now + VALID_FOR,
    )
    language = translation.get_language() or settings.LANGUAGE_CODE
    transaction.on_commit(partial(_mail_queue, invitation.pk, key, language))
    # Where mail leaves the server the link goes to the address only: the organiser who
    # opened it would learn whether the address has an account.
    url = None if mail_leaves_the_server() else address(invitation_key_path(key))
    return Invitation(invitation=invitation, url=url)


def _mail_queue(invitation_id: int, key: str, language: str) -> None:
    from adjudication.tasks import staff_invitation_mail_task

    task_after_response(staff_invitation_mail_task, invitation_id, key, language)


@transaction.atomic
def staff_invite(
    *,
    tournament: Tournament,
    name: str,
    email: str,
    role: TournamentRole.Role,
    entry: Entry | None = None,
    address: Callable[[str], str],
    by: User,
) -> Invitation:
    """The organiser invites someone by name and e-mail address (TSR 8.2.1): an invitation
    with a link, valid seven days, mailed to the address once the answer has gone
    (``staff_invitation_mail``). No account is looked up or made here, so that the answer is
    the same for every address; the person accepts through the link
    (``staff_invitation_accept``). ``address`` makes a path a link the organiser can pass on
    (``tournaments.site.absolute_url`` with the request), given where mail does not leave the
    server."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    name, email = _person_check(name, email)
    _entry_check(tournament, entry)
    made = _invitation_make(
        tournament=tournament,
        name=name,
        email=email,
        role=role,
        entry=entry,
        address=address,
        by=by,
    )
    log_event(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(
            gettext_noop("Invited: %(invitation)s"), invitation=_invitation_said(made.invitation)
        ),
        email=email,
        role=role,
    )
    return made


def _invitation_locked(invitation: StaffInvitation) -> StaffInvitation:
    return (
        StaffInvitation.objects.select_for_update(of=("self",))
        .select_related("tournament", "invited_by", "entry")
        .get(pk=invitation.pk)
    )


@transaction.atomic
def staff_invite_again(
    *, invitation: StaffInvitation, address: Callable[[str], str], by: User
) -> Invitation:
    """A fresh invitation for an open one (the mail was lost, or the link has run out): the
    earlier link stops working, and the new one is mailed as the first was."""
    invitation = _invitation_locked(invitation)
    policies.enforce(policies.may_change_invitation(invitation=invitation, user=by))
    made = _invitation_make(
        tournament=invitation.tournament,
        name=invitation.name,
        email=invitation.email,
        role=invitation.role,
        entry=invitation.entry,
        address=address,
        by=by,
    )
    log_event(
        invitation.tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(
            gettext_noop("Invited again: %(invitation)s"), invitation=_invitation_said(invitation)
        ),
        email=invitation.email,
        role=invitation.role,
    )
    return made


@transaction.atomic
def staff_invitation_withdraw(*, invitation: StaffInvitation, by: User) -> StaffInvitation:
    """Withdraw an open invitation: its link then says so, and who to ask."""
    invitation = _invitation_locked(invitation)
    policies.enforce(policies.may_change_invitation(invitation=invitation, user=by))
    invitation.withdrawn_at = timezone.now()
    invitation.save(update_fields=["withdrawn_at"])
    log_event(
        invitation.tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(
            gettext_noop("Invitation withdrawn: %(invitation)s"),
            invitation=_invitation_said(invitation),
        ),
        email=invitation.email,
        role=invitation.role,
    )
    return invitation


@transaction.atomic
def staff_invitation_accept(
    *, invitation: StaffInvitation, by: AnyUser, password: str = ""
) -> TournamentRole:
    """Accept an invitation through its link and take up the role (TSR 8.2.1). An address with
    an account accepts as that account, logged in (``by``); the link never opens it or sets
    its password. An address without one gets its account here, with ``password``, under a
    user name made from the name (``username_base``). One account per address: an acceptance
    of the same address in a parallel request waits here (``name_lock``) and then finds it."""
    invitation = _invitation_locked(invitation)
    name_lock("user-email", invitation.email.casefold())
    account = invitation_account(invitation.email)
    policies.enforce(
        policies.may_accept_invitation(invitation=invitation, account=account, user=by)
    )
    if account is None:
        first_name, last_name = name_parts(invitation.name)
        account = _account_create(
            first_name=first_name, last_name=last_name, email=invitation.email, password=password
        )
        summary = gettext_noop("Accepted with a new account (%(username)s): %(grant)s")
    else:
        assert isinstance(by, User)  # the policy let only the account itself through
        account = by
        summary = gettext_noop("Accepted (%(username)s): %(grant)s")
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = account
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return _appoint(
        tournament=invitation.tournament,
        user=account,
        role=TournamentRole.Role(invitation.role),
        entry=invitation.entry,
        by=account,
        summary=summary,
    )


@transaction.atomic
def role_revoke(*, grant: TournamentRole, by: User) -> None:
    """Take a role back; a tournament keeps at least one organiser."""
    grant = (
        TournamentRole.objects.select_for_update()
        .select_related("user", "tournament")
        .get(pk=grant.pk)
    )
    tournament = grant.tournament
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    if (
        grant.role == Role.ORGANISER
        and not tournament.roles.filter(role=Role.ORGANISER).exclude(pk=grant.pk).exists()
    ):
        raise ValidationError({"role": _("The tournament keeps at least one organiser.")})
    log_event(
        tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(gettext_noop("No longer: %(grant)s"), grant=_role_said(grant)),
        user=grant.user.get_username(),
        role=grant.role,
    )
    grant.delete()
