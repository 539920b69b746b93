"""A table's public page's parts that change while the round is played, put into words in
Python: its sheet, its players with their points, and the sheet's state. The page
(``scoring/table.html``) shows them, and its refresh (``tables.table_live``) is made of them
alone, once per version of the table for every phone at it, most often after each hand saved
(``tables.table_live_prepare``). As templates they cost the processor as much as the save that
changed them (issue 45); the decisions of the adjudicator, on few sheets, stay a template
(``scoring/partials/table_decisions.html``).

The words are the templates' were, with the same msgids (German first): a ``blocktranslate``'s
own words are not escaped, only its values; a ``translate``'s are. Each part comes out as its
template wrote it, byte for byte (tests/scoring/test_table_parts.py)."""

from collections.abc import Mapping

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.models import Scoresheet
from scoring.views.sheet_rows import next_hand_words
from tournaments.templatetags.tournament_tags import signed, status_badge


def _out_of_band(oob: bool) -> str:
    return ' hx-swap-oob="true"' if oob else ""


def table_status(sheet: Scoresheet | None, *, oob: bool = False) -> SafeString:
    """The sheet's status as a badge, beside the page's heading."""
    badge = status_badge(sheet.status, sheet.get_status_display()) if sheet is not None else ""
    return mark_safe(f'<span id="table-status"{_out_of_band(oob)}>{badge}</span>\n')


def table_seats(context: Mapping, *, oob: bool = False) -> SafeString:
    """The table's players in seat order, who deals first and who keeps the sheet (TSR 3.1.1),
    and each one's points so far unless the standings are hidden."""
    keeper = context.get("keeper")
    show_points = context.get("show_points")
    deals_first = escape(_("deals first"))
    keeps = escape(_("keeps the sheet"))
    out = [
        f'<ol id="table-seats" class="list-group list-group-numbered mb-4"{_out_of_band(oob)}>\n  '
    ]
    for seat in context["row"].seats:
        entry = seat.entry
        club = f", {escape(entry.club)}" if entry.club else ""
        out.append(
            '\n  <li class="list-group-item d-flex gap-2">\n'
            f'    <span class="me-auto">{escape(entry.name)} '
            f'<span class="text-body-secondary small">({entry.start_number}{club})</span>\n    '
        )
        if seat.position == 1:
            out.append(f'<span class="badge text-bg-light border">{deals_first}</span>')
        out.append("\n    ")
        if seat.position == keeper:
            out.append(f'<span class="badge text-bg-light border">{keeps}</span>')
        out.append("\n    </span>\n    ")
        if show_points and seat.points is not None:
            negative = "neg" if seat.points < 0 else ""
            out.append(f'<span class="num fw-semibold {negative}">{seat.points}</span>')
        out.append("\n  </li>\n  ")
    out.append("\n</ol>\n")
    # Every value above is escaped or a number.
    return mark_safe("".join(out))


def table_sheet(request: HttpRequest, context: Mapping) -> SafeString:
    """The sheet as it stands: its hands, the deductions and totals, the decisions of the
    adjudicator, and its check by the TSR with what comes next (TSR 8.5.1, 10.2.1); while the
    round is played it asks for itself again every ``poll_seconds``."""
    tournament, round_, table = context["tournament"], context["round"], context["row"].table
    args = [tournament.slug, round_.number, table.number]
    out = ['\n<div id="table-sheet"']
    if poll := context.get("poll_seconds"):
        live = escape(reverse("scoring:table-live", args=args))
        out.append(f' hx-get="{live}" hx-trigger="every {poll}s" hx-swap="outerHTML"')
    out.append(
        '>\n<div class="d-flex flex-wrap align-items-baseline gap-2">\n'
        f'  <h2 class="h4 me-auto">{escape(_("Scoresheet"))}</h2>\n  '
    )
    if context.get("sheet_link"):
        url = escape(reverse("scoring:sheet", args=args))
        out.append(
            f'<a class="btn btn-sm btn-primary" href="{url}">{escape(_("Open the scoresheet"))}</a>'
        )
    out.append("\n</div>\n")
    if not context.get("show_points"):
        hidden = _("The organiser has hidden the standings for now; points are not shown.")
        out.append(f'<div class="alert alert-info small" role="status">{escape(hidden)}</div>')
    out.append("\n")
    withheld = context.get("withheld")
    if withheld:
        out.append(
            '<div class="alert alert-info small" role="status" id="blind-notice">'
            f"{escape(withheld)}</div>"
        )
    out.append("\n")
    if context.get("hand_rows"):
        out.append(_grid(context))
    elif not withheld:
        out.append(f'\n<p class="text-body-secondary">{escape(_("No hands recorded yet."))}</p>\n')
    out.append("\n\n")
    if context.get("decisions") or context.get("may_complain"):
        out.append(render_to_string("scoring/partials/table_decisions.html", context, request))
    out.append("\n\n")
    if context.get("check"):
        out.append(_check(context))
    out.append("\n</div>\n")
    # Every value above is escaped or a number, the decisions a template's.
    return mark_safe("".join(out))


def _grid(context: Mapping) -> str:
    """The hands' grid: a column per seat, the rows made by ``sheet_rows.table_rows``, the
    deductions for unsporting conduct (TSR 9.6.2 b) and the totals."""
    seats, adjudication, check = context["row"].seats, context["adjudication"], context["check"]
    hand = escape(_("Hand"))
    out = [
        '\n<div class="table-responsive">\n'
        '<table class="table table-sm table-striped align-middle table-sticky-first">\n'
        "  <thead>\n    <tr>\n"
        f'      <th scope="col" class="num"><span class="d-none d-sm-inline">{hand}</span>'
        f'<abbr class="d-sm-none" title="{hand}">#</abbr></th>\n'
        f'      <th scope="col" class="num" title="{escape(_("Dealer (seat)"))}">'
        f'<span class="d-none d-sm-inline">{escape(_("Dealer"))}</span>'
        f'<span class="d-sm-none">{escape(pgettext("dealer, abbreviated", "D"))}</span></th>\n'
        f'      <th scope="col">{escape(_("Game"))}</th>\n'
        f'      <th scope="col" class="num">{escape(_("Value"))}</th>\n      '
    ]
    for seat in seats:
        out.append(
            f'<th scope="col" class="num" title="{escape(seat.entry.name)}">{seat.position}'
            f'<span class="d-none d-md-inline">&nbsp;{escape(seat.entry.last_name)}</span></th>'
        )
    out.append("\n    </tr>\n  </thead>\n  <tbody>\n  ")
    out.extend(context["table_rows"])
    out.append("\n  </tbody>\n  <tfoot>\n    ")
    if deductions := adjudication.deductions:
        out.append(
            '\n    <tr class="table-danger small">\n      <th scope="row" colspan="4">'
            f"{escape(_('Deducted for unsporting conduct (TSR 9.6.2 b)'))}</th>\n      "
        )
        for seat in seats:
            out.append(f'<td class="num neg">{signed(deductions.get(seat.position))}</td>')
        out.append("\n    </tr>\n    ")
    totals = check.totals.values() if check else context["hand_rows"][-1].totals
    out.append(
        '\n    <tr class="fw-semibold">\n'
        f'      <th scope="row" colspan="4">{escape(_("Total"))}</th>\n      '
    )
    for total in totals:
        out.append(f'<td class="num {"neg" if total < 0 else ""}">{total}</td>')
    out.append("\n    </tr>\n  </tfoot>\n</table>\n</div>\n")
    return "".join(out)


def _check(context: Mapping) -> str:
    """The sheet's check by the TSR: its problems and warnings, who played his compulsory
    solo (TSR 4.2.3), and who deals next with how many hands remain (TSR 8.5.1, 10.2.1), or,
    the playing time's end noted, how many forced solos are still owed (TSR 8.5.3)."""
    check = context["check"]
    out = [f'\n<h2 class="h5 mt-4">{escape(_("Check by the TSR"))}</h2>\n']
    if problems := context.get("problems"):
        items = "".join(f"<li>{escape(problem)}</li>" for problem in problems)
        out.append(f'\n<ul class="text-danger">{items}</ul>\n')
    else:
        out.append(f'\n<p class="text-success mb-2">{escape(_("No problems found."))}</p>\n')
    out.append("\n")
    if warnings := context.get("warnings"):
        items = "".join(f"<li>{escape(warning)}</li>" for warning in warnings)
        out.append(f'\n<ul class="text-warning-emphasis">{items}</ul>\n')
    out.append(f'\n<p class="small mb-1">{escape(_("Compulsory solo played (TSR 4.2.3):"))}\n')
    played = [seat for seat, done in check.compulsory_played.items() if done]
    owed = [seat for seat, done in check.compulsory_played.items() if not done]
    out.extend(f'<span class="badge text-bg-success seat-badge">{seat}</span> ' for seat in played)
    if not played:
        out.append(escape(_("none yet")))
    if owed:
        out.append(f" &middot; {escape(_('not yet played:'))}\n")
        out.extend(
            f'<span class="badge text-bg-light border seat-badge">{seat}</span> ' for seat in owed
        )
    out.append("</p>\n")
    if check.complete:
        out.append(f'\n<p class="small">{escape(_("The match is complete."))}</p>\n')
    else:
        words = next_hand_words(
            check.next,
            time_over_noted=context["sheet"].time_over_after_hand is not None,
            hands_per_match=context["hands_per_match"],
        )
        out.append(f'\n<p class="small">{words}\n')
        upcoming = check.next
        if upcoming.must_be_forced_solo:
            must = _("Seat %(seat)s must play a forced solo (TSR 4.2.3).") % {
                "seat": upcoming.forced_soloist
            }
            out.append(f"<strong>{must}</strong>")
        out.append("</p>\n")
    out.append("\n")
    return "".join(out)


def table_live(request: HttpRequest, context: Mapping) -> SafeString:
    """A table page's refresh: its sheet, and out of band its players' points and the sheet's
    state."""
    return mark_safe(
        f"{table_sheet(request, context)}\n{table_seats(context, oob=True)}\n"
        f"{table_status(context['sheet'], oob=True)}\n"
    )
