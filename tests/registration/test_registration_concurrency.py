"""Registration at the same instant on a real PostgreSQL (the `--postgres` pass): the same new
person posted twice at once, on the players page and through the API, makes one player and one
entry, and the second request gets a 400 naming the problem; the same DDV number at once is
never a 500; a CSV list imported into two tournaments at once makes each new person once.

Each request runs in a thread of its own, with its own database connection, and they start
together at a barrier (``tests.threads.together``), so their transactions overlap.
"""

from collections import Counter

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests import factories
from tests.threads import together
from tournaments.models import Entry, Player, Seat, Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Each person is posted twice at once; several people at once make the race likely to show.
PEOPLE = [
    {"first_name": "Anna", "last_name": "Gleichzeitig", "club": "DK Münster"},
    {"first_name": "Bernd", "last_name": "Doppelt", "club": ""},
    {"first_name": "Clara", "last_name": "Zweimal", "club": "Füchse"},
    {"first_name": "Dieter", "last_name": "Parallel", "club": "Füchse"},
]


def _tournament_with_a_drawn_round() -> tuple[Tournament, object]:
    """Sixteen players and round 1 drawn (not started): a late entry takes a fifth seat in it,
    up to four of them."""
    organiser = factories.user()
    tournament = factories.tournament(players=16, organiser=organiser, allow_tables_of_five=True)
    factories.seated_round(tournament)
    return tournament, organiser


def _seated(tournament: Tournament) -> int:
    return Seat.objects.filter(round__tournament=tournament, round__number=1).count()


def _api(organiser) -> APIClient:
    api = APIClient(raise_request_exception=False)
    token, _created = Token.objects.get_or_create(user=organiser)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}", HTTP_ACCEPT_LANGUAGE="en")
    return api


def test_the_same_new_person_registered_twice_at_once_on_the_page_is_one_entry():
    tournament, organiser = _tournament_with_a_drawn_round()
    players_before = Player.objects.count()
    url = reverse("tournaments:entries", args=[tournament.slug])

    def post(person):
        def request():
            client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
            client.force_login(organiser)
            return client.post(url, {**person, "ddv_number": "", "start_number": ""})

        return request

    answers = together([post(person) for person in PEOPLE for _twice in range(2)])

    codes = [answer.status_code for answer in answers]
    for first, second in zip(codes[::2], codes[1::2], strict=True):
        assert sorted([first, second]) == [302, 400], codes
    refused = [answer for answer in answers if answer.status_code == 400]
    assert all(b"already registered" in answer.content for answer in refused)
    # One player and one entry per person, and each seated once in the drawn round.
    assert Player.objects.count() == players_before + len(PEOPLE)
    assert tournament.entries.count() == 16 + len(PEOPLE)
    assert _seated(tournament) == 16 + len(PEOPLE)
    assert (
        Counter(tournament.entries.values_list("player__last_name", flat=True)).most_common(1)[0][1]
        == 1
    )


def test_the_same_new_person_registered_twice_at_once_through_the_api_is_one_entry():
    tournament, organiser = _tournament_with_a_drawn_round()
    players_before = Player.objects.count()
    url = reverse("api:entries", args=[tournament.slug])
    api_clients = [_api(organiser) for _ in range(2 * len(PEOPLE))]

    def post(api, person):
        return lambda: api.post(url, person, format="json")

    answers = together(
        [
            post(api, person)
            for api, person in zip(
                api_clients, [person for person in PEOPLE for _twice in range(2)], strict=True
            )
        ]
    )

    codes = [answer.status_code for answer in answers]
    for first, second in zip(codes[::2], codes[1::2], strict=True):
        assert sorted([first, second]) == [201, 400], codes
    for answer in answers:
        if answer.status_code == 400:
            assert answer.json() == {"non_field_errors": ["This player is already registered."]}
    assert Player.objects.count() == players_before + len(PEOPLE)
    assert tournament.entries.count() == 16 + len(PEOPLE)
    assert _seated(tournament) == 16 + len(PEOPLE)


def test_one_ddv_number_registered_at_once_is_one_player_and_never_a_500():
    tournament, organiser = _tournament_with_a_drawn_round()
    other, other_organiser = _tournament_with_a_drawn_round()
    person = {"first_name": "Erika", "last_name": "Nummer", "ddv_number": "4711"}
    # Twice in one tournament, and once in another, all at the same instant.
    requests = [
        (_api(organiser), tournament),
        (_api(organiser), tournament),
        (_api(other_organiser), other),
    ]

    answers = together(
        [
            (
                lambda api=api, t=t: api.post(
                    reverse("api:entries", args=[t.slug]), person, format="json"
                )
            )
            for api, t in requests
        ]
    )

    codes = [answer.status_code for answer in answers]
    assert sorted(codes[:2]) == [201, 400], [answer.content for answer in answers]
    assert codes[2] == 201, answers[2].content
    (player,) = Player.objects.filter(ddv_number="4711")
    assert Entry.objects.filter(player=player).count() == 2
    assert tournament.entries.filter(player=player).count() == 1
    assert other.entries.filter(player=player).count() == 1


CSV = (
    "Vorname;Nachname;Verein;DDV-Nr\n"
    "Fritz;Importiert;DK Münster;9001\n"
    "Gerda;Importiert;DK Münster;9002\n"
    "Hanna;Ohne-Nummer;Füchse;\n"
    "Ingo;Ohne-Nummer;;\n"
).encode()


def _import(api: APIClient, tournament: Tournament):
    upload = SimpleUploadedFile("players.csv", CSV, content_type="text/csv")
    return lambda: api.post(
        reverse("api:players-import", args=[tournament.slug]), {"file": upload}, format="multipart"
    )


def test_one_csv_list_imported_into_two_tournaments_at_once_makes_each_person_once():
    tournament, organiser = _tournament_with_a_drawn_round()
    other, other_organiser = _tournament_with_a_drawn_round()
    players_before = Player.objects.count()

    answers = together(
        [_import(_api(organiser), tournament), _import(_api(other_organiser), other)]
    )

    assert [answer.status_code for answer in answers] == [201, 201], [
        answer.content for answer in answers
    ]
    assert Player.objects.count() == players_before + 4
    imported = Player.objects.filter(last_name__in=["Importiert", "Ohne-Nummer"])
    assert set(tournament.entries.filter(player__in=imported).values_list("player", flat=True)) == (
        set(other.entries.filter(player__in=imported).values_list("player", flat=True))
    )
    assert _seated(tournament) == _seated(other) == 20


def test_one_csv_list_imported_twice_at_once_into_one_tournament_is_imported_once():
    tournament, organiser = _tournament_with_a_drawn_round()
    players_before = Player.objects.count()

    answers = together([_import(_api(organiser), tournament), _import(_api(organiser), tournament)])

    assert sorted(answer.status_code for answer in answers) == [201, 400]
    (refused,) = [answer for answer in answers if answer.status_code == 400]
    assert "already registered" in refused.json()["file"][0]
    assert Player.objects.count() == players_before + 4
    assert tournament.entries.count() == 20
    assert _seated(tournament) == 20


def test_a_ddv_number_corrected_while_it_is_registered_elsewhere_is_never_a_500():
    tournament, organiser = _tournament_with_a_drawn_round()
    other, other_organiser = _tournament_with_a_drawn_round()
    entry = tournament.entries.get(start_number=1)
    correction = {
        "first_name": entry.player.first_name,
        "last_name": entry.player.last_name,
        "club": "",
        "ddv_number": "5555",
        "start_number": 1,
    }
    page = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(organiser)
    api = _api(other_organiser)
    newcomer = {"first_name": "Nina", "last_name": "Neu", "ddv_number": "5555"}

    corrected, registered = together(
        [
            lambda: page.post(
                reverse("tournaments:entry-edit", args=[tournament.slug, 1]), correction
            ),
            lambda: api.post(reverse("api:entries", args=[other.slug]), newcomer, format="json"),
        ]
    )

    # The number is one person's, and the two name two people: whichever came first has it,
    # and the other is refused on the number (the correction made the organiser's own person,
    # who plays nowhere else, Nina's namesake no more).
    assert sorted([corrected.status_code, registered.status_code]) in ([201, 400], [302, 400])
    (player,) = Player.objects.filter(ddv_number="5555")
    if corrected.status_code == 400:
        assert b"belongs to a person registered under a different name" in corrected.content
        assert other.entries.filter(player=player).exists()
        assert not tournament.entries.filter(player=player).exists()
    else:
        assert list(registered.json()) == ["ddv_number"]
        assert tournament.entries.filter(player=player, start_number=1).exists()
        assert not other.entries.filter(player=player).exists()
