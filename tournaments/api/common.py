"""Helpers shared by the API views of several sub-domains: an answer with an ETag, a 304 when
the client has that version. (Text no field can hold, such as a lone surrogate, is refused by
the API's JSON parser, api_base/parsers.py.)"""

from django.http import HttpResponse
from django.utils.cache import get_conditional_response


def etag_response(request, etag: str, build) -> HttpResponse:
    """A 304 if the client has this version, else ``build()``'s JSON bytes, with the ETag."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(build(), content_type="application/json")
    # A new response: its headers are set rather than patched.
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
