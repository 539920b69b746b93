"""The API's answer to a service's ``django.core.exceptions.ValidationError``: HTTP 400 with
every message by field, as for a serializer's errors. (DRF alone answers it with a 500.)"""

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(error, context):
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
