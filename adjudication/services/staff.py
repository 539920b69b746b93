"""Appointing and dismissing the tournament's staff (TSR 8.2.1), and inviting those who have no
account yet: the organiser names them and their e-mail address, an account without a password is
made, and a one-time link (``adjudication.invitations``, valid seven days) lets them set their
own. The link is shown to the organiser to pass on and sent to the address."""

import logging
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.invitations import VALID_FOR, invitation_path
from adjudication.messages import Said, label_said, said
from adjudication.models import (
    Event,
)
from adjudication.services.common import Role, log_event
from doko.names import spelt_out
from tournaments.mails import mail_link, mail_send
from tournaments.models import Entry, Tournament, TournamentRole
from tournaments.services.common import name_lock

logger = logging.getLogger(__name__)

# A person's name as the organiser writes it: first and last name fit the account's fields.
MOST_NAME = 150
MOST_EMAIL = 254
# Readable user names: the name's first 30 letters, spelt out ("hans.mueller").
MOST_USERNAME_BASE = 30


@dataclass(frozen=True)
class Invitation:
    """A role given to someone who sets his password through ``url`` (valid
    ``adjudication.invitations.VALID_FOR``, once); ``mailed``: the link was sent to the
    account's e-mail address as well."""

    grant: TournamentRole
    url: str
    mailed: bool


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
    """The organiser appoints staff (TSR 8.2.1): adjudicators, members of the arbitration panel
    (usually three), scorekeepers at the desk, other organisers. ``entry``: the player they are
    in this tournament, if they play (their table gets the panel's interruption back, 8.5.1)."""
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


def _account_create(*, first_name: str, last_name: str, email: str) -> User:
    """An account without a password, under the first free user name of ``username_base``
    (whatever its case: "Hans.Mueller" is taken when "hans.mueller" is)."""
    base = username_base(first_name=first_name, last_name=last_name, email=email)
    for _attempt in range(5):
        taken = {
            name.casefold()
            for name in User.objects.filter(username__istartswith=base).values_list(
                "username", flat=True
            )
        }
        username = next(name for name in _usernames(base) if name not in taken)
        user = User(username=username, first_name=first_name, last_name=last_name, email=email)
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:  # another invitation took the name in between: the next one
            continue
        return user
    raise ValidationError(
        {"name": _("No user name could be made for this name. Please try again.")}
    )


def _person_check(name: str, email: str) -> tuple[str, str]:
    """The name (spaces tidied) and the e-mail address, or the errors of both."""
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
    else:
        # One account per address: an invitation of the same address in a parallel request
        # waits here until this one is committed, and then finds its account.
        name_lock("user-email", email.casefold())
        if User.objects.filter(email__iexact=email).exists():
            errors["email"] = _(
                "An account with this e-mail address exists already: appoint it by its user "
                "name, or find it by name."
            )
    if errors:
        raise ValidationError(errors)
    return name, email


def _mail_queue(*, grant: TournamentRole, path: str, by: User) -> None:
    """Send the link to ``path`` (made from ``SITE_URL``, as every mail's) to the account's
    address once the transaction is committed, in the language of the page it was made on; a
    mail that fails is logged (the organiser has the link on his page)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    user = grant.user

    def send() -> None:
        with translation.override(language):
            role = str(grant.get_role_display())
        context = {
            "name": user.get_full_name() or user.get_username(),
            "username": user.get_username(),
            "by": by.get_full_name() or by.get_username(),
            "role": role,
            "tournament": grant.tournament.name,
            "url": mail_link(path),
            "days": VALID_FOR.days,
        }
        try:
            mail_send(
                to=user.email,
                subject_template="registration/invitation_subject.txt",
                body_template="registration/invitation_email.txt",
                context=context,
                language=language,
            )
        except Exception:
            logger.exception("The invitation to user %s was not sent.", user.pk)

    transaction.on_commit(send)


def _invitation(*, grant: TournamentRole, address: Callable[[str], str], by: User) -> Invitation:
    path = invitation_path(grant.user)
    url = address(path)
    mailed = bool(grant.user.email)
    if mailed:
        _mail_queue(grant=grant, path=path, by=by)
    return Invitation(grant=grant, url=url, mailed=mailed)


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
    """The organiser appoints someone who has no account yet (TSR 8.2.1): an account for
    ``name`` and ``email`` without a password, under a readable user name, with the role, and
    a link where the person sets a password, sent to ``email``. ``address`` makes a path a link
    the person can open (``tournaments.site.absolute_url`` with the request)."""
    policies.enforce(policies.may_appoint_staff(tournament=tournament, user=by))
    name, email = _person_check(name, email)
    _entry_check(tournament, entry)
    first_name, last_name = name_parts(name)
    user = _account_create(first_name=first_name, last_name=last_name, email=email)
    grant = _appoint(
        tournament=tournament,
        user=user,
        role=role,
        entry=entry,
        by=by,
        summary=gettext_noop("Invited with a new account (%(username)s): %(grant)s"),
    )
    return _invitation(grant=grant, address=address, by=by)


@transaction.atomic
def staff_invite_again(
    *, grant: TournamentRole, address: Callable[[str], str], by: User
) -> Invitation:
    """A fresh invitation link for a member of staff who has not set a password yet (the first
    was lost, or has run out): every earlier link of the account stops working."""
    grant = (
        TournamentRole.objects.select_for_update()
        .select_related("user", "tournament")
        .get(pk=grant.pk)
    )
    policies.enforce(policies.may_invite_again(grant=grant, user=by))
    user = grant.user
    user.set_unusable_password()  # a new hash: the earlier links' tokens no longer match
    user.save(update_fields=["password"])
    log_event(
        grant.tournament,
        by=by,
        action=Event.Action.ROLE,
        summary=said(gettext_noop("Invited again: %(grant)s"), grant=_role_said(grant)),
        user=user.get_username(),
        role=grant.role,
    )
    return _invitation(grant=grant, address=address, by=by)


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
