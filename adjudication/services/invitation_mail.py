"""The mail of a staff invitation, sent after the answer (``staff.staff_invite`` queues it
through ``adjudication.tasks``): here, apart from the services that queue it, so that the task
and they do not import each other."""

import logging

from django.utils import translation

from adjudication.invitations import VALID_FOR, invitation_key_hash, invitation_key_path
from adjudication.models import StaffInvitation
from adjudication.selectors import invitation_account
from tournaments.mails import mail_link, mail_send
from tournaments.models import TournamentRole

logger = logging.getLogger(__name__)


def staff_invitation_mail(*, invitation_id: int, key: str, language: str) -> bool:
    """Mail an invitation's link to its address, after the answer (``staff_invite``): an
    address with an account is asked to log in and accept, a new one to choose a password. An
    invitation withdrawn or replaced meanwhile is not sent; whether it was."""
    invitation = (
        StaffInvitation.objects.filter(
            pk=invitation_id, accepted_at__isnull=True, withdrawn_at__isnull=True
        )
        .select_related("tournament", "invited_by")
        .first()
    )
    if invitation is None or invitation.key_hash != invitation_key_hash(key):
        return False
    has_account = invitation_account(invitation.email) is not None
    by = invitation.invited_by
    with translation.override(language):
        role = str(TournamentRole.Role(invitation.role).label)
    kind = "existing" if has_account else "new"
    try:
        mail_send(
            to=invitation.email,
            subject_template="registration/invitation_subject.txt",
            body_template=f"registration/invitation_email_{kind}.txt",
            context={
                "name": invitation.name,
                "by": by.get_full_name() or by.get_username(),
                "role": role,
                "tournament": invitation.tournament.name,
                "url": mail_link(invitation_key_path(key)),
                "days": VALID_FOR.days,
            },
            language=language,
        )
    except Exception:
        logger.exception("The invitation %s was not sent.", invitation.pk)
        return False
    return True
