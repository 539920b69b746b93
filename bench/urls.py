"""The site's routes and one empty view: the baseline a page is measured against; and the
same view answering a number of bytes, for what an answer's size alone costs."""

import functools

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_http_methods

from config.urls import urlpatterns as site


@require_http_methods(["GET", "POST"])
def empty(request):
    return HttpResponse("")


@functools.cache
def _bytes(size: int) -> bytes:
    return b" " * min(size, 1 << 20)


@require_http_methods(["GET"])
def sized(request, size: int):
    """The empty view, answering ``size`` bytes (at most 1 MB) kept in memory, with an ETag as
    the standings have theirs (else ConditionalGetMiddleware would hash the bytes)."""
    return HttpResponse(
        _bytes(size), content_type="application/octet-stream", headers={"ETag": f'"{size}"'}
    )


urlpatterns = [path("bench/empty/", empty), path("bench/bytes/<int:size>/", sized), *site]
