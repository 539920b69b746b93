"""Personal link cards: a card for every active player, eight to an A4 page, with the QR code
of the player's personal link (``/p/<key>/``), which stays the same for the whole tournament:
their table and seat in each round, their results, and their table's scoresheet while they sit
there. Handed out once, at the door or with the first round's slips.

Laid out as the seat slips are (``card_sheet``), and in the same order, by the players' names,
so that both piles are handed out alike.
"""

from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from printing.pdf import card_sheet
from printing.pdf.drawing import draw, draw_wrapped
from printing.pdf.fonts import BOLD, REGULAR
from printing.pdf.lists import Progress, entry_by_name
from tournaments.models import Entry, Tournament


def _draw_card(
    canvas: Canvas, entry: Entry, card: card_sheet.Card, *, tournament: Tournament, url: str
) -> None:
    """One card, in its place ``card``."""
    top, left, right = card.top, card.left, card.right
    canvas.setFillColor(card_sheet.GREY)
    draw(canvas, left, top - 7 * mm, tournament.name, BOLD, 9, width=card_sheet.INNER)

    card_sheet.draw_name(canvas, entry.sort_name, left, top, card_sheet.TEXT)
    canvas.setFillColor(card_sheet.GREY)
    draw(
        canvas,
        left,
        top - 24 * mm,
        _("Start number %(number)s") % {"number": entry.start_number},
        REGULAR,
        9,
        width=card_sheet.TEXT,
    )
    if entry.club:
        draw_wrapped(
            canvas,
            left,
            top - 29 * mm,
            entry.club,
            REGULAR,
            9,
            width=card_sheet.TEXT,
            lines=2,
            leading=3.8 * mm,
            smallest=6,
        )

    card_sheet.draw_link(canvas, url, _("Your personal link"), right=right, top=top)

    canvas.setFillColor(colors.black)
    draw_wrapped(
        canvas,
        left,
        top - 52 * mm,
        _(
            "Your page for the whole tournament: your table in each round, your results, "
            "your scoresheet"
        ),
        BOLD,
        8.5,
        width=card_sheet.INNER,
        lines=2,
        leading=4 * mm,
        smallest=6,
    )
    canvas.setFillColor(card_sheet.GREY)
    draw(
        canvas,
        left,
        top - 62 * mm,
        _("Keep this card: the link stays the same all tournament."),
        REGULAR,
        7.5,
        width=card_sheet.INNER,
    )


def personal_cards_pdf(
    *,
    tournament: Tournament,
    entries: list[Entry],
    url_for_entry: Callable[[Entry], str],
    warning: str = "",
    progress: Progress,
) -> bytes:
    """A card for each of ``entries``, eight to an A4 page, in the order of their names: the
    tournament, the player's name, start number and club, and the QR code of
    ``url_for_entry(entry)``, their personal link, with the address beneath it for typing in;
    ``warning`` beneath the cards of every page."""

    def draw_card(canvas: Canvas, entry: Entry, card: card_sheet.Card) -> None:
        _draw_card(canvas, entry, card, tournament=tournament, url=url_for_entry(entry))

    return card_sheet.card_sheet_pdf(
        tournament=tournament,
        title=_("Personal link cards"),
        items=sorted(entries, key=entry_by_name),
        draw_card=draw_card,
        empty=_("No active players."),
        warning=warning,
        progress=progress,
    )
