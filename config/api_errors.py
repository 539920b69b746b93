"""The API's answers to Django's exceptions: a service's ``ValidationError`` is HTTP 400 with
every message by field, as for a serializer's errors (DRF alone answers it with a 500); an
``Http404`` is the site's own 404, in the reader's language (DRF would pass on its text, which
for ``get_object_or_404`` is Django's English "No TournamentRole matches the given query.",
naming a model). A deliberate message is raised as DRF's ``NotFound``, and kept."""

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler


def not_found_detail() -> str:
    """What the API says for an address that names nothing (a tournament, round, table, player
    or decision that does not exist, or that the reader may not see)."""
    return gettext(
        "Nothing was found at this address: check the tournament's short name and the numbers "
        "in it, or log in if it is not public."
    )


def exception_handler(error, context):
    if isinstance(error, Http404):
        error = exceptions.NotFound(not_found_detail())
    if isinstance(error, DjangoValidationError):
        if hasattr(error, "error_dict"):
            detail = {
                api_settings.NON_FIELD_ERRORS_KEY if field == NON_FIELD_ERRORS else field: messages
                for field, messages in error.message_dict.items()
            }
        else:
            detail = {api_settings.NON_FIELD_ERRORS_KEY: error.messages}
        error = exceptions.ValidationError(detail)
    return drf_exception_handler(error, context)
