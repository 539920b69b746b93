"""The font every printout is set in: DejaVu Sans Condensed, embedded in the PDF.

ReportLab's base-14 fonts (Helvetica) know only Latin-1, so "Yılmaz", "Dvořák", "Łukasz" or
"Şahin" printed with black boxes. DejaVu Sans covers Latin Extended, Greek and Cyrillic; its
condensed cut is about as wide as Helvetica, so the layouts made for Helvetica still fit. The
files ship with the project (``printing/fonts/``, with their licence): nothing is fetched at run
time. Only the glyphs a document uses are embedded (ReportLab subsets TrueType fonts).
"""

import functools
from pathlib import Path

from reportlab.lib.styles import StyleSheet1, getSampleStyleSheet
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"

FAMILY = "DejaVuSansCondensed"
REGULAR = "DejaVuSansCondensed"
BOLD = "DejaVuSansCondensed-Bold"
OBLIQUE = "DejaVuSansCondensed-Oblique"

# What each of ReportLab's own font names, as its sample styles use them, is set in here.
_INSTEAD_OF = {
    "Helvetica": REGULAR,
    "Helvetica-Bold": BOLD,
    "Helvetica-Oblique": OBLIQUE,
    "Helvetica-BoldOblique": BOLD,
    "Times-Roman": REGULAR,
    "Times-Bold": BOLD,
    "Times-Italic": OBLIQUE,
    "Times-BoldItalic": BOLD,
    "Courier": REGULAR,
}


@functools.cache
def register() -> None:
    """Register the faces with ReportLab, and the family, so that ``<b>`` and ``<i>`` in a
    paragraph find them. Once per process, on the first printout: reading the files takes a
    moment that a process that never prints need not spend."""
    for name in (REGULAR, BOLD, OBLIQUE):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / f"{name}.ttf")))
    # No bold oblique is shipped: nothing prints in it, and bold is what stands out.
    pdfmetrics.registerFontFamily(
        FAMILY, normal=REGULAR, bold=BOLD, italic=OBLIQUE, boldItalic=BOLD
    )


def stylesheet() -> StyleSheet1:
    """ReportLab's sample styles (Normal, Title, ...) set in this font; a new sheet each time,
    so that a document may change its styles."""
    register()
    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        # A word wider than its line overflows rather than being split inside ("Platzieru/
        # ngen"); the printouts make the text smaller where a word would not fit.
        style.splitLongWords = 0
        for attribute in ("fontName", "bulletFontName"):
            name = getattr(style, attribute, None)
            if name in _INSTEAD_OF:
                setattr(style, attribute, _INSTEAD_OF[name])
    return styles
