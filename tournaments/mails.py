"""The mails the site sends, and the one address they name: ``SITE_URL``.

A mail's links and the host it names (the reset mail's "A new password for …") are made from
``SITE_URL`` only, never from the address a request came in on: a request's Host header is the
client's to choose, and a forged one would put the attacker's host into a mail that the site
sends in its own name, with a password link on it. Without ``SITE_URL``, a local run (DEBUG, or
mails that do not leave the server) names this machine (``LOCAL_SITE_URL``); in production the
system check ``tournaments.E001`` refuses to start (``tournaments.checks``).
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

# What a local run (`make run`) serves.
LOCAL_SITE_URL = "http://localhost:8000/"


def mail_leaves_the_server() -> bool:
    """Whether sent e-mail reaches its address: not with the console backend (the default,
    which writes it to the server's output) or the dummy one."""
    return not settings.EMAIL_BACKEND.endswith(("console.EmailBackend", "dummy.EmailBackend"))


def mail_site_url() -> str:
    """The site's root address in mails, ending in ``/``: ``SITE_URL``, else ``LOCAL_SITE_URL``."""
    return (settings.SITE_URL or LOCAL_SITE_URL).rstrip("/") + "/"


def mail_host() -> str:
    """The site's name in mails: the host (and port) of ``mail_site_url``."""
    return urlsplit(mail_site_url()).netloc


def mail_link(path: str) -> str:
    """``path`` (as ``reverse`` gives it) as a link in a mail."""
    return mail_site_url() + path.lstrip("/")


def mail_send(
    *, to: str, subject_template: str, body_template: str, context: dict, language: str
) -> None:
    """Render a mail in ``language`` and send it to ``to``; the templates also get the site's
    name (``site_name``) and root address (``site_url``) from ``SITE_URL``."""
    context = {**context, "site_name": mail_host(), "site_url": mail_site_url()}
    with translation.override(language):
        subject = " ".join(render_to_string(subject_template, context).split())
        body = render_to_string(body_template, context)
    send_mail(subject, body, None, [to])
