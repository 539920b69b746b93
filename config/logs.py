"""Logs without the seats' private keys.

A seat's link ``/s/<key>/`` opens that table's scoresheet to whoever has it, so the key must not
be written where more people read than the table: the access logs, and Django's warnings about
refused requests. Wherever such a path appears in a log line, as the request's path, in a
Referer, or in a ``next=`` parameter (also URL-encoded, ``%2Fs%2F<key>``), the key is written as
``…``: ``/s/…/check/``.

Used by the ``seat_keys`` filter of ``LOGGING`` (config/settings.py: Django's own server log and
its warnings about refused requests) and by gunicorn's access log (docker/gunicorn.conf.py). No
Django here: gunicorn's configuration imports it before Django starts.
"""

import logging
import re

# A seat link's path: ``/s/`` (or ``%2Fs%2F``) where a path starts (at the start, after a space,
# a quote, ``=`` or ``(``, or right after the host of a URL), then the key, up to the next
# ``/``, ``%2F``, ``?``, ``#``, ``&``, quote or space. A path that merely has a segment ``s``
# (a tournament called "s") is left alone.
SEAT_PATH = re.compile(
    r"""(?P<start>^|[\s"'=(]|//[^/\s"']*)"""
    r"(?P<prefix>(?:/|%2F)s(?:/|%2F))"
    r"""(?P<key>(?:(?!%2F)[^/\s?#&"'])+)""",
    re.IGNORECASE,
)
MASK = "…"


def mask_seat_keys(text: str) -> str:
    """``text`` with every seat link's key replaced by ``…``."""
    return SEAT_PATH.sub(lambda match: match["start"] + match["prefix"] + MASK, text)


def _masked(value: object) -> object:
    return mask_seat_keys(value) if isinstance(value, str) else value


class SeatKeyFilter(logging.Filter):
    """Masks the seats' keys in a log record's message and arguments, and in the text of its
    exception (a server error's traceback), and lets it pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _masked(record.msg)
        if isinstance(record.args, dict):
            record.args = {name: _masked(value) for name, value in record.args.items()}
        elif record.args:
            record.args = tuple(_masked(value) for value in record.args)
        if record.exc_info and not record.exc_text:
            # What every formatter writes for the exception: made once here, then masked.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_seat_keys(record.exc_text)
        return True
