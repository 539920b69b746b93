"""What a personal link (``/p/<key>/``) opens: the player's entry, or, before they have a
place, their registration on the waiting list (or cancelled)."""

from tournaments.models import Entry, Registration

KEY_LENGTH = 32  # Entry.link_key, Registration.key: 24 random bytes, URL-safe base64


def personal_link_find(*, key: str) -> Entry | Registration | None:
    """The entry whose personal link this is; else the registration not (yet) admitted that
    holds the key; None for a key that opens nothing (made up, or replaced)."""
    if not 0 < len(key) <= KEY_LENGTH:
        return None
    entry = Entry.objects.select_related("tournament").filter(link_key=key).first()
    if entry is not None:
        return entry
    return (
        Registration.objects.select_related("tournament")
        .filter(key=key)
        .exclude(state=Registration.State.ADMITTED)
        .first()
    )
