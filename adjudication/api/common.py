"""What the adjudication API's views share. Reading is for the tournament's organisers,
adjudicators, deputies and panel members, through their account (token or session): a scorekeeper
account, another account and a player's seat key are refused (403), so that a refused write shows
nothing either; a client without credentials is asked for them (401). A service's refusal comes back
as 403 with its reason, its rule check as 400 with the messages by field (``fields_as_sent``), each
naming the TSR section it rests on. Also here: the value lists and fields the serializers share, so
that the schema has one enum each, the responses every view documents, and ``Named``, which looks up
what a request names in the tournament.
"""

from collections.abc import Iterable
from contextlib import contextmanager
from typing import Any, ClassVar

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import exceptions, serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from adjudication import selectors
from adjudication.models import Offence, Sanction
from api_base.parsers import LimitedJSONParser
from doko.rules.contracts import SoloType
from doko.rules.penalty import Severity
from scoring.api.access import SEAT_KEY_HEADER
from tournaments import selectors as tournament_selectors
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import roles_of
from tournaments.roles import STAFF

# The same value lists as the rules and scoresheet APIs, so that the schema has one enum each.
SEVERITIES = [severity.value for severity in Severity]
SOLO_TYPES = [solo.value for solo in SoloType]
MOST_MINUTES = 120
MOST_TEXT = 2000


class _BlankAsNull(serializers.Field):
    """Shown as null where the record keeps an empty value (nothing ruled, no solo, not
    decided yet)."""

    def get_attribute(self, instance: Any) -> Any:
        return super().get_attribute(instance) or None


class NamedChoiceField(_BlankAsNull, serializers.ChoiceField):
    """A field of ``named_choices``: its class has the values to choose from."""

    values: ClassVar[list[str]]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=self.values, **kwargs)


def named_choices(component: str, choices: Iterable[object]) -> type[NamedChoiceField]:
    """A choice field whose values are a schema component of their own (several serializers
    name other choices ``status``, ``kind`` or ``action``); an empty value is shown as null."""
    enum = [str(value) for value in choices]

    @extend_schema_field({"type": "string", "enum": enum}, component_name=component)
    class Choices(NamedChoiceField):
        values = enum

    Choices.__name__ = f"{component}Field"
    return Choices


SanctionKindField = named_choices("SanctionKindEnum", Sanction.Kind.values)


class BlankAsNullChoiceField(_BlankAsNull, serializers.ChoiceField):
    pass


class BlankAsNullDictField(_BlankAsNull, serializers.DictField):
    pass


class StaffAccount(BasePermission):
    """An account; whether it is staff of the tournament is checked with the tournament. A
    seat's private key opens its table's scoresheet and nothing here."""

    def has_permission(self, request, view):
        if request.user.is_authenticated:
            return True
        if request.headers.get(SEAT_KEY_HEADER) is not None:
            # Raised here, not returned: without an account DRF would ask for one (401).
            raise exceptions.PermissionDenied(
                gettext("A seat's link opens its table's scoresheet only.")
            )
        return False


@contextmanager
def fields_as_sent(*, renamed: dict[str, str] | None = None, nested: str = "", inner=()):
    """A service's rule check (400) with its fields named as the request names them:
    ``renamed`` maps a service's field to the request's, and the fields in ``inner`` are
    reported inside ``nested`` (the panel's ruling in its decision on an appeal)."""
    try:
        yield
    except DjangoValidationError as error:
        if not hasattr(error, "error_dict"):
            raise
        renamed = {NON_FIELD_ERRORS: api_settings.NON_FIELD_ERRORS_KEY, **(renamed or {})}
        detail: dict = {}
        for field, messages in error.message_dict.items():
            if field in inner:
                detail.setdefault(nested, {})[field] = messages
            else:
                detail[renamed.get(field, field)] = messages
        raise exceptions.ValidationError(detail) from error


class AdjudicationAPIView(APIView):
    """The adjudication of one tournament, for its staff."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [StaffAccount]
    parser_classes = [LimitedJSONParser]

    def tournament(self) -> Tournament:
        """The tournament at the address, if the user is among its organisers, adjudicators
        and panel members (403 otherwise; 404 for a private tournament they cannot see)."""
        if not hasattr(self, "_tournament"):
            tournament = tournament_selectors.tournament_get(
                slug=self.kwargs["slug"], user=self.request.user
            )
            if not roles_of(self.request, tournament) & STAFF:
                raise PermissionDenied(
                    gettext(
                        "Only the tournament's organisers, adjudicators and arbitration panel "
                        "see its adjudication (TSR 8.2)."
                    )
                )
            self._tournament = tournament
        return self._tournament


TAGS = ["adjudication"]

READ_RESPONSES = {
    401: OpenApiResponse(description="No credentials"),
    403: OpenApiResponse(
        description="Not an organiser, adjudicator or panel member of the tournament, or a "
        "seat's key"
    ),
}
WRITE_RESPONSES = {
    400: OpenApiResponse(description="Refused by the rules, with the messages by field"),
    **READ_RESPONSES,
    403: OpenApiResponse(description="Not yours to do: the services say why"),
}


class Named:
    """What a request names by number, id or user name, looked up in the tournament; every
    name not found is collected, so that the client sees them all at once (400)."""

    def __init__(self, tournament: Tournament):
        self.tournament = tournament
        self.errors: dict[str, list[str]] = {}

    def missing(self, field: str, message: str) -> None:
        self.errors.setdefault(field, []).append(message)

    def users(self, field: str, usernames: list[str]) -> list:
        found = selectors.users_named(usernames=usernames)
        if missing := [name for name in usernames if name not in found]:
            self.missing(field, gettext("No such user: %(names)s.") % {"names": ", ".join(missing)})
        return [found[name] for name in dict.fromkeys(usernames) if name in found]

    def offence(self, pk: int | None) -> Offence | None:
        if pk is None:
            return None
        offence = selectors.offence_of(tournament=self.tournament, pk=pk)
        if offence is None:
            self.missing(
                "offence",
                gettext("There is no offence %(id)d in this tournament's catalogue.") % {"id": pk},
            )
        return offence

    def entry(self, start_number: int | None) -> Entry | None:
        if start_number is None:
            return None
        entry = self.tournament.entries.filter(start_number=start_number).first()
        if entry is None:
            self.missing(
                "start_number",
                gettext("No player has start number %(number)d.") % {"number": start_number},
            )
        return entry

    def round(self, number: int) -> Round | None:
        round_ = selectors.round_of(tournament=self.tournament, number=number)
        if round_ is None:
            self.missing("round", gettext("There is no round %(round)d.") % {"round": number})
        return round_

    def done(self, data: dict) -> dict:
        if self.errors:
            raise serializers.ValidationError(self.errors)
        return data
