"""Writes for a list of players between its preview and its import: the uploaded file is kept
in the database (``ImportUpload``) and the confirm names it by a random key.

Why the database: the preview and the confirm may reach different web processes (gunicorn
runs several) or containers; without Redis the cache is each process's own memory, and a file
under ``MEDIA_ROOT`` needs a volume every web container shares and a sweeper for files left
behind. A row is shared by every process, is claimed and deleted in the import's own
transaction (a double click imports once), and goes with its tournament or user. Each
uploader keeps at most one per tournament, for an hour.
"""

import secrets

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import ImportUpload, Tournament
from tournaments.selectors.imports import IMPORT_KEPT, import_upload_of, session_tag
from tournaments.services.players import Imported, players_import
from tournaments.services.tournaments import tournament_tables_of_five_allow

__all__ = [
    "IMPORT_KEPT",
    "import_upload_discard",
    "import_upload_keep",
    "players_import_confirm",
    "players_import_confirm_at_tables_of_five",
]


@transaction.atomic
def import_upload_keep(*, tournament: Tournament, user: User, session_key: str, data: bytes) -> str:
    """Keep a checked list of players until its uploader confirms it; return the key the
    confirm posts. It replaces the uploader's list kept before for this tournament, and the
    expired uploads of everyone are removed."""
    ImportUpload.objects.filter(created_at__lt=timezone.now() - IMPORT_KEPT).delete()
    key = secrets.token_urlsafe(32)
    ImportUpload.objects.update_or_create(
        tournament=tournament,
        user=user,
        defaults={
            "key": key,
            "session": session_tag(session_key),
            "data": data,
            "created_at": timezone.now(),
        },
    )
    return key


@transaction.atomic
def import_upload_discard(*, tournament: Tournament, user: User) -> None:
    """Forget the uploader's kept list for this tournament, if any (a file that failed its
    check replaces it)."""
    ImportUpload.objects.filter(tournament=tournament, user=user).delete()


@transaction.atomic
def players_import_confirm(
    *, tournament: Tournament, user: User, session_key: str, key: str
) -> Imported:
    """Register every player of the list kept under ``key`` (``players_import``), or none, and
    remove it. Only its uploader confirms it, in the session that saw the preview, within
    ``IMPORT_KEPT``; when the import is refused the list stays until it expires or is
    replaced."""
    upload = (
        import_upload_of(tournament=tournament, user=user, session_key=session_key, key=key)
        .select_for_update()
        .first()
    )
    if upload is None:
        raise ValidationError(
            {
                "key": _(
                    "This upload is no longer kept: a list is kept for an hour after its "
                    "preview, until it is imported, or until another file is uploaded. Upload "
                    "the file again."
                )
            }
        )
    data = bytes(upload.data)
    upload.delete()
    return players_import(tournament=tournament, data=data)


@transaction.atomic
def players_import_confirm_at_tables_of_five(
    *, tournament: Tournament, user: User, session_key: str, key: str
) -> Imported:
    """Late entries by a list that fit in only at tables of five (TSR 8.3.1, 10): allow tables
    of five (the organiser's decision, ``tournament_tables_of_five_allow``) and import the
    list (``players_import_confirm``), both or neither."""
    tournament_tables_of_five_allow(tournament=tournament, by=user)
    return players_import_confirm(
        tournament=tournament, user=user, session_key=session_key, key=key
    )
