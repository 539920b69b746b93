"""An offence of the TSR is stored by its code and read in the reader's language, whoever
recorded it and in whichever language (docs/writing-german.md)."""

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from adjudication import services
from adjudication.models import Decision, Event, Offence
from doko.rules.penalty import Severity
from tests.adjudication.api.helpers import token
from tests.adjudication.helpers import MATCH, enter
from tournaments.models import TournamentRole

Role = TournamentRole.Role

pytestmark = pytest.mark.django_db


def page(client, name, *args, language):
    response = client.get(reverse(name, args=args), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def api_decision(decision, user, language):
    response = APIClient().get(
        reverse(
            "api:decision", args=[decision.scoresheet.table.round.tournament.slug, decision.pk]
        ),
        headers={"Accept-Language": language, **token(user)},
    )
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize(
    ("recorded_in", "read_in", "shown"),
    [("de", "en", "Not following suit"), ("en", "de", "Nicht bedient")],
)
def test_an_offence_recorded_in_one_language_reads_in_the_other(
    client, tournament, sheet, staff, recorded_in, read_in, shown
):
    enter(sheet, MATCH[:4])
    client.force_login(staff["adjudicator"])
    client.post(
        reverse("adjudication:offences-default", args=[tournament.slug]),
        HTTP_ACCEPT_LANGUAGE=recorded_in,
    )
    offence = Offence.objects.get(tournament=tournament, code="not-following-suit")
    response = client.post(
        reverse("adjudication:complaint-add", args=[tournament.slug, 1, 1]),
        {"hand_number": 3, "offender": 2, "complainant": 1, "offence": offence.pk},
        HTTP_ACCEPT_LANGUAGE=recorded_in,
    )
    decision = Decision.objects.get()
    assert response.url == reverse("adjudication:decision", args=[tournament.slug, decision.pk])
    assert decision.description == ""

    assert shown in page(
        client, "adjudication:decision", tournament.slug, decision.pk, language=read_in
    )
    assert shown in page(client, "adjudication:adjudication", tournament.slug, language=read_in)
    assert shown in page(client, "scoring:table", tournament.slug, 1, 1, language=read_in)
    assert shown in page(client, "adjudication:offences", tournament.slug, language=read_in)
    assert api_decision(decision, staff["adjudicator"], read_in)["offence"] == {
        "id": offence.pk,
        "code": "not-following-suit",
        "name": shown,
        "rule": "TSR 5.2.2",
    }


def test_words_typed_for_a_complaint_stay_as_typed(client, tournament, sheet, staff):
    enter(sheet, MATCH[:4])
    services.offences_default(tournament=tournament, by=staff["organiser"])
    offence = Offence.objects.get(tournament=tournament, code="not-following-suit")
    decision = services.complaint_record(
        scoresheet=sheet,
        hand_number=3,
        offender=2,
        offence=offence,
        description="Kreuz-Zehn abgeworfen, obwohl Kreuz gespielt war",
        by=staff["adjudicator"],
    )
    client.force_login(staff["adjudicator"])
    english = page(client, "adjudication:decision", tournament.slug, decision.pk, language="en")
    assert "Not following suit" in english
    assert "Kreuz-Zehn abgeworfen, obwohl Kreuz gespielt war" in english


def test_the_log_reads_in_the_readers_language(client, tournament, sheet, staff):
    enter(sheet, MATCH[:4])
    with translation.override("de"):
        services.offences_default(tournament=tournament, by=staff["organiser"])
        decision = services.complaint_record(
            scoresheet=sheet,
            hand_number=3,
            offender=2,
            offence=Offence.objects.get(code="not-following-suit"),
            description="",
            by=staff["adjudicator"],
        )
        services.decision_rule(
            decision=decision, ruling=services.Ruling(Severity.MINOR), by=staff["adjudicator"]
        )
    client.force_login(staff["organiser"])
    english = page(client, "adjudication:adjudication-log", tournament.slug, language="en")
    assert "Catalogue: 6 standard offences of the TSR added" in english
    assert "Round 1, table 1, hand 3: complaint against seat 2: Not following suit" in english
    assert "Hand 3, seat 2: minor (TSR 9.3), seat 1: +1, seat 2: -3" in english
    german = page(client, "adjudication:adjudication-log", tournament.slug, language="de")
    assert "Runde 1, Tisch 1, Spiel 3: Reklamation gegen Position 2: Nicht bedient" in german
    assert "Spiel 3, Position 2: geringfügig (TSR 9.3), Position 1: +1, Position 2: -3" in german
    csv = client.get(
        reverse("adjudication:adjudication-log-csv", args=[tournament.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "complaint against seat 2: Not following suit" in b"".join(csv.streaming_content).decode(
        "utf-8-sig"
    )
    log = APIClient().get(
        reverse("api:adjudication-log", args=[tournament.slug]),
        headers={"Accept-Language": "en", **token(staff["organiser"])},
    )
    summaries = [event["summary"] for event in log.json()["results"]]
    assert summaries[1] == "Round 1, table 1, hand 3: complaint against seat 2: Not following suit"


def test_a_log_entry_written_before_stays_as_written(client, tournament, staff):
    Event.objects.create(
        tournament=tournament,
        by=staff["organiser"],
        action=Event.Action.OFFENCE,
        summary="Katalog: Handy klingelt",
    )
    client.force_login(staff["organiser"])
    assert "Katalog: Handy klingelt" in page(
        client, "adjudication:adjudication-log", tournament.slug, language="en"
    )


def test_the_catalogue_is_sorted_by_the_names_its_reader_reads(client, tournament, staff):
    services.offences_default(tournament=tournament, by=staff["organiser"])
    client.force_login(staff["organiser"])
    german = page(client, "adjudication:offences", tournament.slug, language="de")
    unsporting = ["Animieren", "Äußerungen", "Lautes Zählen", "Spielabbruch"]
    assert sorted(unsporting, key=german.index) == unsporting
    english = page(client, "adjudication:offences", tournament.slug, language="en")
    unsporting = ["Counting trumps", "Encouraging", "Gestures", "Hand abandoned"]
    assert sorted(unsporting, key=english.index) == unsporting


def test_an_appointment_reads_in_the_readers_language(client, tournament, staff):
    from tests import factories

    newcomer = factories.user(username="anna")
    entry = tournament.entries.order_by("start_number").first()
    with translation.override("de"):
        services.role_grant(
            tournament=tournament,
            user=newcomer,
            role=Role.ADJUDICATOR,
            entry=entry,
            by=staff["organiser"],
        )
        services.role_revoke(grant=newcomer.tournament_roles.get(), by=staff["organiser"])
    client.force_login(staff["organiser"])
    english = page(client, "adjudication:adjudication-log", tournament.slug, language="en")
    assert f"Appointed: anna as adjudicator, plays as {entry.player}" in english
    assert "No longer: anna as adjudicator" in english
    german = page(client, "adjudication:adjudication-log", tournament.slug, language="de")
    assert "Appointed" not in german
    assert f"anna als Schiedsrichter, spielt als {entry.player}" in german
