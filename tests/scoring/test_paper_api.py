"""Paper sheets through the API: confirmed from the signed sheet (TSR 7.3.4, 8.5.2), or by a
second member of the desk typing the sheet again blind (double entry)."""

from dataclasses import replace

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from doko.sample_sheets import full_match
from scoring.models import Scoresheet, SecondEntry
from tests import factories
from tests.scoring.test_sheet_api import hand_json, key
from tests.scoring.test_sheet_api import token as api_token
from tournaments import services as tournament_services
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


@pytest.fixture
def organiser():
    return factories.user(username="olga", first_name="Olga", last_name="Organ")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    tournament = factories.tournament(players=8, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(
        table__round=round_, table__number=1
    )


@pytest.fixture
def api():
    return APIClient()


def token(user) -> dict:
    return {**api_token(user), "Accept-Language": "en"}


def url(sheet, action=""):
    table = sheet.table
    name = "api:scoresheet" + (f"-{action}" if action else "")
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def type_in(api, sheet, user, hands=None):
    """The sheet typed and handed in by ``user`` through the API; the sheet's version after."""
    answer = api.put(
        url(sheet),
        {"version": sheet.version, "hands": [hand_json(line) for line in hands or full_match()]},
        format="json",
        headers=token(user),
    )
    assert answer.status_code == 200, answer.json()
    answer = api.post(
        url(sheet, "submit"),
        {"version": answer.json()["version"]},
        format="json",
        headers=token(user),
    )
    assert answer.status_code == 200, answer.json()
    return answer.json()["version"]


def test_the_organiser_confirms_the_sheet_he_typed_from_the_signed_sheet(api, sheet, organiser):
    version = type_in(api, sheet, organiser)
    answer = api.post(
        url(sheet, "confirm"),
        {"version": version, "from_signed_sheet": True},
        format="json",
        headers=token(organiser),
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["status"], body["confirmation"]) == ("confirmed", "signed_sheet")
    assert body["submitted_by"] == body["confirmed_by"] == "Olga Organ"
    changes = api.get(url(sheet, "changes"), headers=token(organiser)).json()
    assert [(c["action"], c["by_name"]) for c in changes[-2:]] == [
        ("submit", "Olga Organ"),
        ("confirm_signed", "Olga Organ"),
    ]


def test_confirming_from_the_signed_sheet_is_refused_on_phones_only_with_the_reason(
    api, sheet, organiser
):
    version = type_in(api, sheet, organiser)
    tournament = sheet.table.round.tournament
    tournament.sheet_keeping = SheetKeeping.PHONES
    tournament.save()
    answer = api.post(
        url(sheet, "confirm"),
        {"version": version, "from_signed_sheet": True},
        format="json",
        headers=token(organiser),
    )
    assert answer.status_code == 400
    assert "keeps its scoresheets on phones" in answer.json()["from_signed_sheet"][0]


def test_a_seat_key_cannot_confirm_from_the_signed_sheet(api, sheet, organiser):
    version = type_in(api, sheet, organiser)
    answer = api.post(
        url(sheet, "confirm"),
        {"version": version, "from_signed_sheet": True},
        format="json",
        headers=key(sheet, 1),
    )
    assert answer.status_code == 403


@pytest.fixture
def double(sheet, organiser):
    """Double entry on; the organiser typed and handed in the sheet; a scorekeeper account of
    the desk types it again."""
    tournament = sheet.table.round.tournament
    tournament.double_entry = True
    tournament.save()
    second = factories.user(username="zweite", first_name="Zoë", last_name="Zweig")
    factories.role_grant(tournament=tournament, user=second, role=Role.SCOREKEEPER)
    type_in(APIClient(), sheet, organiser)
    return second


def second_entry(api, sheet, user, hands):
    return api.put(
        url(sheet, "second-entry"),
        {"hands": [hand_json(line) for line in hands]},
        format="json",
        headers=token(user),
    )


def test_a_second_member_typing_the_same_hands_confirms_the_sheet(api, sheet, double):
    answer = second_entry(api, sheet, double, full_match())
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["status"], body["confirmation"]) == ("confirmed", "double_entry")
    assert (body["submitted_by"], body["confirmed_by"]) == ("Olga Organ", "Zoë Zweig")


def test_one_different_hand_is_a_409_listing_exactly_that_hand(api, sheet, double, organiser):
    hands = full_match()
    hands[11] = replace(hands[11], points={s: -p for s, p in hands[11].points.items()})
    answer = second_entry(api, sheet, double, hands)
    assert answer.status_code == 409
    body = answer.json()
    assert [difference["hand"] for difference in body["differences"]] == [12]
    difference = body["differences"][0]
    assert difference["second"]["points"] == [hands[11].points[s] for s in (1, 2, 3, 4)]
    # Never what the first entry has there: the second typist must not learn it.
    assert "first" not in difference
    assert body["second_entry"]["by"] == "Zoë Zweig"
    # The first entry is intact.
    sheet_body = api.get(url(sheet), headers=token(organiser)).json()
    assert sheet_body["status"] == "submitted"
    assert sheet_body["hands"][11]["points"] == {
        str(s): p for s, p in full_match()[11].points.items()
    }
    # Settled from the paper by both typists, it is confirmed: the first proposes (202), the
    # second agrees.
    settle = {"choices": [{"hand": 12, "take": "first"}]}
    answer = api.post(
        url(sheet, "second-entry-settle"), settle, format="json", headers=token(organiser)
    )
    assert answer.status_code == 202, answer.json()
    assert answer.json()["status"] == "submitted"
    answer = api.post(
        url(sheet, "second-entry-settle"), settle, format="json", headers=token(double)
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["confirmation"] == "double_entry"


def test_the_first_typists_own_second_entry_is_refused(api, sheet, double, organiser):
    answer = second_entry(api, sheet, organiser, full_match())
    assert answer.status_code == 400
    assert "You typed the first entry" in answer.json()["by"][0]
    assert not SecondEntry.objects.exists()


def test_a_plain_confirm_of_a_desk_typed_sheet_is_refused_under_double_entry(api, sheet, double):
    version = Scoresheet.objects.get(pk=sheet.pk).version
    answer = api.post(
        url(sheet, "confirm"), {"version": version}, format="json", headers=token(double)
    )
    assert answer.status_code == 400
    assert "second, blind entry" in answer.json()["confirmed_by"][0]


def test_a_seat_key_gets_403_on_the_second_entry(api, sheet, double):
    answer = api.get(url(sheet, "second-entry"), headers=key(sheet, 1))
    assert answer.status_code == 403


def test_the_second_entry_is_read_back_and_discarded(api, sheet, double, organiser):
    hands = full_match()
    hands[0] = replace(hands[0], points={s: -p for s, p in hands[0].points.items()})
    assert second_entry(api, sheet, double, hands).status_code == 409
    body = api.get(url(sheet, "second-entry"), headers=token(organiser)).json()
    assert (body["by"], len(body["hands"]), body["differences"]) == ("Zoë Zweig", 24, [1])
    assert api.delete(url(sheet, "second-entry"), headers=token(organiser)).status_code == 204
    assert api.get(url(sheet, "second-entry"), headers=token(organiser)).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"choices": [{"hand": 12, "take": "both"}]},
        {"choices": [{"hand": "x", "take": "first"}]},
        {"choices": [{"hand": 12, "take": "first"}, {"hand": 12, "take": "second"}]},
        {"choices": "all"},
        [],
    ],
)
def test_a_malformed_settlement_is_a_400_naming_the_field(api, sheet, double, organiser, body):
    answer = api.post(
        url(sheet, "second-entry-settle"), body, format="json", headers=token(organiser)
    )
    assert answer.status_code == 400
