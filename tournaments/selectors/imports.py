"""Reads of the lists of players kept between an import's preview and its confirm
(``ImportUpload``; ``tournaments.services.imports`` writes them)."""

import hashlib
import re
from datetime import timedelta

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone

from tournaments.models import ImportUpload, Tournament

IMPORT_KEPT = timedelta(hours=1)
# What ``services.import_upload_keep`` makes a key of (``secrets.token_urlsafe(32)``): anything
# else names no upload and never reaches the database (a NUL would be a DataError there).
KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def session_tag(session_key: str) -> str:
    """What an upload keeps of its uploader's session: a hash, not the key itself."""
    return hashlib.sha256(session_key.encode()).hexdigest()


def import_uploads_live() -> QuerySet[ImportUpload]:
    """The uploads not yet expired."""
    return ImportUpload.objects.filter(created_at__gte=timezone.now() - IMPORT_KEPT)


def import_upload_of(
    *, tournament: Tournament, user: User, session_key: str, key: str
) -> QuerySet[ImportUpload]:
    """The live upload under ``key``, if its uploader asks in the session it was made in."""
    if not KEY.fullmatch(key):
        return ImportUpload.objects.none()
    return import_uploads_live().filter(
        key=key, tournament=tournament, user=user, session=session_tag(session_key)
    )


def import_upload_data(
    *, tournament: Tournament, user: User, session_key: str, key: str
) -> bytes | None:
    """The file kept under ``key`` (see ``import_upload_of``); None when there is none."""
    data = (
        import_upload_of(tournament=tournament, user=user, session_key=session_key, key=key)
        .values_list("data", flat=True)
        .first()
    )
    return None if data is None else bytes(data)
