"""Who must have a second factor, and who may remove one."""

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from tournaments.policies import Refusal

# The permission that lets an administrator remove another person's second factor (django-otp's
# own, held by every superuser).
REMOVE_PERMISSION = "otp_totp.delete_totpdevice"


def may_work_without_second_factor(*, user: User | AnonymousUser) -> Refusal | None:
    """Log in, and work in the administration, with the password alone: every account, except
    the administration's (staff and superusers) where ``OTP_REQUIRED_FOR_ADMINS`` is on."""
    if not settings.OTP_REQUIRED_FOR_ADMINS:
        return None
    if not (getattr(user, "is_staff", False) or getattr(user, "is_superuser", False)):
        return None
    return Refusal(
        _(
            "Accounts that may use the administration need a second factor on this site. "
            "Set up an authenticator app on the page “Second factor”, then go on."
        )
    )


def may_remove_second_factor(*, actor: User | AnonymousUser, person: User) -> Refusal | None:
    """Remove ``person``'s second factor: he himself (with a code, which the service checks),
    or an administrator, for a lost phone."""
    if actor.is_authenticated and (actor.pk == person.pk or actor.has_perm(REMOVE_PERMISSION)):
        return None
    return Refusal(_("Only its owner or an administrator removes a second factor."))
