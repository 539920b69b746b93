"""Switching the language by a plain link.

Django's ``set_language`` wants a POST with a CSRF token, so every page carrying its form would
set a CSRF cookie and differ per reader. A link keeps the public pages the same for every phone,
so that they can be cached whole. Choosing the language is harmless to trigger from elsewhere:
it only sets the reader's language cookie.
"""

from typing import Literal, cast

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET

_SameSite = Literal["Lax", "Strict", "None"] | None


@require_GET
def language_switch(request: HttpRequest, code: str) -> HttpResponseRedirect:
    """Remember ``code`` as the reader's language and go back to ``next`` (on this site)."""
    if code not in dict(settings.LANGUAGES):
        raise Http404
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        # The stubs type the setting as any string; ours is "Lax" (config/settings.py).
        samesite=cast(_SameSite, settings.LANGUAGE_COOKIE_SAMESITE),
    )
    return response
