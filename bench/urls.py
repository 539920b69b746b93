"""The site's routes and one empty view: the baseline a page is measured against; the same view
reading the logged-in reader's session and account, the least any page of his costs; the
empty view answering a number of bytes, for what an answer's size alone costs; and the least a
write to a scoresheet costs, through a seat's link or a logged-in session (``bench.writes``)."""

import functools

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
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


def _sheet_write(sheet_id: int) -> HttpResponse:
    """The scoresheet's row read (locked, as every write locks it) and one row written, in a
    transaction."""
    from django.utils import timezone

    from scoring.models import Scoresheet

    with transaction.atomic():
        sheet = Scoresheet.objects.select_for_update(of=("self",)).get(pk=sheet_id)
        Scoresheet.objects.filter(pk=sheet.pk).update(updated_at=timezone.now())
    return HttpResponse("")


@require_http_methods(["POST"])
def seat_write(request, token: str):
    """The least a write through a seat's private link costs: the key looked up and counted
    against the link's limit as every write through it is (``scoring.links``), the sheet's row
    read and one row written in a transaction."""
    from scoring import links

    seat = links.seat_for_key(request, token)
    if seat is None:
        raise Http404
    return _sheet_write(seat.table.scoresheet.pk)


@require_http_methods(["POST"])
def user_write(request, sheet: int):
    """The least a write of the desk's costs: the logged-in session and account read, the
    sheet's row read and one row written in a transaction."""
    if not request.user.is_authenticated:
        raise PermissionDenied
    return _sheet_write(sheet)


urlpatterns = [
    path("bench/seat-write/<str:token>/", seat_write),
    path("bench/user-write/<num:sheet>/", user_write),
    path("bench/empty/", empty),
    path("bench/user/", user),
    path("bench/bytes/<num:size>/", sized),
    *site,
]
