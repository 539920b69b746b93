"""Sanctions for unsporting conduct (TSR 9.6): bound decisions, deductions outside every
checksum, disqualification."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from adjudication import services
from adjudication.models import Appeal, Event, Offence, Sanction
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    Role,
    bound_deduction,
    check,
    enter,
    game_points,
    panel,
    plays,
    sanction_appealed,
    seat_entry,
)
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Entry, Round, SeatResult

pytestmark = pytest.mark.django_db


def test_the_points_of_a_bound_decision_are_appealed_to_the_panel(tournament, round_, sheet, staff):
    """The adjudicator deducted 4 from seat 3 alone (TSR 9.6.3); seat 3 appeals, and the
    deduction counts until the panel decides."""
    sanction, appeal = sanction_appealed(tournament, round_, sheet, staff)
    assert (appeal.sanction, appeal.decision, appeal.appellant) == (sanction, None, 3)
    assert check(sheet).totals[3] == game_points(MATCH)[3] - 4
    with pytest.raises(ValidationError, match="appealed already"):
        services.appeal_lodge(sanction=sanction, by=staff["adjudicator"])


def test_the_panel_annuls_a_deduction_and_it_leaves_the_results(tournament, round_, sheet, staff):
    sanction, appeal = sanction_appealed(tournament, round_, sheet, staff)
    panel(appeal, staff, Appeal.Outcome.ANNUL)
    sanction.refresh_from_db()
    assert sanction.status == Sanction.Status.ANNULLED
    result = check(sheet)
    assert result.ok, result.problems
    assert dict(result.totals) == game_points(MATCH)
    factories.sheet_confirmed(sheet, MATCH)
    results = {r.position: r for r in SeatResult.objects.filter(table=sheet.table)}
    assert (results[3].deducted, results[3].points) == (0, game_points(MATCH)[3])


def test_the_panel_changes_a_deduction_and_its_points_count(tournament, round_, sheet, staff):
    sanction, appeal = sanction_appealed(tournament, round_, sheet, staff)
    services.appeal_decide(
        appeal=appeal,
        outcome=Appeal.Outcome.CHANGE,
        members=staff["panel"],
        reasons="Once, not all through the hand.",
        sanction=services.SanctionRuling(Sanction.Kind.DEDUCTION, 2),
        by=staff["panel"][0],
    )
    sanction.refresh_from_db()
    assert sanction.status == Sanction.Status.SUPERSEDED
    own = Sanction.objects.get(appeal=appeal)
    assert (own.kind, own.points, own.status) == ("deduction", 2, Sanction.Status.IN_FORCE)
    assert set(own.members.all()) == set(staff["panel"])
    assert check(sheet).totals[3] == game_points(MATCH)[3] - 2
    with pytest.raises(ValidationError, match="final"):
        services.appeal_lodge(sanction=own, by=staff["adjudicator"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (None, "sanction"),
        (services.SanctionRuling(Sanction.Kind.DISQUALIFICATION), "sanction"),
        (services.SanctionRuling(Sanction.Kind.DEDUCTION, 13), "sanction"),
    ],
)
def test_the_panels_own_sanction_is_checked(tournament, round_, sheet, staff, change, field):
    sanction, appeal = sanction_appealed(tournament, round_, sheet, staff)
    with pytest.raises(ValidationError) as error:
        services.appeal_decide(
            appeal=appeal,
            outcome=Appeal.Outcome.CHANGE,
            members=staff["panel"],
            reasons="x",
            sanction=change,
            by=staff["panel"][0],
        )
    assert field in error.value.message_dict
    sanction.refresh_from_db()
    assert sanction.status == Sanction.Status.IN_FORCE
    assert not Sanction.objects.filter(appeal=appeal).exists()


def test_a_sanction_of_the_panel_is_final(tournament, round_, sheet, staff):
    sanction = services.sanction_impose(
        entry=seat_entry(sheet, 2),
        round=round_,
        kind=Sanction.Kind.WARNING,
        reasons="Loud",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    with pytest.raises(ValidationError, match=r"final \(TSR 8\.2\.1\)"):
        services.appeal_lodge(sanction=sanction, by=staff["adjudicator"])
    assert not Appeal.objects.exists()


def test_the_adjudicator_gives_no_bound_decision_at_his_own_table(tournament, round_, sheet, staff):
    plays(staff["adjudicator"], sheet, 1)
    with pytest.raises(PermissionDenied, match="deputy adjudicator decides this case"):
        bound_deduction(tournament, round_, sheet, staff)
    assert not Sanction.objects.exists()


def test_a_deduction_counts_outside_every_checksum(tournament, round_, sheet, staff):
    """TSR 9.6.2 b: up to 12 points without credit to the others; the sheet's check knows it."""
    enter(sheet, MATCH)
    sanction = services.sanction_impose(
        entry=seat_entry(sheet, 3),
        round=round_,
        kind=Sanction.Kind.DEDUCTION,
        points=6,
        reasons="Insulted the table after a lost solo.",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    assert sanction.points == 6
    result = check(sheet)
    assert result.ok, result.problems
    game = sum(line.points[3] for line in MATCH)
    assert result.totals[3] == game - 6
    assert sum(result.totals.values()) == -6


def test_the_adjudicator_gives_only_bound_decisions(tournament, round_, sheet, staff):
    """TSR 9.6.3: a bound decision with its preset points; anything else is the panel's."""
    adjudicator = staff["adjudicator"]
    services.offences_default(tournament=tournament, by=adjudicator)
    bound = Offence.objects.get(tournament=tournament, bound=True)
    free = Offence.objects.filter(tournament=tournament, kind="unsporting", bound=False).first()
    services.sanction_impose(
        entry=seat_entry(sheet, 1),
        round=round_,
        kind=Sanction.Kind.WARNING,
        offence=bound,
        reasons="Counted trumps aloud.",
        by=adjudicator,
    )
    with pytest.raises(ValidationError, match=r"TSR 9\.6\.3"):
        services.sanction_impose(
            entry=seat_entry(sheet, 1),
            round=round_,
            kind=Sanction.Kind.DEDUCTION,
            points=3,
            offence=bound,
            reasons="Counted trumps aloud again.",
            by=adjudicator,
        )
    for offence in (free, None):
        with pytest.raises(PermissionDenied):
            services.sanction_impose(
                entry=seat_entry(sheet, 1),
                round=round_,
                kind=Sanction.Kind.WARNING,
                offence=offence,
                reasons="x",
                by=adjudicator,
            )
    with pytest.raises(PermissionDenied):
        services.sanction_impose(
            entry=seat_entry(sheet, 1),
            round=round_,
            kind=Sanction.Kind.WARNING,
            offence=bound,
            reasons="x",
            by=staff["organiser"],
        )
    assert Sanction.objects.count() == 1


def test_disqualification_stands_and_a_substitute_takes_the_seat_drawn(
    tournament, round_, sheet, staff
):
    """TSR 9.6.2 c: the round played keeps its results and the player is not ranked. Seven
    players do not fill tables of four (TSR 8.3.1): round 2 keeps the seat, refuses to start,
    and a substitute takes it."""
    later = factories.seated_round(tournament, seed=2)
    entry = seat_entry(sheet, 2)
    services.sanction_impose(
        entry=entry,
        round=round_,
        kind=Sanction.Kind.DISQUALIFICATION,
        reasons="Marked cards.",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED
    assert round_.tables.filter(seats__entry=entry).exists()
    assert entry.pk not in tournament_selectors.entry_ranking(tournament=tournament)
    assert Event.objects.get(action="sanction").details == {"rounds_to_seat_again": [2]}

    factories.sheet_confirmed(sheet, MATCH)
    factories.sheet_confirmed(round_.tables.get(number=2).scoresheet, MATCH)
    factories.round_end(round_)
    tournament_services.round_close(round=round_)
    with pytest.raises(ValidationError, match="disqualified"):
        tournament_services.round_start(round=later)
    substitute = tournament_services.entry_replace(entry=entry, player=factories.player())
    assert later.tables.filter(seats__entry=substitute).exists()
    assert tournament_services.round_start(round=later).status == Round.Status.RUNNING
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED


def test_disqualification_re_seats_a_round_drawn_where_it_can(staff):
    tournament = factories.tournament(
        players=9, organiser=staff["organiser"], allow_tables_of_five=True
    )
    for member in staff["panel"]:
        factories.role_grant(tournament=tournament, user=member, role=Role.PANEL)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    later = factories.seated_round(tournament, seed=2)
    entry = round_.tables.first().seats.get(position=1).entry
    services.sanction_impose(
        entry=entry,
        round=round_,
        kind=Sanction.Kind.DISQUALIFICATION,
        reasons="Marked cards.",
        members=staff["panel"],
        by=staff["panel"][0],
    )
    assert not Round.objects.get(pk=later.pk).tables.filter(seats__entry=entry).exists()
    assert round_.tables.filter(seats__entry=entry).exists()


def test_a_sanction_is_for_a_player_of_the_round(tournament, round_, staff):
    late = tournament_services.entry_create(tournament=tournament, player=factories.player())
    with pytest.raises(ValidationError) as error:
        services.sanction_impose(
            entry=late,
            round=round_,
            kind=Sanction.Kind.WARNING,
            reasons="x",
            members=staff["panel"],
            by=staff["panel"][0],
        )
    assert "entry" in error.value.message_dict


def test_a_deduction_and_its_appeal_raise_the_version_of_its_tables_page(
    tournament, round_, sheet, staff, django_capture_on_commit_callbacks
):
    """The deducted points show on the table's page (TSR 9.6.2 b): its refresh must not be
    answered 304 (``caching.table_version``); the other tables' pages keep theirs."""
    from tournaments import caching

    enter(sheet, MATCH)
    number = sheet.table.number
    before, other = caching.table_version(round_.pk, number), caching.table_version(round_.pk, 2)
    with django_capture_on_commit_callbacks(execute=True):
        bound_deduction(tournament, round_, sheet, staff)
    after = caching.table_version(round_.pk, number)
    assert after != before
    assert caching.table_version(round_.pk, 2) == other
