"""System checks of the settings the site cannot run well without."""

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Tags, register

from tournaments.mails import mail_leaves_the_server


@register(Tags.security)
def site_url_check(app_configs, **kwargs) -> list[Error]:
    """``SITE_URL`` is what every mail's links and host are made of (``tournaments.mails``): a
    site that sends mail in production must name it, and it must be an http(s) address."""
    if settings.SITE_URL:
        parts = urlsplit(settings.SITE_URL)
        if parts.scheme in {"http", "https"} and parts.hostname:
            return []
        return [
            Error(
                f"SITE_URL is not an http(s) address: {settings.SITE_URL!r}.",
                hint="Set it to the address the site is reached at, e.g. https://doko.example/.",
                id="tournaments.E002",
            )
        ]
    if settings.DEBUG or not mail_leaves_the_server():
        return []
    return [
        Error(
            "SITE_URL is not set, and this site sends e-mail: the links in its mails (password "
            "reset, invitations) would have no address to point to.",
            hint="Set SITE_URL to the address the site is reached at, e.g. https://doko.example/.",
            id="tournaments.E001",
        )
    ]
