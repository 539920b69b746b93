"""The link that lets a person confirm, from the address on record, that a registration naming
her is hers (issue 44): mailed to that address only, never shown to whoever registered.

The link carries the registration, the person and the DDV number it was made for, signed with
``SECRET_KEY`` (``django.core.signing``), so that nobody makes one without the key and a link
made for one claim confirms no other; it works for ``CLAIM_LINK_DAYS`` days, and only while the
claim is still open (``services.claims``)."""

from dataclasses import dataclass

from django.core import signing

CLAIM_LINK_DAYS = 30
_SALT = "registration.claim_links"
# A signed link is some 80 characters; a longer one is no link of ours, and is not decoded.
_LONGEST = 200


@dataclass(frozen=True)
class ClaimLink:
    """What a claim link confirms: this registration is this person's (by this DDV number)."""

    registration_id: int
    person_id: int
    ddv_number: str


def claim_token(link: ClaimLink) -> str:
    """The signed token of a claim link, for its address (``/claims/<token>/``)."""
    return signing.dumps([link.registration_id, link.person_id, link.ddv_number], salt=_SALT)


def claim_token_read(token: str) -> ClaimLink | None:
    """What a token confirms; None for one that is made up, changed, too long or expired."""
    if not 0 < len(token) <= _LONGEST:
        return None
    try:
        value = signing.loads(token, salt=_SALT, max_age=CLAIM_LINK_DAYS * 24 * 3600)
    except (signing.BadSignature, ValueError, UnicodeError):
        return None
    match value:
        case [int(registration_id), int(person_id), str(ddv_number)]:
            return ClaimLink(registration_id, person_id, ddv_number)
    return None
