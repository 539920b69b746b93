"""Four eyes that hold (issue 44): each finding of the review replayed through HTTP against the
running site, as the attacker tried it. No single person decides a result, whichever route he
takes: the pages, the API with a token or without a cookie, a seat's key, a personal link."""

import datetime
from dataclasses import replace

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match
from rankings.models import RankingAdmission
from rankings.services.admissions import ranking_admission_request, ranking_maintainer_add
from rankings.services.lists import ranking_list_save
from scoring.models import Scoresheet, ScoresheetChange, SheetRead
from tests import factories
from tests.scoring.test_sheet_api import hand_json
from tests.tournaments.helpers import play
from tournaments import services as tournament_services
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = pytest.mark.django_db(transaction=True)

Role = TournamentRole.Role
PASSWORD = "a-long-test-password"


def sheet_url(sheet: Scoresheet, name: str = "scoring:sheet", **kwargs) -> str:
    table = sheet.table
    return reverse(
        name, args=[table.round.tournament.slug, table.round.number, table.number], **kwargs
    )


def api_url(sheet: Scoresheet, action: str = "") -> str:
    return sheet_url(sheet, "api:scoresheet" + (f"-{action}" if action else ""))


def fresh(sheet: Scoresheet) -> Scoresheet:
    return Scoresheet.objects.get(pk=sheet.pk)


def type_in(client, sheet: Scoresheet, hands=None) -> int:
    """The whole sheet typed and handed in through the API; the sheet's version after."""
    answer = client.api(
        "PUT",
        api_url(sheet),
        {"version": fresh(sheet).version, "hands": [hand_json(h) for h in hands or full_match()]},
    )
    assert answer.status_code == 200, answer.text
    answer = client.api("POST", api_url(sheet, "submit"), {"version": answer.json()["version"]})
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


# A playing member of staff confirms his own table ---------------------------------------------


@pytest.fixture
def playing_staff():
    """A table of four on phones, round running; the organiser plays at seat 1 of it (his
    *plays as*), and the scorekeeper (seat 4) handed the sheet in through his link."""
    organiser = factories.user(username="olga", first_name="Olga", last_name="Organ")
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    seats = {seat.position: seat for seat in sheet.table.seats.select_related("entry")}
    factories.role_grant(
        tournament=tournament, user=organiser, role=Role.ORGANISER, entry=seats[1].entry
    )
    return sheet, organiser, seats


def test_a_playing_organiser_gets_no_tablemates_personal_link_by_any_route(visitor, playing_staff):
    sheet, _organiser, seats = playing_staff
    slug = sheet.table.round.tournament.slug
    mate = seats[2].entry
    script = visitor(cookies=False)
    script.api_log_in("olga", PASSWORD)
    # The API that served it (200 before): refused, saying why and who hands it out.
    answer = script.api("GET", f"tournaments/{slug}/players/{mate.start_number}/personal-link")
    assert answer.status_code == 403
    assert "You play at a table with" in answer.json()["detail"]
    answer = script.api(
        "POST", f"tournaments/{slug}/players/{mate.start_number}/personal-link/replace"
    )
    assert answer.status_code in {403, 404}
    # The page of the player: no link, the reason instead.
    browser = visitor()
    browser.log_in("olga", PASSWORD)
    page = browser.get(reverse("tournaments:entry-edit", args=[slug, mate.start_number])).text
    assert mate.link_key not in page
    assert "You play at a table with" in page
    # Printed: one card of a tablemate, or every player's card and slip, is refused.
    card = browser.post_form(
        reverse("printing:personal-card-print", args=[slug, mate.start_number]),
        form=reverse("tournaments:entry-edit", args=[slug, mate.start_number]),
    )
    assert card.status_code == 403
    cards = browser.post_form(
        reverse("printing:personal-cards-print", args=[slug]),
        form=reverse("tournaments:entries", args=[slug]),
    )
    assert cards.status_code == 403
    # His own link and a player he does not play with stay his to hand out: not here (all
    # four sit at his table), so the adjudicator, who does not play, reads it.
    adjudicator = factories.user(username="adam")
    factories.role_grant(
        tournament=sheet.table.round.tournament, user=adjudicator, role=Role.ADJUDICATOR
    )
    other = visitor(cookies=False)
    other.api_log_in("adam", PASSWORD)
    answer = other.api("GET", f"tournaments/{slug}/players/{mate.start_number}/personal-link")
    assert answer.status_code == 200
    assert mate.link_key in answer.json()["url"]


def test_a_playing_organiser_logged_in_confirms_nothing_in_a_tablemates_name(
    visitor, playing_staff
):
    sheet, _organiser, seats = playing_staff
    scorekeeper = visitor(cookies=False)
    type_in_by_key(scorekeeper, sheet, seats[4].token)
    # Logged in on his device, with seat 2's key: refused, whatever key he sends.
    browser = visitor()
    browser.log_in("olga", PASSWORD)
    answer = browser.api(
        "POST",
        api_url(sheet, "confirm"),
        {"version": fresh(sheet).version},
        headers={"X-Seat-Key": seats[2].token},
    )
    assert answer.status_code in {400, 403}, answer.text
    assert "another seat's link confirms nothing for you" in answer.text
    page = browser.post_form(
        reverse("scoring:sheet-link-confirm", args=[seats[3].token]),
        {"version": fresh(sheet).version},
        form=reverse("scoring:sheet-link", args=[seats[3].token]),
    )
    assert page.status_code in {400, 403, 422}
    assert fresh(sheet).status == Scoresheet.Status.SUBMITTED
    # Seat 2's own player, with his own key and no login, confirms.
    player = visitor(cookies=False)
    answer = player.api(
        "POST",
        api_url(sheet, "confirm"),
        {"version": fresh(sheet).version},
        headers={"X-Seat-Key": seats[2].token},
    )
    assert answer.status_code == 200, answer.text
    assert fresh(sheet).confirmed_by_seat == seats[2]


def type_in_by_key(client, sheet: Scoresheet, key: str) -> None:
    headers = {"X-Seat-Key": key}
    answer = client.api(
        "PUT",
        api_url(sheet),
        {"version": fresh(sheet).version, "hands": [hand_json(h) for h in full_match()]},
        headers=headers,
    )
    assert answer.status_code == 200, answer.text
    answer = client.api(
        "POST", api_url(sheet, "submit"), {"version": answer.json()["version"]}, headers=headers
    )
    assert answer.status_code == 200, answer.text


# Blind double entry ------------------------------------------------------------------------------


@pytest.fixture
def paper():
    """A paper tournament checked by double entry, round running: Olga types the sheets at the
    desk, Zoë is the second member of the desk, Adam the adjudicator."""
    organiser = factories.user(username="olga", first_name="Olga", last_name="Organ")
    tournament = factories.tournament(
        players=4, organiser=organiser, sheet_keeping=SheetKeeping.PAPER, double_entry=True
    )
    for username, role in (("zoe", Role.SCOREKEEPER), ("adam", Role.ADJUDICATOR)):
        factories.role_grant(
            tournament=tournament, user=factories.user(username=username), role=role
        )
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.get(table__round=round_)


def with_difference(number: int = 12):
    hands = full_match()
    hands[number - 1] = replace(
        hands[number - 1], points={s: -p for s, p in hands[number - 1].points.items()}
    )
    return hands


def first_entry_shown(text: str) -> bool:
    """Whether a page shows any hand of the sheet (its rows are ``id="hand-<n>"``)."""
    return 'id="hand-1"' in text or 'id="hand-24"' in text


def test_the_second_desk_member_never_sees_the_first_entry_on_any_page_or_answer(visitor, paper):
    sheet = paper
    first = visitor(cookies=False)
    first.api_log_in("olga", PASSWORD)
    type_in(first, sheet)
    slug, table = sheet.table.round.tournament.slug, sheet.table.number

    second = visitor()
    second.log_in("zoe", PASSWORD)
    # The desk takes him straight to a blank second entry (it showed the sheet's 24 hands).
    jump = second.get(reverse("scoring:desk", args=[slug, 1]) + f"?table={table}")
    assert jump.status_code == 302
    assert jump.headers["Location"] == sheet_url(sheet, "scoring:sheet-second")
    blank = second.get(jump.headers["Location"])
    assert blank.status_code == 200
    assert not first_entry_shown(blank.text)
    # The sheet's own page, its history, the table's page: the hands withheld, and why.
    for path in (
        sheet_url(sheet),
        sheet_url(sheet, "scoring:sheet-history"),
        reverse("scoring:table", args=[slug, 1, table]),
    ):
        page = second.get(path)
        assert page.status_code == 200, path
        assert 'id="blind-notice"' in page.text, path
        assert not first_entry_shown(page.text), path
    # The API: no hands, no totals, no snapshots.
    body = second.api("GET", api_url(sheet)).json()
    assert body["hands"] == []
    assert body["withheld"]
    for change in second.api("GET", api_url(sheet, "changes")).json():
        assert change["before"]["hands"] == change["after"]["hands"] == []
    # A differing second entry is told the hand's number, not the first entry's values.
    answer = second.api(
        "PUT",
        api_url(sheet, "second-entry"),
        {"hands": [hand_json(h) for h in with_difference(12)]},
    )
    assert answer.status_code == 409
    assert [d["hand"] for d in answer.json()["differences"]] == [12]
    assert all("first" not in d for d in answer.json()["differences"])
    differences = second.get(sheet_url(sheet, "scoring:sheet-differences")).text
    assert 'id="differing-hands">12<' in differences
    assert 'name="hand-12"' not in differences
    # The standings count the sheet once it is confirmed, not before.
    standings = visitor(cookies=False).api("GET", f"tournaments/{slug}/standings")
    assert all(
        not row.get("points")
        for row in standings.json().get("rows", standings.json().get("standings", []))
    )
    assert not SheetRead.objects.exists()
    # The first typist sees his own entry.
    assert len(first.api("GET", api_url(sheet)).json()["hands"]) == 24


def test_who_opens_the_blind_first_entry_is_recorded_and_types_no_second_entry(visitor, paper):
    sheet = paper
    first = visitor(cookies=False)
    first.api_log_in("olga", PASSWORD)
    type_in(first, sheet)
    adjudicator = visitor(cookies=False)
    adjudicator.api_log_in("adam", PASSWORD)
    assert adjudicator.api("GET", api_url(sheet)).json()["hands"] == []
    opened = adjudicator.api("POST", api_url(sheet, "first-entry-open"))
    assert opened.status_code == 200, opened.text
    assert len(opened.json()["hands"]) == 24
    assert SheetRead.objects.get().by.username == "adam"
    answer = adjudicator.api(
        "PUT", api_url(sheet, "second-entry"), {"hands": [hand_json(h) for h in full_match()]}
    )
    assert answer.status_code == 400
    assert "You opened the first entry" in answer.json()["by"][0]


# One typist settles the differences alone -------------------------------------------------------


def test_one_typist_only_proposes_and_the_other_agrees_each_step_on_the_record(visitor, paper):
    sheet = paper
    first = visitor(cookies=False)
    first.api_log_in("olga", PASSWORD)
    type_in(first, sheet)
    second = visitor(cookies=False)
    second.api_log_in("zoe", PASSWORD)
    answer = second.api(
        "PUT",
        api_url(sheet, "second-entry"),
        {"hands": [hand_json(h) for h in with_difference(12)]},
    )
    assert answer.status_code == 409
    settle = {"choices": [{"hand": 12, "take": "second"}]}
    # The first typist, alone, takes his own version: a proposal only (it confirmed before).
    answer = first.api(
        "POST", api_url(sheet, "second-entry-settle"), {"choices": [{"hand": 12, "take": "first"}]}
    )
    assert answer.status_code == 202, answer.text
    assert fresh(sheet).status == Scoresheet.Status.SUBMITTED
    # The second typist does not agree (the paper says his): his proposal replaces it ...
    answer = second.api("POST", api_url(sheet, "second-entry-settle"), settle)
    assert answer.status_code == 202
    # ... and the first agrees to it: settled and confirmed.
    answer = first.api("POST", api_url(sheet, "second-entry-settle"), settle)
    assert answer.status_code == 200, answer.text
    sheet = fresh(sheet)
    assert (sheet.status, sheet.confirmation) == ("confirmed", "double_entry")
    steps = list(sheet.changes.order_by("version").values_list("action", "by__username"))
    assert steps[-4:] == [
        (ScoresheetChange.Action.SETTLE_PROPOSED, "olga"),
        (ScoresheetChange.Action.SETTLE_PROPOSED, "zoe"),
        (ScoresheetChange.Action.SETTLE, "olga"),
        (ScoresheetChange.Action.CONFIRM_DOUBLE, "zoe"),
    ]
    assert "Proposed by zoe, agreed by Olga Organ." in sheet.changes.get(action="settle").reason


# A ranking-list maintainer who held a role ----------------------------------------------------------


def finished_tournament(organiser):
    """A tournament ended today, its one round played and closed."""
    today = datetime.date.today()
    tournament = factories.tournament(
        players=4, planned_rounds=1, organiser=organiser, starts_on=today, ends_on=today
    )
    play(tournament)
    tournament.refresh_from_db()
    return tournament


def test_a_maintainer_who_took_his_own_role_away_does_not_admit_the_tournament(visitor):
    organiser = factories.user(username="orga")
    keeper = factories.user(username="listkeeper")
    admin = factories.user(username="admin", is_superuser=True, is_staff=True)
    ranking = ranking_list_save(name="Clubliste", slug="club", months=6, min_rounds=1)
    ranking.tournament_min_players, ranking.tournament_min_rounds = 4, 1
    ranking.save()
    ranking_maintainer_add(ranking_list=ranking, who="listkeeper", by=admin)
    tournament = finished_tournament(organiser)
    grant = factories.role_grant(tournament=tournament, user=keeper, role=Role.ORGANISER)
    ranking_admission_request(ranking_list=ranking, tournament=tournament, by=organiser)
    client = visitor(cookies=False)
    client.api_log_in("listkeeper", PASSWORD)
    # He takes his role away himself (an organiser may), then admits.
    answer = client.api("DELETE", f"tournaments/{tournament.slug}/roles/{grant.pk}")
    assert answer.status_code == 204, answer.text
    assert not TournamentRole.objects.filter(user=keeper).exists()
    answer = client.api("POST", f"rankings/club/admissions/{tournament.slug}/admit", {})
    assert answer.status_code == 403
    assert "were on the staff of this tournament" in answer.json()["detail"]
    assert RankingAdmission.objects.get(tournament=tournament).status == "requested"
