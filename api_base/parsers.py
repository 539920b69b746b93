"""The API's JSON parser: JSON that no field can hold is refused where it is parsed, with a 400
that names every field it is in, before any serializer, view or database sees it.

Valid JSON can still carry what no text or number of ours is: a lone surrogate (``"\\ud800"``,
which cannot be encoded, so neither stored nor written back in an answer), a NUL character
(which PostgreSQL refuses in text), and integers beyond 64 bits (which no database column holds).
Refusing them here, for keys and values at any depth, keeps every serializer field, every dict
of seats and every view that reads ``request.data`` from meeting them."""

import math

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers
from rest_framework.settings import api_settings

LARGEST = 2**63 - 1  # a signed 64-bit integer, the widest column any database here has
SURROGATE = _("This text holds a lone surrogate (a half of a character), which is no text.")
NUL = _("Null characters are not allowed.")
TOO_LARGE = _("This number is too large: a number here has at most 64 bits.")
NESTED = _("The JSON is nested too deeply.")


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = _("The request is too large.")
    default_code = "request_too_large"


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return str(NUL)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return str(SURROGATE)
    return None


def _value_problem(value: object) -> str | None:
    if isinstance(value, str):
        return _text_problem(value)
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and not -LARGEST - 1 <= value <= LARGEST:
        return str(TOO_LARGE)
    if isinstance(value, float) and not math.isfinite(value):
        return str(TOO_LARGE)
    return None


def problems(data: object) -> list[tuple[tuple[str, ...], str]]:
    """Every place in parsed JSON that no field can hold: (path of keys and list indexes, as
    text; the message). A bad key is a problem of the object that holds it."""
    found = []
    stack: list[tuple[object, tuple[str, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                problem = _text_problem(key)
                if problem is not None:
                    found.append((path, problem))
                else:
                    stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, str(index))) for index, item in enumerate(value))
        elif (problem := _value_problem(value)) is not None:
            found.append((path, problem))
    return sorted(found)


def error_detail(found: list[tuple[tuple[str, ...], str]]) -> dict:
    """The problems as DRF reports a serializer's errors: nested by field, a list of messages
    at each field (at the top of the body: ``non_field_errors``)."""
    detail: dict = {}
    for path, message in found:
        if not path:
            path = (api_settings.NON_FIELD_ERRORS_KEY,)
        node = detail
        for step in path[:-1]:
            node = node.setdefault(step, {})
            if not isinstance(node, dict):  # the object itself is refused already
                break
        else:
            messages = node.setdefault(path[-1], [])
            if isinstance(messages, list) and message not in messages:
                messages.append(message)
    return detail


class JSONParser(parsers.JSONParser):
    """JSON, refused (400, by field) where it holds a lone surrogate, a NUL character or an
    integer beyond 64 bits, or is nested deeper than Python reads."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise exceptions.ParseError(NESTED) from error
        found = problems(data)
        if found:
            raise exceptions.ValidationError(error_detail(found))
        return data


class LimitedJSONParser(JSONParser):
    """JSON, refused before parsing when larger than ``PUBLIC_API_MAX_BODY``."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.PUBLIC_API_MAX_BODY
        request = parser_context["request"]
        if int(request.META.get("CONTENT_LENGTH") or 0) > limit:
            raise RequestTooLarge()
        return super().parse(stream, media_type, parser_context)
