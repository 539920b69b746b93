"""Django's administration, opened only to a session that gave its second factor where the
account must have one (``policies.may_work_without_second_factor``). A session that did not (it
began before the setting was on, or before the account was made staff) is led by the
administration's login page (``config.login.admin_login``) to set one up, or to log in again
with its code."""

from django.contrib import admin

from config.second_factor import policies, selectors


class AdminSite(admin.AdminSite):
    def has_permission(self, request) -> bool:
        if not super().has_permission(request):
            return False
        return policies.may_work_without_second_factor(
            user=request.user
        ) is None or selectors.session_verified(session=request.session, user=request.user)
