"""Scoresheets on paper (TSR 7.3): blank ones for every table of a round with the scorekeeper's
link as a QR code, and the completed sheet of a table as confirmed; both built by a job."""

import datetime
import io

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import formats, timezone, translation
from pypdf import PdfReader

from adjudication import services as adjudication_services
from adjudication.models import Sanction
from doko.rules.penalty import Severity
from doko.sample_sheets import full_match
from printing.models import Job
from printing.pdf import scoresheets as pdf
from scoring import services
from scoring.models import Scoresheet
from scoring.selectors import hand_lines, sheet_state
from tests import factories
from tests.printing.helpers import unsaved_tables
from tournaments import qr, selectors
from tournaments import services as tournament_services
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def pages_of(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def operators_of(content: bytes) -> list[str]:
    return [
        page.get_contents().get_data().decode("latin-1")
        for page in PdfReader(io.BytesIO(content)).pages
    ]


def qr_drawn(operators: str, url: str) -> bool:
    """Whether the page draws the QR code of ``url`` (its runs, as tournaments.qr makes them)."""
    return qr.pdf_operators(qr.qr_rows(url)) in operators


def blank(tournament, tables, **options):
    seen = []
    content = pdf.blank_scoresheets_pdf(
        tournament=tournament, round_number=3, tables=tables, progress=seen.append, **options
    )
    assert seen == sorted(seen)
    assert seen[-1] == 100
    return content


def test_a_blank_sheet_per_table_with_its_players_and_the_keepers_link():
    tournament = factories.tournament(name="Pokal <Kreuz & Pik>", venue="Köln")
    tables = unsaved_tables(4, 5, 4)
    asked = []

    def url_for_seat(seat):
        asked.append(seat.position)
        return f"https://doko.example/s/key-{seat.entry.start_number}/"

    content = blank(tournament, tables, url_for_seat=url_for_seat)
    pages = pages_of(content)
    assert len(pages) == 3
    assert asked == [4, 5, 4]  # the scorekeeper: seat 4, at a table of five seat 5 (TSR 8.4.1)
    first, five = pages[0], pages[1]
    for text in pages:
        assert "Pokal <Kreuz & Pik>" in text
        assert "Round 3" in text
        assert "forced solos included" in text
        assert "Extra time and end of the playing time" in text
        assert "Initials" in text
    assert "Table 1" in first
    assert "Vorname1 Name1" in first
    assert "Vorname4 Name4" in first
    assert "Seat 1 deals first, seat 4 keeps the sheet (TSR 8.4.1)." in first
    # 24 lines, the compulsory solos included: 20 + 4 (TSR 8.5.1, 10.2.1)
    assert "Main section: 20 hands" in first
    assert "Compulsory solos, forced solos included: 4 hands (TSR 4.2.3, 4.2.4)" in first
    assert "Table of five" in five
    assert "Table of five" not in first
    assert "seat 5 keeps the sheet" in five
    assert "Main section: 25 hands" in five  # 25 + 5 = 30, TSR 10.1.5
    assert "forced solos included: 5 hands" in five
    assert "Vorname9 Name9" in five
    operators = operators_of(content)
    assert qr_drawn(operators[0], "https://doko.example/s/key-4/")
    assert qr_drawn(operators[1], "https://doko.example/s/key-9/")
    assert "https://doko.example/s/key-4/" in "".join(first.split())


def test_a_blank_sheet_has_a_signature_box_for_each_seat_beside_the_totals():
    """Issue 47: the desk confirms a paper sheet from its signatures (TSR 7.3.4, 8.5.2), so
    the sheet has a place for every player of the table, five at a table of five."""
    pages = pages_of(blank(factories.tournament(), unsaved_tables(4, 5)))
    for text, size in zip(pages, (4, 5), strict=True):
        assert "Each player signs his total (TSR 7.3.4, 8.5.2)" in text
        for seat in range(1, size + 1):
            assert f"Signature, seat {seat}" in text
        assert f"Signature, seat {size + 1}" not in text


def test_the_grid_is_drawn_once_per_table_size():
    """The shared frame is a form (XObject): a round of many tables stays small and fast."""
    tables = unsaved_tables(*[4] * 30, 5, 5)
    content = blank(factories.tournament(), tables)
    reader = PdfReader(io.BytesIO(content))
    forms = set()
    for page in reader.pages:
        forms |= set(page["/Resources"]["/XObject"].keys())
    assert len(forms) == 2
    # Per page more: the table's own text only (the embedded font is paid for once).
    two = blank(factories.tournament(), unsaved_tables(5, 4))
    assert len(content) - len(two) < 2 * 1024 * (len(tables) - 2)


def test_a_round_without_tables_says_so():
    text = pages_of(blank(factories.tournament(), []))[0]
    assert "has not been drawn yet" in text


def test_blank_sheets_in_german():
    tables = unsaved_tables(4)
    with translation.override("de"):
        text = pages_of(blank(factories.tournament(), tables))[0]
    assert "Runde 3" in text
    assert "Tisch 1" in text
    assert "Pflichtsoli" in text


# The completed sheet ------------------------------------------------------------------------


@pytest.fixture
def client(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


def running_table(organiser, *, players=4, started_at=None):
    """Round 1 running; with 5 or 9 players at a table of five too (TSR 10)."""
    tournament = factories.tournament(
        players=players, organiser=organiser, name="Pokal", allow_tables_of_five=True
    )
    round_ = factories.seated_round(tournament)
    round_ = tournament_services.round_start(round=round_, at=started_at)
    return tournament, round_


def confirmed_sheet(round_, size):
    sheet = Scoresheet.objects.get(table__round=round_, table__number=1)
    return factories.sheet_confirmed(sheet, full_match(size=size))


@pytest.mark.parametrize("size", [4, 5])
def test_the_completed_sheet_shows_every_hand_totals_and_who_confirmed(organiser, size):
    _, round_ = running_table(organiser, players=size)
    sheet = confirmed_sheet(round_, size)
    state = sheet_state(sheet=sheet)
    seen = []
    content = pdf.scoresheet_pdf(
        scoresheet=state.sheet, seats=state.seats, rows=state.rows, progress=seen.append
    )
    (text,) = pages_of(content)
    assert "Completed scoresheet" in text
    assert "Status: confirmed" in text
    keeper, checker = state.seats[-1].entry.player.name, state.seats[0].entry.player.name
    assert f"{keeper} (seat {size})" in text
    assert f"{checker} (seat 1)" in text
    assert "Compulsory solo" in text
    for total in state.rows[-1].totals:
        assert str(total) in text
    assert seen[-1] == 100
    main = 20 if size == 4 else 25
    assert f"Main section: {main} hands" in text
    assert f"forced solos included: {size} hands" in text


def test_the_end_of_the_playing_time_and_extra_time_are_on_the_completed_sheet(organiser):
    now = timezone.now()
    _tournament, round_ = running_table(organiser, started_at=now - datetime.timedelta(hours=2))
    sheet = Scoresheet.objects.get(table__round=round_)
    tournament_services.table_extra_time_grant(
        table=sheet.table, minutes=4, reason="Beschwerde an Tisch 1", by=organiser
    )
    # The end was announced 5 minutes ago: with its 4 minutes the table's time is over.
    factories.round_end(round_, at=now - datetime.timedelta(minutes=5))
    lines = full_match()[:10]
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet,
        hands=lines,
        version=sheet.version,
        by=factories.keeper(sheet),
        time_over_after_hand=10,
    )
    state = sheet_state(sheet=sheet)
    content = pdf.scoresheet_pdf(
        scoresheet=state.sheet,
        seats=state.seats,
        rows=state.rows,
        extra_times=list(sheet.table.extra_times.all()),
        progress=lambda percent: None,
    )
    (text,) = pages_of(content)
    assert "The playing time ended after hand 10 (TSR 8.5.3)." in text
    assert "4 minutes extra time: Beschwerde an Tisch 1 (Olga Organ" in text
    assert "Status: draft" in text


def test_a_sheet_ended_early_says_so_and_why_and_marks_a_replay(organiser):
    """A table that could not finish: the decision that ended its sheet is on the PDF, and a
    game dealt again under TSR 9.1.3 is marked as such."""
    _tournament, round_ = running_table(organiser)
    sheet = Scoresheet.objects.get(table__round=round_)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:6], version=sheet.version, by=factories.keeper(sheet)
    )
    adjudicator = factories.adjudicator(round_.tournament)
    sheet = services.scoresheet_hand_replay(
        scoresheet=sheet,
        version=sheet.version,
        replay="consent",
        by=services.Actor(user=adjudicator),
    )
    sheet = services.scoresheet_end_early(
        scoresheet=sheet,
        version=sheet.version,
        reason="Position 3 krank ausgeschieden",
        by=services.Actor(user=organiser),
    )
    state = sheet_state(sheet=sheet)
    content = pdf.scoresheet_pdf(
        scoresheet=state.sheet, seats=state.seats, rows=state.rows, progress=lambda percent: None
    )
    (text,) = pages_of(content)
    assert "Ended early, 18 hands not played, compulsory solos owed waived" in text
    assert "Position 3 krank ausgeschieden (Olga Organ" in text
    assert "dealt again (TSR 9.1.3)" in text


# What the adjudicators decided on the completed sheet ---------------------------------------


def adjudicated_sheet(organiser):
    """A confirmed sheet with a minor breach in hand 3 initialled by Anna Richter, hand 5
    stopped by a major breach and initialled by an adjudicator without a name (TSR 9.4.3), a
    ruling on hand 2 never initialled, and 6 points deducted from seat 3 (TSR 9.6.2 b)."""
    tournament, round_ = running_table(organiser)
    richter = factories.user(username="richter", first_name="Anna", last_name="Richter")
    nameless = factories.user(username="ref2")
    panel = factories.user(username="panel1")
    for user, role in ((richter, "adjudicator"), (nameless, "adjudicator"), (panel, "panel")):
        factories.role_grant(tournament=tournament, user=user, role=role)
    sheet = Scoresheet.objects.get(table__round=round_)
    match = full_match()
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=match[:4], version=sheet.version, by=factories.keeper(sheet)
    )

    def decide(hand, offender, ruling, by, *, initial=True):
        decision = adjudication_services.complaint_record(
            scoresheet=sheet, hand_number=hand, offender=offender, description="Revoke", by=by
        )
        decision = adjudication_services.decision_rule(decision=decision, ruling=ruling, by=by)
        if initial:
            decision = adjudication_services.decision_initial(decision=decision, by=by)
        return decision

    Ruling = adjudication_services.Ruling
    minor = decide(3, 2, Ruling(Severity.MINOR), richter)  # +1, -3, +1, +1
    decide(
        2,
        4,
        # Deviating to other points of the TSR's scale (TSR 9.4.3, one point announcement).
        Ruling(Severity.MINOR, penalty={1: 5, 2: 5, 3: 5, 4: -15}, deviation_reason="x"),
        richter,
        initial=False,
    )
    stopped = decide(5, 1, Ruling(Severity.MAJOR), nameless)  # -12, +4, +4, +4
    sheet.refresh_from_db()
    sheet = factories.sheet_confirmed(sheet, [*hand_lines(list(sheet.hands.all())), *match[4:]])
    adjudication_services.sanction_impose(
        entry=sheet.table.seats.get(position=3).entry,
        round=sheet.table.round,
        kind=Sanction.Kind.DEDUCTION,
        points=6,
        reasons="Insulted the table.",
        members=[panel],
        by=panel,
    )
    return sheet, minor, stopped


def at(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "H:i")


def test_the_completed_sheet_shows_penalty_points_initials_and_deductions(
    organiser, django_assert_num_queries
):
    """TSR 8.2.2: the initialled penalty points in their line with who initialled them and
    when, counted in the running totals; TSR 9.4.3: the stopped hand marked not played;
    TSR 9.6.2 b: the deduction beneath the grid and in the totals, outside the checksum."""
    sheet, minor, stopped = adjudicated_sheet(organiser)
    state = sheet_state(sheet=sheet)
    with django_assert_num_queries(0):  # the adjudication is read once, with the state
        content = pdf.scoresheet_pdf(
            scoresheet=state.sheet,
            seats=state.seats,
            rows=state.rows,
            adjudication=state.adjudication,
            progress=lambda percent: None,
        )
    (text,) = pages_of(content)
    for points in ("P +1", "P -3", "P -12", "P +4"):
        assert points in text
    assert "P +5" not in text  # the ruling never initialled
    assert "P -15" not in text
    assert f"AR\n{at(minor.initialled_at)}" in text
    assert f"ref2\n{at(stopped.initialled_at)}" in text
    assert text.count("not played (TSR 9.4.3)") == 1
    assert "Seat 3: -6 points deducted (TSR 9.6.2 b)" in text
    assert "P: penalty points of the initialled decisions" in text

    game = {seat: sum(line.points[seat] for line in full_match()) for seat in range(1, 5)}
    penalty = {1: 1 - 12, 2: -3 + 4, 3: 1 + 4, 4: 1 + 4}
    final = {seat: game[seat] + penalty[seat] - (6 if seat == 3 else 0) for seat in range(1, 5)}
    assert final == dict(state.check.totals)  # as the sheet's page shows them
    assert state.rows[-1].totals == [game[seat] + penalty[seat] for seat in range(1, 5)]
    listed = " · ".join(f"seat {seat}: {total}" for seat, total in final.items())
    assert f"Final totals with the deductions: {listed}" in text
    # The grid's total line: each seat's final total, seat 3's beside its deduction.
    cells = [str(final[1]), str(final[2]), "-6 deducted", str(final[3]), str(final[4])]
    assert "\n".join(cells) in text


def test_a_sheet_without_decisions_has_no_adjudication_notes(organiser):
    _, round_ = running_table(organiser)
    state = sheet_state(sheet=confirmed_sheet(round_, 4))
    content = pdf.scoresheet_pdf(
        scoresheet=state.sheet,
        seats=state.seats,
        rows=state.rows,
        adjudication=state.adjudication,
        progress=lambda percent: None,
    )
    (text,) = pages_of(content)
    assert "P +" not in text
    assert "P -" not in text
    assert "not played" not in text
    assert "deducted" not in text


def test_the_printed_sheet_job_shows_the_adjudication(
    client, organiser, django_capture_on_commit_callbacks
):
    sheet, minor, _stopped = adjudicated_sheet(organiser)
    tournament = sheet.table.round.tournament
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("printing:sheet-pdf", args=[tournament.slug, 1, 1]))
    job = Job.objects.get()
    assert job.status == Job.Status.DONE, job.error
    content = b"".join(
        client.get(reverse("printing:job-download", args=[job.pk])).streaming_content
    )
    (text,) = pages_of(content)
    assert "P -3" in text
    assert f"AR\n{at(minor.initialled_at)}" in text
    assert "not played (TSR 9.4.3)" in text
    assert "Seat 3: -6 points deducted (TSR 9.6.2 b)" in text


# Jobs and pages -----------------------------------------------------------------------------


def test_the_blank_sheets_job_prints_each_keepers_private_link(
    client, organiser, django_capture_on_commit_callbacks
):
    tournament, round_ = running_table(organiser, players=9)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("printing:round-print", args=[tournament.slug, 1, "scoresheets"])
        )
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    assert job.status == Job.Status.DONE
    assert job.file.name.endswith("-scoresheets.pdf")
    content = b"".join(
        client.get(reverse("printing:job-download", args=[job.pk])).streaming_content
    )
    operators = operators_of(content)
    assert len(operators) == 2
    for row, page in zip(selectors.round_tables(round=round_), operators, strict=True):
        keeper = Seat.objects.get(table=row.table, position=len(row.seats))
        url = "http://testserver" + reverse("scoring:sheet-link", args=[keeper.token])
        assert qr_drawn(page, url)


def test_a_sheet_handed_over_prints_its_new_keeper(
    client, organiser, django_capture_on_commit_callbacks
):
    """TSR 3.1.1: printed again after the sheet was handed over, the blank sheet carries the new
    scorekeeper's link, and the completed sheet names who kept it."""
    tournament, round_ = running_table(organiser)
    sheet = Scoresheet.objects.get(table__round=round_)
    sheet = services.scoresheet_keeper_move(
        scoresheet=sheet, seat=2, version=1, by=services.Actor(user=organiser)
    )
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("printing:round-print", args=[tournament.slug, 1, "scoresheets"]))
    job = Job.objects.get()
    content = b"".join(
        client.get(reverse("printing:job-download", args=[job.pk])).streaming_content
    )
    keeper = Seat.objects.get(table=sheet.table, position=2)
    [page] = operators_of(content)
    assert qr_drawn(page, "http://testserver" + reverse("scoring:sheet-link", args=[keeper.token]))
    assert "Scorekeeper's link (seat 2)" in pages_of(content)[0]
    sheet = factories.sheet_confirmed(sheet, full_match())
    state = sheet_state(sheet=sheet)
    text = pages_of(
        pdf.scoresheet_pdf(
            scoresheet=state.sheet, seats=state.seats, rows=state.rows, progress=lambda p: None
        )
    )[0]
    assert "Seat 2 kept the sheet, by agreement at the table (TSR 3.1.1)." in text
    assert f"{keeper.entry.player.name} (seat 2)" in text  # handed it in


def test_the_organiser_prints_a_tables_sheet_from_its_page(
    client, organiser, django_capture_on_commit_callbacks
):
    tournament, round_ = running_table(organiser)
    sheet = confirmed_sheet(round_, 4)
    client.force_login(organiser)
    url = reverse("scoring:sheet", args=[tournament.slug, 1, 1])
    page = client.get(url).content.decode()
    assert "Completed scoresheet (PDF)" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("printing:sheet-pdf", args=[tournament.slug, 1, 1]))
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    assert job.table == sheet.table
    assert job.status == Job.Status.DONE, job.error
    assert job.file.name.endswith("-table-1.pdf")
    content = b"".join(
        client.get(reverse("printing:job-download", args=[job.pk])).streaming_content
    )
    assert "Status: confirmed" in pages_of(content)[0]


def test_only_the_organiser_prints_a_sheet(client, organiser):
    tournament, round_ = running_table(organiser)
    adjudicator = factories.user()
    factories.role_grant(tournament=tournament, user=adjudicator, role="adjudicator")
    client.force_login(adjudicator)
    assert (
        "(PDF)"
        not in client.get(reverse("scoring:sheet", args=[tournament.slug, 1, 1])).content.decode()
    )
    assert (
        client.post(reverse("printing:sheet-pdf", args=[tournament.slug, 1, 1])).status_code == 403
    )
    client.logout()
    keeper = Seat.objects.get(round=round_, position=4)
    link = reverse("scoring:sheet-link", args=[keeper.token])
    assert "(PDF)" not in client.get(link).content.decode()
    assert client.post(link + "pdf/").status_code == 404
    assert not Job.objects.exists()


def test_only_a_scoresheet_job_names_a_table(organiser):
    tournament, round_ = running_table(organiser)
    table = round_.tables.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Job.objects.create(
            tournament=tournament, round=round_, kind=Job.Kind.SCORESHEET_PDF, language="en"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Job.objects.create(
            tournament=tournament,
            round=round_,
            table=table,
            kind=Job.Kind.SCORESHEETS_PDF,
            language="en",
        )


def test_a_blank_sheet_at_six_and_seven_has_a_column_per_seat_and_names_who_sits_out():
    """Tables of six and seven (TSR 10): the last seat keeps the sheet, the dealer and the
    players to his left sit out, 30 (35) lines in the main section and 6 (7) solos."""
    tournament = factories.tournament(allow_tables_of_six_and_seven=True)
    tables = unsaved_tables(6, 7)
    asked = []

    def url_for_seat(seat):
        asked.append(seat.position)
        return f"https://doko.example/s/key-{seat.entry.start_number}/"

    pages = pages_of(blank(tournament, tables, url_for_seat=url_for_seat))
    assert asked == [6, 7]
    six, seven = pages
    assert "Table of six" in six
    assert "seat 6 keeps the sheet; the dealer and the player to his left sit out" in six
    assert "Table of seven" in seven
    assert "the dealer and the 2 players to his left sit out" in seven
    assert "Vorname7 Name7" in seven
