"""Helpers shared by the API views of several sub-domains: an answer with an ETag, a 304 when
the client has that version; a choice field that refuses what it cannot echo."""

from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from rest_framework import serializers


def etag_response(request, etag: str, build) -> HttpResponse:
    """A 304 if the client has this version, else ``build()``'s JSON bytes, with the ETag."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(build(), content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


class ChoiceField(serializers.ChoiceField):
    """A choice; one that cannot be written back in the answer (a lone surrogate) is refused
    like any unknown choice, with the character escaped, instead of breaking the answer."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            try:
                data.encode("utf-8")
            except UnicodeEncodeError:
                self.fail("invalid_choice", input=data.encode("utf-8", "backslashreplace").decode())
        return super().to_internal_value(data)
