"""Running rounds: draw by method, publish, late entries and withdrawals, clock, extra time."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from tests import factories
from tournaments import selectors, services
from tournaments.models import Entry, Round, Seat, SeatingMethod

pytestmark = pytest.mark.django_db


def seats_of(round_: Round) -> dict[int, tuple[int, int]]:
    """entry id -> (table number, seat)"""
    return {
        entry_id: (table, position)
        for entry_id, table, position in Seat.objects.filter(round=round_).values_list(
            "entry_id", "table__number", "position"
        )
    }


def play(round_: Round) -> None:
    """Start, play and confirm every table of the round, and close it."""
    services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    factories.round_end(round_)
    services.round_close(round=round_)


def test_ddv_method_draws_every_planned_round_at_once_without_repeats():
    tournament = factories.tournament(
        players=32, planned_rounds=3, seating_method=SeatingMethod.DDV
    )
    first = services.round_seat(round=services.round_create(tournament=tournament), seed=5)
    rounds = list(tournament.rounds.order_by("number"))
    assert [(r.number, r.status, r.seating_seed) for r in rounds] == [
        (1, "seated", 5),
        (2, "seated", 5),
        (3, "seated", 5),
    ]
    quality = selectors.seating_quality(round=rounds[-1])
    assert quality.rounds == 3
    assert quality.repeat_meetings == 0
    assert quality.most_in_one_position == 1
    assert all(len(seats_of(r)) == 32 for r in rounds)
    assert first.published_at is None
    # Publishing all at once, the DDV way.
    assert len(services.tournament_seating_publish(tournament=tournament)) == 3
    assert not tournament.rounds.filter(published_at=None).exists()


def test_ddv_draw_is_the_same_for_the_same_seed():
    plans = []
    for _ in range(2):
        tournament = factories.tournament(
            players=16, planned_rounds=4, seating_method=SeatingMethod.DDV
        )
        services.round_seat(round=services.round_create(tournament=tournament), seed=9)
        numbers = {e.pk: e.start_number for e in tournament.entries.all()}
        plans.append(
            [
                sorted((t, p, numbers[e]) for e, (t, p) in seats_of(r).items())
                for r in tournament.rounds.order_by("number")
            ]
        )
    assert plans[0] == plans[1]


def test_standings_method_seats_the_leaders_together():
    tournament = factories.tournament(
        players=8, planned_rounds=2, seating_method=SeatingMethod.STANDINGS
    )
    play(factories.seated_round(tournament))
    ranking = selectors.entry_ranking(tournament=tournament)
    points = selectors.entry_points(tournament=tournament)
    assert [points.get(e, 0) for e in ranking] == sorted(points.values(), reverse=True)
    second = factories.seated_round(tournament)
    table_of = {entry: table for entry, (table, _seat) in seats_of(second).items()}
    # Ranks 1-4 at table 1, 5-8 at table 2, unless that would only repeat round 1: the draw
    # keeps repeats down by swapping neighbours in the ranking.
    leaders = {table_of[e] for e in ranking[:3]}
    assert len(leaders) <= 2
    assert sorted(table_of.values()) == [1, 1, 1, 1, 2, 2, 2, 2]


def test_unpublished_seating_is_hidden_from_the_public_finder():
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament, publish=False)
    number = tournament.entries.first().start_number
    found = selectors.seat_find(tournament=tournament, query=str(number))
    assert found[0].seats == []
    assert selectors.seat_find(tournament=tournament, query=str(number), staff=True)[0].seats
    services.round_publish(round=round_)
    [player] = selectors.seat_find(tournament=tournament, query=str(number))
    assert player.seats[0].round_number == 1
    assert player.current == 1


def test_find_by_parts_of_the_name_ignores_case():
    tournament = factories.tournament()
    weiss = factories.player(first_name="Jörg", last_name="Weiß")
    services.entry_create(tournament=tournament, player=weiss)
    for _ in range(7):
        services.entry_create(tournament=tournament, player=factories.player())
    factories.seated_round(tournament)
    [found] = selectors.seat_find(tournament=tournament, query="weiß jörg")
    assert found.entry.player == weiss
    assert found.seats[0].table_size == 4
    assert selectors.seat_find(tournament=tournament, query="  ") == []
    assert selectors.seat_find(tournament=tournament, query="Niemand") == []


def test_late_entry_fills_a_table_of_five_and_moves_nobody_else():
    tournament = factories.tournament(players=16, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    before = seats_of(round_)
    late = services.entry_create(tournament=tournament, player=factories.player())
    after = seats_of(round_)
    assert {e: s for e, s in after.items() if e != late.pk} == before
    assert after[late.pk][1] == 5
    assert Seat.objects.get(entry=late).moved_at is not None  # published: flagged as a change
    assert round_.tables.count() == 4
    assert Scoresheet.objects.filter(table__round=round_).count() == 4


def test_withdrawal_reseats_only_rounds_not_started():
    tournament = factories.tournament(
        players=17, planned_rounds=3, seating_method="ddv", allow_tables_of_five=True
    )
    first = services.round_seat(round=services.round_create(tournament=tournament), seed=3)
    services.tournament_seating_publish(tournament=tournament)
    services.round_start(round=first)
    leaving = Seat.objects.filter(round__number=2, position=5).get().entry
    second = tournament.rounds.get(number=2)
    played_before = seats_of(first)
    before = seats_of(second)

    services.entry_withdraw(entry=leaving)

    assert seats_of(first) == played_before  # the running round keeps its seats
    after = seats_of(second)
    assert leaving.pk not in after
    assert after == {e: s for e, s in before.items() if e != leaving.pk}
    assert not Seat.objects.filter(round__number=3, entry=leaving).exists()
    assert sorted(
        len(t) for t in selectors.seating_history(tournament=tournament, before=4)[2].tables
    ) == [4, 4, 4, 4]


def test_withdrawal_that_leaves_tables_of_four_short_is_refused_with_advice():
    tournament = factories.tournament(players=16, allow_tables_of_five=False)
    round_ = factories.seated_round(tournament)
    entry = tournament.entries.first()
    with pytest.raises(ValidationError) as raised:
        services.entry_withdraw(entry=entry)
    [message] = raised.value.message_dict["entries"]
    assert message == (
        "Round 1 is drawn already and cannot be seated again: 15 active players do not divide "
        "into tables of four (TSR 8.3.1): register 1 more or withdraw 3, or allow tables of "
        "five (TSR 10). Register a substitute in the player's place instead."
    )
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE  # nothing partial
    assert len(seats_of(round_)) == 16


def test_a_substitute_takes_the_seats_and_nobody_else_moves():
    tournament = factories.tournament(players=16, allow_tables_of_five=False)
    round_ = factories.seated_round(tournament)
    entry = tournament.entries.first()
    before = seats_of(round_)
    substitute = services.entry_replace(
        entry=entry, player=factories.player(first_name="Ersatz", last_name="Spielerin")
    )
    after = seats_of(round_)
    assert after[substitute.pk] == before[entry.pk]
    assert {e: s for e, s in after.items() if e != substitute.pk} == {
        e: s for e, s in before.items() if e != entry.pk
    }
    assert substitute.start_number == 17
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_reinstated_player_is_seated_again():
    tournament = factories.tournament(players=17, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    entry = tournament.entries.last()
    services.entry_withdraw(entry=entry)
    assert entry.pk not in seats_of(round_)
    services.entry_reinstate(entry=entry)
    assert entry.pk in seats_of(round_)
    with pytest.raises(ValidationError):
        services.entry_reinstate(entry=entry)


def test_rounds_start_in_order_and_publish_their_seating():
    tournament = factories.tournament(players=8, planned_rounds=2, seating_method="ddv")
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    second = tournament.rounds.get(number=2)
    with pytest.raises(ValidationError, match="Round 1 has not been played"):
        services.round_start(round=second)
    first = services.round_start(round=tournament.rounds.get(number=1))
    assert first.published_at == first.started_at


def test_redraw_is_refused_once_the_round_runs():
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    with pytest.raises(ValidationError, match="cannot be seated"):
        services.round_seat(round=round_)


def test_clock_ends_after_the_playing_time_and_extra_time_adds_per_table():
    tournament = factories.tournament(players=9, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    start = timezone.now() - datetime.timedelta(minutes=30)
    round_ = services.round_start(round=round_, at=start)
    adjudicator = factories.adjudicator(tournament)
    five = round_.tables.get(number=2)
    services.table_extra_time_grant(table=five, minutes=4, reason="Beschwerde", by=adjudicator)
    services.table_extra_time_grant(table=five, minutes=2, reason="Schiedsgericht", by=adjudicator)
    clock = selectors.round_clock(round=round_)
    assert clock.ends_at == start + datetime.timedelta(minutes=100)
    assert clock.ends_at_five == start + datetime.timedelta(minutes=125)
    assert 69 * 60 < clock.seconds_left <= 70 * 60
    [table] = clock.tables
    assert (table.number, table.extra_minutes, table.reasons) == (
        2,
        6,
        ["Beschwerde", "Schiedsgericht"],
    )
    assert table.ends_at == start + datetime.timedelta(minutes=131)
    # The adjudicator announces the end at 101 minutes: the tables of four are over, and the
    # table of five plays on until its 125 minutes of net playing time from the start are over
    # (TSR 10.1.5), plus its extra time: not 25 minutes after the announcement.
    ended = factories.round_end(round_, at=start + datetime.timedelta(minutes=101))
    clock = selectors.round_clock(round=ended)
    assert clock.ends_at == ended.ended_at
    assert clock.ends_at_five == start + datetime.timedelta(minutes=125)
    assert clock.tables[0].ends_at == start + datetime.timedelta(minutes=131)


def test_after_the_announced_end_a_table_of_five_plays_on_for_its_longer_match():
    """TSR 10.1.5: a match at a table of five lasts 125 minutes, not 100. When the adjudicator
    ends the round, the tables of five play on for the difference, each with its extra time;
    the one selector says so to the clock and to the scoresheets alike."""
    tournament = factories.tournament(players=9, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    start = timezone.now() - datetime.timedelta(minutes=100)
    round_ = services.round_start(round=round_, at=start)
    four, five = (
        round_.tables.annotate(size=Count("seats")).order_by("size").values_list("pk", flat=True)
    )
    services.table_extra_time_grant(
        table=round_.tables.get(pk=four),
        minutes=5,
        reason="Beschwerde",
        by=factories.adjudicator(tournament),
    )
    ended = factories.round_end(round_, at=start + datetime.timedelta(minutes=100))
    clock = selectors.round_clock(round=ended)
    assert clock.seconds_left == 0
    assert 24 * 60 < clock.seconds_left_five <= 25 * 60
    times = {pk: selectors.table_playing_time(table=ended.tables.get(pk=pk)) for pk in (four, five)}
    assert (
        times[five].ends_at == clock.ends_at_five == ended.ended_at + datetime.timedelta(minutes=25)
    )
    assert times[four].ends_at == clock.tables[0].ends_at
    assert times[four].ends_at == ended.ended_at + datetime.timedelta(minutes=5)
    now = timezone.now()
    assert not times[five].over(now)
    assert not times[four].over(now)
    assert times[five].over(now + datetime.timedelta(minutes=25))
    assert times[four].over(now + datetime.timedelta(minutes=5))


def test_an_end_announced_late_gives_a_table_of_five_no_more_than_its_125_minutes():
    """TSR 10.1.5: „nach einer reinen Spielzeit von 125 Minuten zu beenden". The end announced
    at 115 minutes: the table of five ends at 125 from the start (plus its extra time), not 25
    minutes after the announcement; announced after 125 minutes, it ends with the fours."""
    tournament = factories.tournament(players=9, allow_tables_of_five=True)
    start = timezone.now() - datetime.timedelta(minutes=115)
    round_ = services.round_start(round=factories.seated_round(tournament), at=start)
    five = round_.tables.annotate(size=Count("seats")).get(size=5)
    services.table_extra_time_grant(
        table=five, minutes=3, reason="Beschwerde", by=factories.adjudicator(tournament)
    )
    ended = factories.round_end(round_, at=start + datetime.timedelta(minutes=115))
    time = selectors.table_playing_time(table=ended.tables.get(pk=five.pk))
    assert time.ends_at == start + datetime.timedelta(minutes=128)
    assert selectors.round_clock(round=ended).ends_at_five == start + datetime.timedelta(
        minutes=125
    )
    assert not time.over(start + datetime.timedelta(minutes=127))
    assert time.over(start + datetime.timedelta(minutes=128))


def test_an_end_announced_after_125_minutes_ends_the_table_of_five_with_the_fours():
    tournament = factories.tournament(players=9, allow_tables_of_five=True)
    start = timezone.now() - datetime.timedelta(minutes=140)
    round_ = services.round_start(round=factories.seated_round(tournament), at=start)
    ended = factories.round_end(round_, at=start + datetime.timedelta(minutes=140))
    clock = selectors.round_clock(round=ended)
    assert clock.ends_at_five == clock.ends_at == ended.ended_at


def test_before_the_announced_end_no_table_is_over_whatever_the_clock_says():
    """TSR 8.5.1: the adjudicator announces the end; the clock running down does not."""
    tournament = factories.tournament(players=4)
    start = timezone.now() - datetime.timedelta(minutes=150)
    round_ = services.round_start(round=factories.seated_round(tournament), at=start)
    time = selectors.table_playing_time(table=round_.tables.get())
    assert time.ends_at == start + datetime.timedelta(minutes=100)
    assert not time.announced
    assert not time.over(timezone.now())


@pytest.mark.parametrize(
    ("minutes", "reason", "field"), [(0, "Beschwerde", "minutes"), (5, "  ", "reason")]
)
def test_extra_time_needs_minutes_and_a_reason(minutes, reason, field):
    tournament = factories.tournament(players=8)
    round_ = services.round_start(round=factories.seated_round(tournament))
    with pytest.raises(ValidationError) as raised:
        services.table_extra_time_grant(
            table=round_.tables.first(),
            minutes=minutes,
            reason=reason,
            by=factories.adjudicator(tournament),
        )
    assert field in raised.value.message_dict


def test_extra_time_only_while_the_round_is_played():
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    with pytest.raises(ValidationError, match="extra time"):
        services.table_extra_time_grant(
            table=round_.tables.first(),
            minutes=5,
            reason="Beschwerde",
            by=factories.adjudicator(tournament),
        )


CSV = (
    "Vorname;Nachname;Verein;DDV-Nr;Startnummer\n"
    "Jörg;Weiß;Doko-Freunde Köln;1234;\n"
    "Änne;Müller;;;7\n"
).encode()


def test_import_registers_every_row_and_reuses_known_players():
    tournament = factories.tournament()
    known = factories.player(first_name="Jörg", last_name="Weiß", ddv_number="1234")
    created = services.players_import(tournament=tournament, data=CSV).entries
    assert [(e.player.name, e.start_number) for e in created] == [
        ("Jörg Weiß", 1),
        ("Änne Müller", 7),
    ]
    assert created[0].player == known


def test_import_is_all_or_nothing():
    tournament = factories.tournament()
    services.entry_create(tournament=tournament, player=factories.player(), start_number=7)
    with pytest.raises(ValidationError) as raised:
        services.players_import(tournament=tournament, data=CSV)
    assert raised.value.message_dict["file"] == ["Line 3: start number 7 is already taken."]
    assert tournament.entries.count() == 1


def test_import_of_a_broken_file_names_the_line():
    tournament = factories.tournament()
    with pytest.raises(ValidationError) as raised:
        services.players_import(tournament=tournament, data=b"Vorname;Nachname\nAnna;\n")
    assert any("Line 2" in message for message in raised.value.message_dict["file"])
    assert tournament.entries.count() == 0


def test_late_import_seats_the_new_players():
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    services.players_import(
        tournament=tournament,
        data=b"first name,last name\nA,One\nB,Two\nC,Three\nD,Four\n",
    )
    assert len(seats_of(round_)) == 12
    assert round_.tables.count() == 3


@pytest.mark.parametrize("query", ["²", "٣", "99999999999999999999"])
def test_the_finder_answers_digits_no_start_number_has_without_an_error(client, query):
    tournament = factories.tournament(players=8)
    factories.seated_round(tournament)
    assert selectors.seat_find(tournament=tournament, query=query) == []
    response = client.get(reverse("tournaments:find", args=[tournament.slug]), {"q": query})
    assert response.status_code == 200


def test_a_round_comes_with_the_readers_roles_in_one_query(django_assert_num_queries):
    from django.contrib.auth.models import AnonymousUser

    from tournaments.models import TournamentRole

    tournament = factories.tournament(players=4)
    round_ = services.round_create(tournament=tournament)
    user = factories.user()
    for role in (TournamentRole.Role.ADJUDICATOR, TournamentRole.Role.SCOREKEEPER):
        factories.role_grant(tournament=tournament, user=user, role=role)
    with django_assert_num_queries(1):
        found, roles = selectors.round_with_roles(slug=tournament.slug, number=1, user=user)
        assert found.tournament.name == tournament.name
    assert (found, roles) == (round_, {"adjudicator", "scorekeeper"})
    admin = factories.user(is_superuser=True)
    assert selectors.round_with_roles(slug=tournament.slug, number=1, user=admin)[1] == set(
        TournamentRole.Role.values
    )
    assert (
        selectors.round_with_roles(slug=tournament.slug, number=1, user=AnonymousUser())[1] == set()
    )
    with pytest.raises(Http404):
        selectors.round_with_roles(slug=tournament.slug, number=2, user=user)


def test_the_last_confirmation_closes_a_running_round_and_stops_its_clock(
    django_capture_on_commit_callbacks,
):
    """The manual's "the round closes once every scoresheet is confirmed" (TSR 8.5.2), issue
    47: a round whose every sheet is confirmed no longer shows as running with its clock on."""
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    first, second = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(first, full_match())
    round_.refresh_from_db()
    assert (round_.status, round_.ended_at) == (Round.Status.RUNNING, None)
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(second, full_match())
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    assert round_.ended_at is not None
    # Closing it again (the desk's button, a script) changes nothing.
    assert services.round_close(round=round_).status == Round.Status.CLOSED


def test_a_confirmation_before_the_last_asks_once_and_locks_nothing(
    django_assert_num_queries,
):
    """All but the round's last confirmation find a sheet still open in one read, without
    taking the round's lock that the confirmations of 37 tables would queue on."""
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    with django_assert_num_queries(1) as context:
        assert services.round_close_when_confirmed(round_id=round_.pk) is None
    assert "FOR UPDATE" not in context.captured_queries[0]["sql"]
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING


def test_the_last_confirmation_of_a_finished_round_closes_it(django_capture_on_commit_callbacks):
    tournament = factories.tournament(players=4, planned_rounds=1)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    round_ = factories.round_end(round_)
    ended_at = round_.ended_at
    with django_capture_on_commit_callbacks(execute=True):
        factories.sheet_confirmed(Scoresheet.objects.get(table__round=round_), full_match())
    round_.refresh_from_db()
    tournament.refresh_from_db()
    assert (round_.status, round_.ended_at) == (Round.Status.CLOSED, ended_at)
    assert tournament.status == tournament.Status.FINISHED


@pytest.mark.django_db(transaction=True)
def test_the_last_confirmation_asked_of_the_site_closes_the_round_once_answered():
    """In a request, the round's last confirmation is answered first and closes the round
    after its answer has gone (``after_response``: at the response's close, which gunicorn
    calls after the last byte): the player waits neither for the question whether it was the
    last nor for the closing (issue 45)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    from scoring import services as scoring_services

    tournament = factories.tournament(players=4, planned_rounds=2)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    keeper = factories.keeper(sheet)
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=keeper
    )
    sheet = scoring_services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    path = reverse("api:scoresheet-confirm", args=[tournament.slug, round_.number, 1])
    environ = (
        RequestFactory()
        .post(
            path,
            data={"version": sheet.version},
            content_type="application/json",
            headers={"X-Seat-Key": sheet.table.seats.get(position=1).token},
        )
        .environ
    )
    status: list[str] = []
    response = WSGIHandler()(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        assert status[0].startswith("200"), b"".join(response)
        assert Scoresheet.objects.get(pk=sheet.pk).status == Scoresheet.Status.CONFIRMED
        round_.refresh_from_db()
        assert (round_.status, round_.ended_at) == (Round.Status.RUNNING, None)
    finally:
        response.close()
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    assert round_.ended_at is not None


def test_a_rounds_own_row_is_read_in_one_query_with_its_tournament_as_given(
    django_assert_num_queries,
):
    """``round_get`` without counts (the pages phones refresh) reads the round's row alone,
    compiled once: the same fields as the ORM's, the tournament the one it was given, and a
    404 for a round the tournament does not have."""
    tournament = factories.tournament(players=8)
    seated = factories.seated_round(tournament)
    with django_assert_num_queries(1):
        found = selectors.round_get(tournament=tournament, number=seated.number, counts=False)
        assert found.tournament is tournament
    assert found == seated
    fields = [field.attname for field in Round._meta.concrete_fields]
    assert [getattr(found, name) for name in fields] == [
        getattr(Round.objects.get(pk=seated.pk), name) for name in fields
    ]
    with pytest.raises(Http404):
        selectors.round_get(tournament=tournament, number=seated.number + 1, counts=False)
    other = factories.tournament(players=4)
    with pytest.raises(Http404):
        selectors.round_get(tournament=other, number=seated.number, counts=False)
