"""The hands' rows of a sheet's entry page, and the grid's parts that repeat per seat or per
line (its heading, the lines still to come, the totals, the compulsory solos' badges, who deals
next), put into words once in Python (issue 45): the template's includes, tags and loops cost
more than the rest of a hand's save. Each comes out as the template
``scoring/partials/sheet_body.html`` wrote it, byte for byte, with the same msgids (German
first). The same for the rows of a table's public page (``table_rows``), which every phone at a
changed table asks for again: its loop over the hands took most of the page's build."""

import functools
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from django.db.models import Field
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from scoring.models import Hand
from scoring.rulings import SheetAdjudication
from scoring.selectors.sheets import HandRow
from scoring.templatetags.scoring_tags import contract_short, hand_initials, short_name
from tournaments.models import Seat
from tournaments.templatetags.tournament_tags import signed


def sheet_rows(
    rows: list[HandRow],
    *,
    base: str,
    may_edit: bool,
    problem_hands: AbstractSet[int | None],
    warning_hands: AbstractSet[int | None],
    adjudication: SheetAdjudication,
    editing: int | None,
) -> list[tuple[HandRow, SafeString]]:
    """Each row with its HTML (the hand's line and its penalty points' line); the row being
    corrected (``editing``) is left empty: the entry row stands there."""
    base = escape(base)
    words = {
        "neighbour": escape(_("his left neighbour dealt for him (TSR 3.3.2)")),
        "out_of_turn": escape(_("dealt out of turn; it stands (TSR 9.7.3)")),
        "dealt_again": escape(_("dealt again")),
        "breach": escape(_("stopped by a major breach, dealt again (TSR 9.4.3)")),
        "not_played": escape(_("not played")),
        "soloist": escape(_("Soloist (seat)")),
        "strike": escape(_("Strike out")),
        "penalty": escape(_("Penalty points")),
    }
    # A blocktranslate's own words are not escaped, only its variables (as Django does).
    correct = _("Correct hand %(number)s")
    strike_out = _("Strike out hand %(number)s")
    language = get_language()

    def made(row: HandRow) -> SafeString:
        hand, n = row.hand, row.hand.number
        key = (
            language,
            base,
            may_edit,
            n in problem_hands,
            n in warning_hands,
            tuple(getattr(hand, name) for name in _ROW_FIELDS),
            tuple(row.points),
            tuple(row.totals),
            (hand_initials(adjudication, n), tuple(row.penalty)) if row.penalty else None,
        )
        html = _ROWS_MADE.get(key)
        if html is None:
            html = _row(
                row,
                base=base,
                may_edit=may_edit,
                problem_hands=problem_hands,
                warning_hands=warning_hands,
                adjudication=adjudication,
                words=words,
                correct=correct,
                strike_out=strike_out,
            )
            if len(_ROWS_MADE) >= ROWS_KEPT:
                _ROWS_MADE.clear()  # begun afresh: one step, whatever another thread does
            _ROWS_MADE[key] = html
        return html

    return [(row, SafeString("") if editing == row.hand.number else made(row)) for row in rows]


# A row's HTML is kept by all it is made from (``sheet_rows``): a sheet is shown again after
# every hand saved, its earlier rows as they were. Up to ``ROWS_KEPT`` in each process.
ROWS_KEPT = 4096
_ROWS_MADE: dict[tuple, SafeString] = {}
_ROW_FIELDS = (
    "number",
    "section",
    "dealer",
    "dealt_by_neighbour",
    "replay",
    "not_played",
    "contract",
    "soloist",
    "solo_type",
    "game_value",
)


def table_rows(rows: list[HandRow], *, adjudication: SheetAdjudication) -> list[SafeString]:
    """The HTML of each row of a table's public page (``table_parts.table_sheet``):
    the hand's line, and its penalty points' line with the adjudicator's initials. Kept as the
    entry page's rows are (``sheet_rows``): a table's page is made again after every hand
    saved, its earlier rows as they were."""
    language = get_language()
    made = []
    for row in rows:
        hand = row.hand
        initials = hand_initials(adjudication, hand.number) if row.penalty else ""
        key = (
            "table",
            language,
            tuple(getattr(hand, name) for name in _ROW_FIELDS),
            tuple(row.points),
            (initials, tuple(row.penalty)) if row.penalty else None,
        )
        html = _ROWS_MADE.get(key)
        if html is None:
            html = _table_row(row, initials=initials)
            if len(_ROWS_MADE) >= ROWS_KEPT:
                _ROWS_MADE.clear()  # begun afresh: one step, whatever another thread does
            _ROWS_MADE[key] = html
        made.append(html)
    return made


def _table_row(row: HandRow, *, initials: str) -> SafeString:
    hand = row.hand
    out = [
        f'\n    <tr>\n      <td class="num">{hand.number}</td>\n'
        f'      <td class="num">{hand.dealer}</td>\n      <td class="small text-nowrap">\n        '
    ]
    if hand.not_played:
        out.append(
            '<span class="badge text-bg-warning" '
            f'title="{escape(_("stopped by a major breach, dealt again (TSR 9.4.3)"))}">'
            f"{escape(_('not played'))}</span>"
        )
    out.append("\n        ")
    if hand.contract != "normal":
        out.append(escape(_shown(hand, "contract")))
        if hand.soloist:
            out.append(
                ' <span class="badge text-bg-secondary seat-badge" '
                f'title="{escape(_("Soloist (seat)"))}">{hand.soloist}</span>'
            )
        if hand.solo_type:
            out.append(
                '<span class="d-none d-md-inline text-body-secondary"> '
                f"({escape(_shown(hand, 'solo_type'))})</span>"
            )
    out.append(f'\n      </td>\n      <td class="num">{hand.game_value}</td>\n      ')
    for points in row.points:
        negative = "neg" if points is not None and points < 0 else ""
        out.append(f'<td class="num {negative}">{"–" if points is None else points}</td>')
    out.append("\n    </tr>\n    ")
    if row.penalty:
        out.append(
            '\n    <tr class="table-warning small">\n'
            f'      <td></td><td colspan="3">{escape(_("Penalty points"))} '
            f'<span class="text-body-secondary">({escape(initials)})</span></td>\n      '
        )
        for points in row.penalty:
            out.append(f'<td class="num {"neg" if points < 0 else ""}">{signed(points)}</td>')
        out.append("\n    </tr>\n    ")
    out.append("\n  ")
    # Every value above is escaped or a number.
    return mark_safe("".join(out))


@functools.cache
def _labels(name: str) -> dict:
    """A field's choices of ``Hand`` by value: their labels are lazy, so they say themselves in
    the language of the request that shows them."""
    field = Hand._meta.get_field(name)
    assert isinstance(field, Field)  # a column of the hand's own
    return dict(field.flatchoices)


def _shown(hand: Hand, name: str) -> str:
    """What ``hand.get_<name>_display()`` shows, without the ORM making its choices into a
    mapping again on every call."""
    value = getattr(hand, name)
    return str(_labels(name).get(value, value))


def _row(
    row: HandRow,
    *,
    base: str,
    may_edit: bool,
    problem_hands: AbstractSet[int | None],
    warning_hands: AbstractSet[int | None],
    adjudication: SheetAdjudication,
    words: Mapping[str, str],
    correct: str,
    strike_out: str,
) -> SafeString:
    hand = row.hand
    n = hand.number
    classes = "table-info" if hand.section == "compulsory_solo" else ""
    if n in problem_hands:
        classes += " table-danger"
    elif n in warning_hands:
        classes += " table-warning"
    out = [f'\n    <tr id="hand-{n}" class="{classes}">\n      \n']
    # On a phone the number is the only way to correct a hand (the buttons are hidden): the
    # whole cell is its target.
    if may_edit:
        out.append(
            f'      <td class="num position-relative"><a class="stretched-link" '
            f'href="{base}?edit={n}" hx-get="{base}?edit={n}" '
            f'title="{correct % {"number": n}}">{n}</a></td>\n'
        )
    else:
        out.append(f'      <td class="num">{n}</td>\n')
    out.append(f'      <td class="num">{hand.dealer}')
    if hand.dealt_by_neighbour:
        out.append(f'<span class="text-body-secondary" title="{words["neighbour"]}">°</span>')
    if n in warning_hands:
        out.append(f'<span class="text-warning-emphasis" title="{words["out_of_turn"]}">*</span>')
    out.append('</td>\n      <td class="small text-nowrap">')
    if hand.replay:
        out.append(
            f'<span class="badge text-bg-warning" title="{escape(_shown(hand, "replay"))}">'
            f"{words['dealt_again']}</span> "
        )
    elif hand.not_played:
        out.append(
            f'<span class="badge text-bg-warning" title="{words["breach"]}">'
            f"{words['not_played']}</span> "
        )
    if hand.contract == "normal":
        out.append('<span class="text-body-secondary">–</span>')
    else:
        label = escape(_shown(hand, "contract"))
        out.append(
            f'<abbr class="d-md-none" title="{label}">{escape(contract_short(hand.contract))}'
            f'</abbr><span class="d-none d-md-inline">{label}</span>'
        )
        if hand.soloist:
            out.append(
                f' <span class="badge text-bg-secondary seat-badge" title="{words["soloist"]}">'
                f"{hand.soloist}</span>"
            )
        if hand.solo_type:
            out.append(
                '<span class="d-none d-lg-inline text-body-secondary"> '
                f"({escape(_shown(hand, 'solo_type'))})</span>"
            )
    out.append(f'</td>\n      <td class="num">{hand.game_value}</td>\n')
    plus = "".join(
        str(seat)
        for seat, points in enumerate(row.points, start=1)
        if points is not None and points > 0
    )
    out.append(f'      <td class="small d-none d-sm-table-cell">{plus}</td>\n      ')
    for points, total in row.cells:
        negative = "neg" if points is not None and points < 0 else ""
        shown = "–" if points is None else points
        out.append(
            f'<td class="num"><span class="{negative}">{shown}</span><br>'
            f'<small class="text-body-secondary {"neg" if total < 0 else ""}">{total}</small></td>'
        )
    out.append("\n      ")
    if may_edit:
        out.append(
            '<td class="text-nowrap d-none d-sm-table-cell">\n'
            f'        <a class="btn btn-sm btn-outline-secondary py-0" href="{base}?edit={n}" '
            f'hx-get="{base}?edit={n}" aria-label="{correct % {"number": n}}">✎</a>\n'
            f'        <a class="btn btn-sm btn-outline-danger py-0" '
            f'href="{base}?strike={n}#hand-{n}" hx-get="{base}?strike={n}" '
            f'aria-label="{strike_out % {"number": n}}" title="{words["strike"]}">✕</a>\n'
            "      </td>"
        )
    out.append("\n    </tr>\n    ")
    if row.penalty:
        out.append(
            f'\n    <tr id="penalty-{n}" class="table-warning small">\n'
            f'      <td></td><td colspan="3">{words["penalty"]} '
            f'<span class="text-body-secondary">({escape(hand_initials(adjudication, n))})'
            '</span></td><td class="d-none d-sm-table-cell"></td>\n      '
        )
        for points in row.penalty:
            out.append(f'<td class="num {"neg" if points < 0 else ""}">{signed(points)}</td>')
        out.append("\n      ")
        if may_edit:
            out.append('<td class="d-none d-sm-table-cell"></td>')
        out.append("\n    </tr>\n    ")
    out.append("\n    ")
    # Every value above is escaped or a number.
    return mark_safe("".join(out))


def sheet_head(seats: Sequence[Seat], *, may_edit: bool) -> SafeString:
    """The grid's heading row: the hand's columns, then a column per seat with its player's
    name (his last name cut short beside the number, on a wide screen)."""
    out = [
        "<tr>\n"
        '      <th scope="col" class="num">#</th>\n'
        f'      <th scope="col" class="num" title="{escape(_("Dealer (seat)"))}">'
        f"{escape(pgettext('dealer, abbreviated', 'D'))}</th>\n"
        f'      <th scope="col">{escape(_("Game"))}</th>\n'
        f'      <th scope="col" class="num"><span class="d-none d-sm-inline">{escape(_("Value"))}'
        f'</span><abbr class="d-sm-none" title="{escape(_("Value"))}">'
        f"{escape(pgettext('game value, abbreviated', 'V'))}</abbr></th>\n"
        '      <th scope="col" class="d-none d-sm-table-cell" '
        f'title="{escape(_("Seats that scored plus (TSR 7.3.3.3)"))}">+</th>\n      '
    ]
    for seat in seats:
        out.append(
            f'<th scope="col" class="num" title="{escape(seat.entry.name)}">{seat.position}'
            f'<span class="d-none d-md-inline">&nbsp;{escape(short_name(seat.entry.last_name))}'
            "</span></th>"
        )
    out.append("\n      ")
    if may_edit:
        out.append(
            '<th scope="col" class="d-none d-sm-table-cell"><span class="visually-hidden">'
            f"{escape(_('Actions'))}</span></th>"
        )
    out.append("\n    </tr>")
    # Every value above is escaped or a number.
    return mark_safe("".join(out))


def placeholder_rows(numbers: Iterable[int], *, table_size: int) -> SafeString:
    """A row per line still to come, numbered on (the offline queue fills them in,
    ``static/js/offline-queue.js``)."""
    span = table_size + 5
    return mark_safe(
        "".join(
            f'\n    <tr class="text-body-tertiary" data-offline-placeholder="{number}">'
            f'<td class="num">{number}</td><td colspan="{span}"></td></tr>\n  '
            for number in numbers
        )
    )


def total_cells(totals: Mapping[int, int]) -> SafeString:
    """The totals row's cell per seat, a negative total marked."""
    return mark_safe(
        "".join(
            f'<td class="num {"neg" if total < 0 else ""}">{total}</td>'
            for total in totals.values()
        )
    )


def compulsory_badges(played: Mapping[int, bool]) -> SafeString:
    """A badge per seat that played its compulsory solo (or "none yet"), then one per seat that
    has not yet (TSR 4.2): a phone has no tooltip to tell them apart, so the words say it."""
    done = [seat for seat, answer in played.items() if answer]
    owed = [seat for seat, answer in played.items() if not answer]
    title = escape(_("played"))
    out = [
        f'<span class="badge text-bg-success seat-badge" title="{title}">{seat}</span> '
        for seat in done
    ] or [escape(_("none yet"))]
    if owed:
        title = escape(_("not yet played"))
        out.append(f" &middot; {escape(_('not yet played:'))}\n  ")
        out.extend(
            f'<span class="badge text-bg-light border seat-badge" title="{title}">{seat}</span> '
            for seat in owed
        )
    return mark_safe("".join(out))


def next_hand_words(upcoming, *, time_over_noted: bool, hands_per_match: int) -> str:
    """Who deals the next hand and how many of the match remain (TSR 8.5.1, 10.2.1), or, the
    playing time's end noted, how many forced solos are still owed (TSR 8.5.3): the entry
    page's words and the table page's alike. ``upcoming``: the check's next hand."""
    values = {"dealer": upcoming.dealer, "count": upcoming.hands_remaining}
    if time_over_noted:
        return (
            ngettext(
                "Next hand: seat %(dealer)s deals; the playing time is over, %(count)s forced "
                "solo is still owed.",
                "Next hand: seat %(dealer)s deals; the playing time is over, %(count)s forced "
                "solos are still owed.",
                upcoming.hands_remaining,
            )
            % values
        )
    return ngettext(
        "Next hand: seat %(dealer)s deals; %(count)s of %(total)s hands remains, "
        "compulsory solos included.",
        "Next hand: seat %(dealer)s deals; %(count)s of %(total)s hands remain, "
        "compulsory solos included.",
        upcoming.hands_remaining,
    ) % {**values, "total": hands_per_match}
