"""The parts of a sheet's entry page around its rows, put into words in Python as the rows are
(``scoring.views.sheet_rows``): the state line above the grid, what comes next, the totals row
and the entry row. The whole page (``scoring/partials/sheet_body.html``) and a new hand's answer
(``scoring.views.saved``) take them from here alike; in the answer they stand alone, out of band
(``oob``) where they replace the page's own. As templates they cost a new hand's answer more
than everything else in it (issue 45).

The words are the templates' were, with the same msgids (German first): a ``blocktranslate``'s
own words are not escaped, only its values; a ``translate``'s are."""

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring import selectors
from scoring.templatetags.scoring_tags import next_hand_texts
from scoring.views.access import Access
from scoring.views.sheet_rows import compulsory_badges, next_hand_words, total_cells
from tournaments.templatetags.tournament_tags import status_badge


def _out_of_band(oob: bool) -> str:
    return ' hx-swap-oob="true"' if oob else ""


def state_line(access: Access, state: selectors.SheetState, *, oob: bool = False) -> SafeString:
    """The sheet's status (or, on a second entry, that it is one and who typed it), its version
    and who played his compulsory solo (TSR 4.2), but not to a reader the hands are withheld
    from."""
    out = [
        '\n<div class="d-flex flex-wrap align-items-center gap-2 mb-2 small" id="sheet-state"'
        f"{_out_of_band(oob)}>\n  "
    ]
    if access.blind:
        out.append(f'<span class="badge text-bg-info">{escape(_("second entry"))}</span>')
        if access.entry is not None:
            by = access.entry.by
            name = escape(by.get_full_name() or by.get_username())
            typed = _("typed by %(name)s") % {"name": name}
            out.append(f'\n  <span class="text-body-secondary">{typed}</span>')
    else:
        sheet = access.sheet
        out.append(status_badge(sheet.status, sheet.get_status_display()))
        if sheet.confirmation:
            confirmation = escape(sheet.get_confirmation_display())
            out.append(f'\n  <span class="badge text-bg-light border">{confirmation}</span>')
    version = _("version %(version)s") % {"version": access.version}
    out.append(f'\n  <span class="text-body-secondary">{version}</span>')
    if not state.withheld:
        played = compulsory_badges(state.check.compulsory_played)
        out.append(
            f'\n  <span id="compulsory-played">{escape(_("Compulsory solo played:"))}\n  '
            f"{played}</span>"
        )
    out.append("\n</div>\n")
    # Every value above is escaped or a number.
    return mark_safe("".join(out))


def next_hand(
    state: selectors.SheetState, *, time_over_noted: bool, oob: bool = False
) -> SafeString:
    """Who deals the next hand and how many remain of the match (TSR 8.5.1, 10.2.1), or, the
    playing time's end noted, how many forced solos are still owed (TSR 8.5.3); and a forced
    solo due (TSR 4.2.3). Kept up to date offline from its ``data-`` attributes
    (static/js/offline-form.js)."""
    upcoming = state.check.next
    offline = (
        ""
        if time_over_noted
        else f' data-offline-total="{state.hands_per_match}" {next_hand_texts()}'
    )
    text = next_hand_words(
        upcoming, time_over_noted=time_over_noted, hands_per_match=state.hands_per_match
    )
    forced = ""
    if upcoming.must_be_forced_solo:
        must = _("Seat %(seat)s must play a forced solo (TSR 4.2.3, 8.6.1).") % {
            "seat": upcoming.forced_soloist
        }
        forced = f'<strong class="text-danger">{must}</strong>'
    # Every value above is a number, or our own attributes.
    return mark_safe(
        f'\n<p class="small mb-2" id="next-hand"{_out_of_band(oob)}{offline}>{text}\n{forced}</p>\n'
    )


def totals_row(state: selectors.SheetState, *, may_edit: bool, oob: bool = False) -> SafeString:
    """The sheet's totals per seat (TSR 7.3.3)."""
    edit_cell = '<td class="d-none d-sm-table-cell"></td>' if may_edit else ""
    return mark_safe(
        f'\n<tr class="fw-semibold" id="sheet-totals"{_out_of_band(oob)}>\n      '
        f'<th scope="row" colspan="4">{escape(_("Total"))}</th>'
        '<td class="d-none d-sm-table-cell"></td>\n      '
        f"{total_cells(state.check.totals)}\n      {edit_cell}\n    </tr>\n"
    )


def entry_row(
    request: HttpRequest,
    access: Access,
    state: selectors.SheetState,
    *,
    fields: SafeString,
    number: int,
    mode: str,
    contract: str,
    typist: str,
    plain: bool,
) -> SafeString:
    """The row a hand is typed into, around its ``fields`` (``page.blank_fields`` for a new
    hand, ``entry_fields.html`` for one being typed or corrected): where it is sent, the
    version it was read at and who types (``policies.may_save_typed``), and the numbers the
    offline queue goes on from (static/js/offline-queue.js). ``plain``: the page around the row
    is the sheet alone, nothing ruled on it, so a new hand is answered by itself
    (``scoring.views.saved``); the offline scripts skip hidden fields."""
    base = escape(access.base)
    written = len(state.lines)
    upcoming = state.check.next
    return mark_safe(
        '\n<tr class="entry-row table-warning" id="entry-row">\n'
        f'  <td colspan="{state.table_size + 6}">\n'
        f'  <form id="hand-form" class="entry" data-mode="{escape(mode)}" '
        f'data-contract="{escape(contract)}" data-offline-queue="{base}" '
        f'data-offline-next="{written + 1}" '
        f'data-offline-last="{written + upcoming.hands_remaining}" '
        f'data-offline-dealer="{upcoming.dealer}" method="post" action="{base}save/" '
        f'hx-post="{base}save/" autocomplete="off" novalidate>\n'
        '    <input type="hidden" name="csrfmiddlewaretoken" '
        f'value="{escape(get_token(request))}">\n'
        f'    <input type="hidden" name="version" value="{access.version}">\n'
        f'    <input type="hidden" name="number" value="{number}">\n'
        f'    <input type="hidden" name="typist" value="{escape(typist)}">\n'
        f'    <input type="hidden" name="plain" value="{1 if plain else 0}">\n'
        f"    {fields}\n"
        '    <div id="preview" class="mt-2 small" aria-live="polite" data-offline-clear\n'
        f'         hx-post="{base}check/" hx-trigger="input delay:150ms from:#hand-form, '
        'change from:#hand-form"\n'
        '         hx-target="this" hx-swap="innerHTML" hx-sync="this:queue last"></div>\n'
        "  </form>\n  </td>\n</tr>\n"
    )
