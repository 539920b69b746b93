"""The site's routes and one empty view: the baseline a page is measured against; the same view
reading the logged-in reader's session and account, the least any page of his costs; and the
empty view answering a number of bytes, for what an answer's size alone costs."""

import functools

from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_http_methods

from config.urls import urlpatterns as site


@require_http_methods(["GET", "POST"])
def empty(request):
    return HttpResponse("")


@require_http_methods(["GET"])
def user(request):
    """The empty view for a reader who is logged in: his session and account are read, as any
    page of his reads them, and nothing else."""
    return HttpResponse(request.user.get_username())


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


urlpatterns = [
    path("bench/empty/", empty),
    path("bench/user/", user),
    path("bench/bytes/<int:size>/", sized),
    *site,
]
