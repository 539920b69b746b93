"""For a lost phone: an administrator removes a person's second factor from the list of users
(one action, logged in the user's history), and the person logs in with the password alone and
sets up the new phone. django-otp's own lists (its authenticators and backup codes) show no
secret (``OTP_ADMIN_HIDE_SENSITIVE_DATA``)."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from config.second_factor import services

User = get_user_model()


@admin.action(description=_("Remove the second factor (a lost phone)"))
def second_factor_remove(modeladmin, request, queryset) -> None:
    people = 0
    for person in queryset:
        try:
            removed = services.second_factor_remove(person=person, by=request.user)
        except PermissionDenied as refusal:
            modeladmin.message_user(request, str(refusal), messages.ERROR)
            return
        if removed:
            people += 1
            modeladmin.log_change(request, person, str(_("Removed the second factor.")))
    modeladmin.message_user(
        request,
        ngettext(
            "Removed the second factor of %(count)d account: it logs in with its password "
            "alone now.",
            "Removed the second factor of %(count)d accounts: they log in with their "
            "passwords alone now.",
            people,
        )
        % {"count": people},
        messages.SUCCESS,
    )


class UserWithSecondFactorAdmin(UserAdmin):
    """Django's list and forms of users, with the action above."""

    actions = [second_factor_remove]


admin.site.unregister(User)
admin.site.register(User, UserWithSecondFactorAdmin)
