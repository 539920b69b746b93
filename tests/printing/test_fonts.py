"""Names always print: every printout is set in an embedded TrueType font that has the letters of
every European name (Latin Extended, Greek, Cyrillic), read back from the PDF as text."""

import io

import pytest
from django.utils import translation
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from doko.sample_sheets import full_match
from printing import jobs
from printing.models import Job
from printing.pdf import fonts
from scoring.models import Scoresheet
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

NAMES = [
    ("Ahmet", "Yılmaz"),
    ("Jan", "Dvořák"),
    ("Łukasz", "Nowak"),
    ("Ayşe", "Şahin"),
    ("Ελένη", "Παππά"),
    ("Дмитрий", "Иванов"),
    ("Jörg", "Weiß"),
    ("Zoë", "Ølstad"),
]
WANTED = ["Yılmaz", "Dvořák", "Łukasz", "Şahin", "Ελένη", "Дмитрий"]


@pytest.fixture
def round_played():
    """Eight players with the names above at two tables, round 1 played and confirmed."""
    tournament = factories.tournament(name="Pokal Ζ Ж Ő", venue="Łódź")
    for first_name, last_name in NAMES:
        tournament_services.entry_create(
            tournament=tournament,
            player=factories.player(first_name=first_name, last_name=last_name),
        )
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    return tournament, round_


def printed(kind: str, tournament, round_) -> list[bytes]:
    """The printout of ``kind`` as its job builds it; a completed scoresheet for each table."""
    tables = list(round_.tables.order_by("number")) if kind == Job.Kind.SCORESHEET_PDF else [None]
    documents = []
    for table in tables:
        job = Job(
            tournament=tournament,
            round=None if kind in (Job.Kind.ENTRY_LIST_PDF, Job.Kind.STANDINGS_PDF) else round_,
            table=table,
            kind=kind,
            language="en",
            site_url="http://testserver/",
        )
        with translation.override("en"):
            _name, content = jobs.JOB_BUILDERS[kind](job, lambda percent: None)
        documents.append(content)
    return documents


def fonts_used(reader: PdfReader) -> list[DictionaryObject]:
    """Every font the pages name, in their resources and in the forms they place."""
    found: dict[int, DictionaryObject] = {}

    def visit(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            found[id(font)] = font
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            visit(xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return list(found.values())


@pytest.mark.parametrize("kind", Job.Kind.values)
def test_every_printout_prints_every_name_in_an_embedded_font(kind, round_played):
    tournament, round_ = round_played
    text = ""
    for content in printed(kind, tournament, round_):
        reader = PdfReader(io.BytesIO(content))
        text += "\n".join(page.extract_text() for page in reader.pages)
        used = fonts_used(reader)
        assert used, "the document sets its text in a font"
        for font in used:
            assert font["/Subtype"] == "/TrueType", font
            assert fonts.FAMILY in font["/BaseFont"], font
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), "embedded"
    for name in WANTED:
        assert name in text, name


def test_bold_in_a_paragraph_is_the_bold_face():
    """<b> in a paragraph finds the family's bold face, not Helvetica-Bold."""
    from reportlab.pdfbase.pdfmetrics import getFont
    from reportlab.platypus import Paragraph

    styles = fonts.stylesheet()
    paragraph = Paragraph("<b>Dvořák</b> Yılmaz", styles["Normal"])
    paragraph.wrap(500, 100)
    faces = {frag.fontName for line in paragraph.blPara.lines for frag in line.words}
    assert faces == {fonts.BOLD, fonts.REGULAR}
    assert getFont(fonts.BOLD).face.name == b"DejaVuSansCondensed-Bold"
