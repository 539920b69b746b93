"""Template helpers for the round clock, the venue screen, the QR codes of links, whether the
reader checks players in, points with their sign, the boxes the apps above add to a
round's page (``tournaments.round_page``), and the doors to their pages (``tournaments.doors``)."""

from typing import TYPE_CHECKING

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from tournaments import doors, mails, policies, qr, round_page
from tournaments.models import Round, Tournament
from tournaments.page_boxes import boxes as page_boxes_of
from tournaments.permissions import roles_of

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a str or a lazy translation

register = template.Library()


@register.simple_tag
def door(name: str, *args: object) -> doors.Opened | None:
    """The door ``name`` of ``tournaments.doors`` with its address for ``args``, to link to:
    ``{% door "table" slug 1 3 as table %}{% if table %}<a href="{{ table.url }}">…``; None
    (no link) when no app above registered it."""
    return doors.opened(name, *args)


@register.simple_tag
def status_badge(status: str, label: "StrOrPromise") -> SafeString:
    """A status as a badge: running green, finished or closed grey, seated blue, any other
    light (a tournament's, a round's, a table's or a scoresheet's)."""
    colour = _BADGE_COLOURS.get(status, "text-bg-light border")
    return mark_safe(f'<span class="badge {colour}">{conditional_escape(label)}</span>')


_BADGE_COLOURS = {
    "running": "text-bg-success",
    "finished": "text-bg-secondary",
    "closed": "text-bg-secondary",
    "seated": "text-bg-info",
}


@register.simple_tag
def site_sends_mail() -> bool:
    """Whether this site's mail reaches its addresses (``mails.mail_leaves_the_server``): a
    page promises a mail only then."""
    return mails.mail_leaves_the_server()


@register.simple_tag
def qr_svg(url: str, labelled_by: str, size: int = 160) -> str:
    """A QR code of ``url`` as inline SVG, ``size`` pixels wide, named by the element of id
    ``labelled_by``."""
    # Safe: the SVG holds only numbers made from the URL's bits, none of its text, and the
    # label's id escaped.
    return mark_safe(qr.svg(qr.qr_rows(url), int(size), labelled_by=str(labelled_by)))


@register.filter
def clock_format(seconds: int | None) -> str:
    """Seconds as the clock shows them: 1:05:09, or 05:09 under an hour."""
    if seconds is None:
        return "–"
    hours, rest = divmod(max(int(seconds), 0), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


@register.filter
def signed(value: int | None) -> str:
    """Points with their sign: +3, −12, and nothing for 0 or None."""
    if not value:
        return ""
    return f"+{value}" if value > 0 else f"−{-value}"


@register.filter
def get_points(points: dict[int, int], seat: int) -> int | None:
    """A seat's entry of a mapping of points by seat."""
    return points.get(seat)


@register.filter
def paged(items, size: int) -> list:
    """``items`` in pages of ``size`` (the venue screen turns its pages)."""
    items = list(items)
    return [items[start : start + int(size)] for start in range(0, len(items), int(size))]


def _checks_in(context: template.Context, tournament: Tournament) -> bool:
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return False
    refusal = policies.may_check_in(tournament=tournament, roles=roles_of(request, tournament))
    return refusal is None or refusal.field is not None


@register.simple_tag(takes_context=True)
def checks_in(context: template.Context, tournament: Tournament) -> bool:
    """Whether the reader checks players in at the door (``policies.may_check_in``): he is
    shown who has arrived; the public is not."""
    return _checks_in(context, tournament)


@register.simple_tag(takes_context=True)
def page_boxes(context: template.Context, place: str, **objects: object) -> str:
    """The boxes the apps above add to a page at ``place`` (``tournaments.page_boxes``), in
    order; ``objects`` are what the place gives them (``tournament=…``, ``player=…``)."""
    # Safe: each box is made by its app's template, which escapes what it shows.
    return mark_safe(
        "".join(box.render(context=context, **objects) for box in page_boxes_of(place))
    )


@register.simple_tag(takes_context=True)
def round_boxes(context: template.Context, place: str, round: Round, tournament: Tournament) -> str:
    """The boxes the apps above add to a round's page at ``place`` (``tournaments.round_page``),
    in order."""
    # Safe: each box is made by its app's template, which escapes what it shows.
    return mark_safe(
        "".join(
            box.render(context=context, round=round, tournament=tournament)
            for box in round_page.boxes(place)
        )
    )
