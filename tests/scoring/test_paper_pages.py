"""The desk's pages for paper sheets: confirming from the signed sheet, the blind second entry,
and settling its differences from the paper (TSR 7.3.4, 8.5.2)."""

from dataclasses import replace

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet, SecondEntry, SheetRead
from scoring.services import Actor
from tests import factories
from tests.scoring.test_sheet_pages import HX, link, quick
from tournaments import services as tournament_services
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(username="olga", first_name="Olga", last_name="Organ")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


def url(sheet, name="scoring:sheet"):
    table = sheet.table
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def typed(sheet, user, *, submit=True):
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=Actor(user=user)
    )
    if submit:
        sheet = services.scoresheet_submit(
            scoresheet=sheet, version=sheet.version, by=Actor(user=user)
        )
    return sheet


def fresh(sheet):
    return Scoresheet.objects.get(pk=sheet.pk)


def test_a_complete_draft_offers_the_desk_to_hand_in_and_confirm_from_the_signed_sheet(
    client, sheet, organiser
):
    sheet = typed(sheet, organiser, submit=False)
    client.force_login(organiser)
    page = client.get(url(sheet)).content.decode()
    assert "Hand in and confirm from the signed sheet" in page
    step = client.get(url(sheet) + "?step=signed", **HX).content.decode()
    assert "Confirm from the signed paper sheet?" in step
    assert 'name="from_signed_sheet" value="1"' in step
    response = client.post(
        url(sheet, "scoring:sheet-confirm"), {"version": sheet.version, "from_signed_sheet": "1"}
    )
    assert response.status_code == 302
    sheet = fresh(sheet)
    assert (sheet.status, sheet.confirmation) == ("confirmed", "signed_sheet")
    history = client.get(url(sheet, "scoring:sheet-history")).content.decode()
    assert "confirmed from the signed paper sheet" in history


def test_the_typist_sees_why_he_may_not_confirm_and_the_signed_sheet_button(
    client, sheet, organiser
):
    sheet = typed(sheet, organiser)
    client.force_login(organiser)
    page = client.get(url(sheet)).content.decode()
    assert "Confirm from the signed paper sheet" in page
    assert "Confirm: the scoresheet is correct" not in page


def test_on_phones_only_the_typist_is_told_why_he_may_not_confirm(client, sheet, organiser):
    tournament = sheet.table.round.tournament
    tournament.sheet_keeping = SheetKeeping.PHONES
    tournament.save()
    sheet = typed(fresh(sheet), organiser)
    client.force_login(organiser)
    page = client.get(url(sheet)).content.decode()
    assert "Confirm from the signed paper sheet" not in page
    assert "You handed this scoresheet in; another player of the table" in page


def test_on_paper_only_the_scorekeepers_link_follows_and_says_why(client, sheet):
    tournament = sheet.table.round.tournament
    tournament.sheet_keeping = SheetKeeping.PAPER
    tournament.save()
    page = client.get(link(sheet, 4)).content.decode()
    assert "This tournament keeps its scoresheets on paper" in page
    assert 'id="hand-form"' not in page
    response = client.post(link(sheet, 4, "save"), quick(1, 1, "12", 1), **HX)
    assert response.status_code == 403
    assert not sheet.hands.exists()


@pytest.fixture
def double(sheet, organiser, client):
    """Double entry on; the organiser typed and handed in the sheet; Zoë of the desk, logged
    in, types it again."""
    tournament = sheet.table.round.tournament
    tournament.double_entry = True
    tournament.save()
    second = factories.user(username="zoe", first_name="Zoë", last_name="Zweig")
    factories.role_grant(tournament=tournament, user=second, role=Role.SCOREKEEPER)
    client.force_login(second)
    return typed(fresh(sheet), organiser), second


def test_the_handed_in_sheet_shows_the_way_to_the_second_entry(client, double):
    sheet, _second = double
    page = client.get(url(sheet)).content.decode()
    assert "waiting for a second member of the desk" in page
    assert url(sheet, "scoring:sheet-second") in page
    assert "Confirm: the scoresheet is correct" not in page


def test_with_double_entry_the_sheet_says_the_second_entry_confirms_it(client, double, organiser):
    """Issue 47: "another player of the table confirms it" is not true of a paper sheet
    checked by double entry: only the second entry does."""
    sheet, _second = double
    client.force_login(organiser)  # who typed it sees it; the second typist sees it blind
    page = client.get(url(sheet)).content.decode()
    assert (
        "Handed in; a second member of the desk types it again without seeing this entry, "
        "and it is confirmed when both entries agree (double entry)."
    ) in page
    assert "another player of the table or a member of staff confirms it" not in page
    client.cookies["django_language"] = "de"
    page = client.get(url(sheet)).content.decode()
    assert "ein anderer Spieler des Tisches" not in page
    assert "Die Spielliste wartet darauf, dass ein zweiter Erfasser" in page


def test_with_double_entry_handing_in_says_who_confirms(client, sheet, organiser):
    tournament = sheet.table.round.tournament
    tournament.double_entry = True
    tournament.save()
    sheet = typed(fresh(sheet), organiser, submit=False)
    client.force_login(organiser)
    page = client.get(url(sheet)).content.decode()
    assert "then a second member of the desk types it again without seeing this entry" in page
    step = client.get(url(sheet) + "?step=submit", **HX).content.decode()
    assert "a second member of the desk types the paper sheet again" in step
    assert "another player of the table confirms the scoresheet" not in step


def test_confirming_from_the_signed_sheet_says_what_to_check(client, sheet, organiser):
    sheet = typed(sheet, organiser, submit=False)
    client.force_login(organiser)
    page = client.get(url(sheet)).content.decode()
    assert "then hand it in and confirm it from the signed sheet below" in page
    step = client.get(url(sheet) + "?step=signed", **HX).content.decode()
    assert "check that every player of the table signed it" in step
    assert "its totals are the totals below, seat by seat" in step


def test_the_second_entry_page_shows_nothing_of_the_first(client, double):
    sheet, _second = double
    page = client.get(url(sheet, "scoring:sheet-second")).content.decode()
    assert "Second entry: table 1, round 1" in page
    assert 'id="hand-form"' in page
    assert 'id="hand-1"' not in page  # the first entry's hands are not shown


def test_the_second_entry_is_typed_hand_by_hand_and_compared(client, double):
    sheet, second = double
    for number in range(1, 24):
        entry = SecondEntry.objects.filter(scoresheet=sheet).first()
        services.second_entry_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:number],
            by=second,
            version=entry.version if entry else 0,
        )
    entry = SecondEntry.objects.get(scoresheet=sheet)
    last = full_match()[23]
    winners = "".join(str(s) for s, p in sorted(last.points.items()) if p > 0)
    response = client.post(
        url(sheet, "scoring:sheet-second-save"),
        {
            **quick(24, last.game_value, winners, entry.version),
            "contract": str(last.contract),
            "soloist": last.soloist or "",
            "solo_type": str(last.solo_type) if last.solo_type else "",
        },
        **HX,
    )
    assert response.status_code == 200, response.content.decode()[:2000]
    assert "Compare with the first entry" in response.content.decode()
    response = client.post(url(sheet, "scoring:sheet-second-compare"))
    assert response.status_code == 302
    assert response["Location"] == url(sheet)
    assert fresh(sheet).confirmation == "double_entry"


def test_the_first_typist_is_told_on_the_second_entry_page_that_he_may_not(
    client, double, organiser
):
    sheet, _second = double
    client.force_login(organiser)
    page = client.get(url(sheet, "scoring:sheet-second")).content.decode()
    assert "You typed the first entry of this scoresheet" in page
    assert 'id="hand-form"' not in page


def test_differences_are_shown_side_by_side_and_settled_from_the_paper(client, double, organiser):
    sheet, second = double
    hands = full_match()
    hands[4] = replace(hands[4], points={s: -p for s, p in hands[4].points.items()})
    comparison = services.second_entry_submit(scoresheet=sheet, hands=hands, by=second)
    assert [d.hand for d in comparison.differences] == [5]
    page = client.get(url(sheet)).content.decode()
    assert "differs from the first in 1 place" in page
    # The second typist sees which hand differs, not what the first entry has in it.
    differences = client.get(url(sheet, "scoring:sheet-differences"))
    assert differences.status_code == 200
    text = differences.content.decode()
    assert 'id="differing-hands">5<' in text
    assert 'name="hand-5"' not in text
    assert not SheetRead.objects.exists()
    # Opened (recorded), side by side: he proposes, the first typist agrees.
    opened = client.post(
        url(sheet, "scoring:sheet-first-entry-open"),
        {"next": url(sheet, "scoring:sheet-differences"), "where": "differences"},
    )
    assert opened.status_code == 302
    assert opened["Location"] == url(sheet, "scoring:sheet-differences")
    assert SheetRead.objects.get().by == second
    text = client.get(url(sheet, "scoring:sheet-differences")).content.decode()
    assert 'id="difference-5"' in text
    assert 'name="hand-5"' in text
    refused = client.post(url(sheet, "scoring:sheet-differences"), {})
    assert refused.status_code == 422
    assert "still open: 5" in refused.content.decode()
    proposed = client.post(url(sheet, "scoring:sheet-differences"), {"hand-5": "first"})
    assert proposed.status_code == 302
    assert fresh(sheet).status == "submitted"
    assert (
        "Your proposal waits for the other typist"
        in client.get(url(sheet, "scoring:sheet-differences")).content.decode()
    )
    client.force_login(organiser)
    text = client.get(url(sheet, "scoring:sheet-differences")).content.decode()
    assert "Zoë Zweig proposed the choices marked below" in text
    assert 'value="first" checked' in text
    done = client.post(url(sheet, "scoring:sheet-differences"), {"hand-5": "first"})
    assert done.status_code == 302
    sheet = fresh(sheet)
    assert (sheet.status, sheet.confirmation) == ("confirmed", "double_entry")


def test_the_second_entry_can_be_started_over(client, double):
    sheet, second = double
    services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], by=second, version=0
    )
    page = client.get(url(sheet, "scoring:sheet-second")).content.decode()
    assert "Start over: throw away the 3 hands typed" in page
    response = client.post(url(sheet, "scoring:sheet-second-discard"))
    assert response.status_code == 302
    assert not SecondEntry.objects.exists()


def test_the_settings_page_has_the_sheet_keeping(client, sheet, organiser):
    client.force_login(organiser)
    tournament = sheet.table.round.tournament
    page = client.get(
        reverse("tournaments:tournament-settings", args=[tournament.slug])
    ).content.decode()
    assert "Scoresheets" in page
    assert 'name="sheet_keeping"' in page
    assert 'name="double_entry"' in page


def test_the_pages_speak_german(client, double):
    sheet, _second = double
    client.cookies["django_language"] = "de"
    page = client.get(url(sheet, "scoring:sheet-second")).content.decode()
    assert "Zweiterfassung" in page


def test_the_offline_queues_answers_on_the_second_entry_show_nothing_of_the_first(client, double):
    sheet, _second = double
    first_hand = full_match()[0]
    winners = "".join(str(s) for s, p in sorted(first_hand.points.items()) if p > 0)
    row = quick(1, first_hand.game_value, winners, 0)
    saved = client.post(
        url(sheet, "scoring:sheet-second-save"), row, HTTP_ACCEPT="application/json"
    )
    assert saved.status_code == 200, saved.content
    assert saved.json()["version"] == 1
    stale = client.post(
        url(sheet, "scoring:sheet-second-save"), row, HTTP_ACCEPT="application/json"
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["version"] == 1
    assert len(body["current"]["hands"]) == 1  # the second entry's own hand, not the 24
    assert body["changes"] == []
    assert body["hand"]["stored"] is True
