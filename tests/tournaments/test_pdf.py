"""The list of players as a PDF, read back as text."""

import io

import pytest
from pypdf import PdfReader

from tests import factories
from tournaments import pdf, selectors, services

pytestmark = pytest.mark.django_db


def text_of(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_list_of_players_shows_every_player_and_reports_progress():
    tournament = factories.tournament(name="Pokal <Kreuz & Pik>", venue="Köln")
    services.entry_create(
        tournament=tournament,
        player=factories.player(first_name="Jörg", last_name="Weiß", club="Doko & Co."),
    )
    for _ in range(59):
        services.entry_create(tournament=tournament, player=factories.player())
    seen = []
    content = pdf.entry_list_pdf(
        tournament=tournament,
        entries=list(selectors.entry_list(tournament=tournament)),
        progress=seen.append,
    )
    text = text_of(content)
    assert "Pokal <Kreuz & Pik>" in text
    assert "Weiß, Jörg" in text
    assert "Doko & Co." in text
    assert "Nachname" in text  # the other players
    assert len(PdfReader(io.BytesIO(content)).pages) >= 2
    assert seen == sorted(seen)
    assert 0 < seen[-1] <= 90
