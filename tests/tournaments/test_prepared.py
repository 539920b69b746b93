"""Reads compiled once (``tournaments.prepared``): the same rows, models and conversions as the
ORM's own queryset, one query each, a shape per list length; and what they are not for refused
when first compiled."""

import pytest
from django.db.models import F, Value

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet, SecondEntry
from scoring.services import Actor
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Seat, TournamentRole
from tournaments.prepared import Prepared

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet() -> Scoresheet:
    """A running table of four, its sheet typed and handed in at the desk, and a second entry
    begun: a JSON field, dates and a related account to read back."""
    organiser, second = factories.user(), factories.user()
    tournament = factories.tournament(
        players=4, organiser=organiser, sheet_keeping="paper", double_entry=True
    )
    factories.role_grant(tournament=tournament, user=second, role=TournamentRole.Role.SCOREKEEPER)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=Actor(user=organiser)
    )
    sheet = services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=Actor(user=organiser)
    )
    services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], by=second, version=0
    )
    return sheet


SEATS = Prepared(
    lambda token, number: (
        Seat.objects.select_related("table__round__tournament", "entry")
        .filter(token=token, table__round__number=number)  # a small integer column
        .annotate(twice=F("position") * 2)
        .order_by()
    )
)


def test_models_come_back_as_the_orm_makes_them_with_related_objects_and_annotations(sheet):
    for seat in Seat.objects.filter(table=sheet.table):
        (prepared,) = SEATS(seat.token, 1)
        assert SEATS(seat.token, 2) == []
        orm = (
            Seat.objects.select_related("table__round__tournament", "entry")
            .annotate(twice=F("position") * 2)
            .get(token=seat.token)
        )
        assert (prepared.pk, prepared.position, prepared.twice) == (orm.pk, orm.position, orm.twice)
        assert prepared.entry.name == orm.entry.name
        assert prepared.table.round.tournament.slug == orm.table.round.tournament.slug
        assert prepared.table.round.tournament.starts_on == orm.table.round.tournament.starts_on
    assert SEATS("no such key", 1) == []


def _made(instance, seen=None) -> object:
    """All an instance holds: its values, its state, and the objects read with it, each the
    same way (an object already met stands as its class and key)."""
    if instance is None:
        return None
    seen = set() if seen is None else seen
    if id(instance) in seen:
        return (type(instance).__name__, instance.pk)
    seen.add(id(instance))
    values = {name: value for name, value in vars(instance).items() if name != "_state"}
    state = instance._state
    related = {name: _made(value, seen) for name, value in state.fields_cache.items()}
    return (type(instance).__name__, values, state.db, state.adding, related)


KEYED = Prepared(
    lambda token: (
        Seat.objects.select_related("table__round__tournament", "table__scoresheet__scan", "entry")
        .filter(token=token)
        .order_by()
    )
)


def test_an_instance_holds_what_the_orms_holds_its_related_objects_hung_both_ways(sheet):
    """Made as ``from_db`` makes them (``prepared._Made``): the same values and state, and the
    objects selected with it each way round (a sheet's table is the table read with it); a
    related object that is not there (the sheet's scan) is none."""
    for seat in Seat.objects.filter(table=sheet.table):
        (prepared,) = KEYED(seat.token)
        orm = (
            Seat.objects.select_related(
                "table__round__tournament", "table__scoresheet__scan", "entry"
            )
            .order_by()
            .get(token=seat.token)
        )
        assert _made(prepared) == _made(orm)
        assert prepared.table.scoresheet.table is prepared.table
        assert prepared.table.scoresheet._state.fields_cache["scan"] is None


def test_a_file_is_kept_as_the_orm_keeps_it(sheet, media):
    from tests.scans import jpeg, upload

    services.scoresheet_scan_attach(
        scoresheet=sheet, upload=upload(jpeg()), by=factories.keeper(sheet)
    )
    seat = Seat.objects.filter(table=sheet.table).first()
    (prepared,) = KEYED(seat.token)
    orm = Seat.objects.select_related("table__scoresheet__scan").get(token=seat.token)
    assert prepared.table.scoresheet.scan.file.name == orm.table.scoresheet.scan.file.name
    assert prepared.table.scoresheet.scan.file.read() == orm.table.scoresheet.scan.file.read()


def test_an_instance_someone_listens_for_is_made_by_the_orm(sheet):
    from django.db.models.signals import post_init

    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(type(instance).__name__)

    seat = Seat.objects.filter(table=sheet.table).first()
    post_init.connect(receiver, sender=Seat)
    try:
        (prepared,) = KEYED(seat.token)
    finally:
        post_init.disconnect(receiver, sender=Seat)
    assert heard == ["Seat"]
    assert _made(prepared) == _made(KEYED(seat.token)[0])


def test_the_fields_are_converted_as_the_orm_converts_them(sheet):
    entries = Prepared(
        lambda sheet_id: SecondEntry.objects.select_related("by").filter(scoresheet_id=sheet_id)
    )
    (entry,) = entries(sheet.pk)
    orm = SecondEntry.objects.select_related("by").get(scoresheet_id=sheet.pk)
    assert entry.hands == orm.hands
    assert len(entry.hands) == 3
    assert entry.started_at == orm.started_at
    assert entry.started_at.tzinfo is not None
    assert entry.by.get_username() == orm.by.get_username()


def test_values_of_a_union_with_lists_of_each_length(sheet, django_assert_num_queries):
    def build(sheet_id: int, positions: list[int]):
        seats = Seat.objects.filter(table__scoresheet__id=sheet_id, position__in=positions)
        marked = seats.annotate(k=Value("seat"), p=F("position")).values_list("k", "p").order_by()
        return marked.union(marked, all=True)

    read = Prepared(build)
    for positions in ([1], [1, 2], [2, 3, 4], [4, 1]):
        expected = sorted(build(sheet.pk, positions))
        with django_assert_num_queries(1):
            assert sorted(read(sheet.pk, positions)) == expected
    assert read(sheet.pk, [2]) == [("seat", 2), ("seat", 2)]


@pytest.mark.parametrize(
    ("build", "why"),
    [
        (lambda pk: Seat.objects.prefetch_related("results").filter(pk=pk), "plain read"),
        (lambda pk: Seat.objects.filter(pk=pk).values("pk"), "models or values_list"),
        (
            lambda pk: Seat.objects.filter(pk=pk).annotate(k=Value(1)).values_list("k", "position"),
            "in the order the SQL selects",
        ),
        (lambda pk: Seat.objects.filter(pk=1), "every argument"),
    ],
)
def test_what_a_prepared_read_is_not_for_is_refused_when_first_compiled(sheet, build, why):
    with pytest.raises(ValueError, match=why):
        Prepared(build)(sheet.pk)


LOCKED = Prepared(lambda pk: Seat.objects.select_for_update(of=("self",)).filter(pk=pk))


@pytest.mark.django_db(transaction=True)
def test_a_lock_is_taken_in_a_transaction_only_as_the_orm_takes_it():
    """``select_for_update`` outside a transaction: refused where the database locks rows, as
    the ORM refuses it (PostgreSQL); a no-op where it does not (SQLite). In one, the row."""
    from django.db import connection, transaction
    from django.db.transaction import TransactionManagementError

    tournament = factories.tournament(players=4)
    seat = Seat.objects.get(pk=factories.seated_round(tournament).seats.first().pk)
    with transaction.atomic():
        assert [found.pk for found in LOCKED(seat.pk)] == [seat.pk]
    if connection.features.has_select_for_update:
        for read in (lambda: LOCKED(seat.pk), lambda: list(LOCKED.build(seat.pk))):
            with pytest.raises(TransactionManagementError):
                read()
    else:
        assert [found.pk for found in LOCKED(seat.pk)] == [seat.pk]


@pytest.fixture
def health_checks(monkeypatch):
    """The connection checked as a request's is when it was kept from an earlier one
    (``CONN_HEALTH_CHECKS``; due once ``health_check_done`` is false): the checks made, each
    with its answer."""
    from django.db import connections

    connection = connections["default"]  # the thread's own, not its proxy
    connection.ensure_connection()
    monkeypatch.setattr(connection, "health_check_enabled", True)
    checks: list[bool] = []
    usable = connection.is_usable

    def is_usable() -> bool:
        checks.append(usable())
        return checks[-1]

    monkeypatch.setattr(connection, "is_usable", is_usable)
    return checks


@pytest.mark.django_db(transaction=True)
def test_a_requests_first_reads_are_its_health_check(health_checks):
    """No ``SELECT 1`` of its own before reads outside a transaction; before anything else the
    check stays (the ORM's own query, a read in a transaction)."""
    from django.db import connection, transaction

    tournament = factories.tournament(players=4)
    seat = factories.seated_round(tournament).seats.first()
    SEATS(seat.token, 1)  # as on an earlier request: its converters found on this connection
    health_checks.clear()
    connection.health_check_done = False
    assert [found.pk for found in SEATS(seat.token, 1)] == [seat.pk]
    assert health_checks == []
    assert connection.health_check_done
    connection.health_check_done = False
    assert Seat.objects.filter(pk=seat.pk).exists()
    assert health_checks == [True]
    connection.health_check_done = False
    with transaction.atomic():
        assert [found.pk for found in SEATS(seat.token, 1)] == [seat.pk]
    assert health_checks == [True, True]


@pytest.mark.django_db(transaction=True)
def test_a_first_read_on_a_connection_the_server_closed_runs_again_on_a_new_one(health_checks):
    """As after a failed health check: the server ended the kept connection (restarted, an
    idle connection closed), and the read is answered on a new one. SQLite's connections are a
    file opened in the process: nothing closes them from outside."""
    from django.db import connection, connections

    tournament = factories.tournament(players=4)
    seat = factories.seated_round(tournament).seats.first()
    SEATS(seat.token, 1)  # as on an earlier request: its converters found on this connection
    health_checks.clear()
    if connection.vendor == "postgresql":
        ended = connection.connection.info.backend_pid
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(%s)", [ended])
        finally:
            other.close()
    connection.health_check_done = False
    assert [found.pk for found in SEATS(seat.token, 1)] == [seat.pk]
    if connection.vendor == "postgresql":
        assert health_checks == [False]  # asked only once the read failed
        assert connection.connection.info.backend_pid != ended
    else:
        assert health_checks == []


# Writes -----------------------------------------------------------------------------------------


def _row(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def test_an_insert_stores_what_bulk_create_stores(sheet):
    """Rows of one model, one and several at once: the same rows in the database, the objects
    given their keys and made saved, as ``bulk_create`` makes them; a JSON field, a date set
    when added, a related account."""
    from scoring.models import ScoresheetChange
    from tournaments import prepared

    def changes(first: int, count: int) -> list[ScoresheetChange]:
        return [
            ScoresheetChange(
                scoresheet=sheet,
                version=version,
                action="hands",
                by_name="Jürgen Groß",
                before={"hands": [1, 2]},
                after={"hands": [version]},
            )
            for version in range(first, first + count)
        ]

    for count in (1, 3, 3):  # a shape once compiled serves the next call too
        first = 100 + ScoresheetChange.objects.count()
        mine, theirs = changes(first, count), changes(first + 50, count)
        assert prepared.insert(mine) == mine
        ScoresheetChange.objects.bulk_create(theirs)
        assert all(obj.pk is not None and not obj._state.adding for obj in mine)
        for made, expected in zip(mine, theirs, strict=True):
            stored = ScoresheetChange.objects.get(pk=made.pk)
            assert stored.after == {"hands": [made.version]}
            assert stored.at == made.at
            ignored = {"id": 0, "version": 0, "at": 0, "after": 0}
            compared = ScoresheetChange.objects.get(pk=expected.pk)
            assert {**_row(stored), **ignored} == {**_row(compared), **ignored}


def test_a_save_updates_every_field_as_the_orm_does(sheet):
    from tournaments import prepared

    sheet = Scoresheet.objects.get(pk=sheet.pk)
    before = sheet.updated_at
    sheet.version += 1
    sheet.keeper_seat = 3
    prepared.save(sheet)
    stored = Scoresheet.objects.get(pk=sheet.pk)
    assert stored.version == sheet.version
    assert stored.keeper_seat == 3
    assert stored.updated_at == sheet.updated_at > before  # auto_now, as the ORM sets it
    assert _row(stored) == _row(sheet)


def test_a_save_leaves_to_the_orm_what_it_must_do_itself(sheet):
    """A model with receivers of its saves gets them; a row loaded with deferred fields saves
    only those loaded; a new row is inserted."""
    from django.db.models.signals import post_save

    from tournaments import prepared

    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.pk)

    post_save.connect(receiver, sender=Scoresheet)
    try:
        prepared.save(Scoresheet.objects.get(pk=sheet.pk))
    finally:
        post_save.disconnect(receiver, sender=Scoresheet)
    assert heard == [sheet.pk]
    partly = Scoresheet.objects.only("version").get(pk=sheet.pk)
    partly.version = 99
    prepared.save(partly)
    assert Scoresheet.objects.get(pk=sheet.pk).version == 99
    entry = SecondEntry.objects.get(scoresheet=sheet)
    entry.delete()
    fresh = SecondEntry(scoresheet=sheet, by=entry.by, version=1, hands=[])
    prepared.save(fresh)
    assert SecondEntry.objects.get(scoresheet=sheet).pk == fresh.pk


# Several at once (``prepared.run``) -------------------------------------------------------------


def test_steps_run_together_give_what_each_gives_alone(sheet):
    """A lock, reads under it, and writes, sent together (on PostgreSQL in one round trip):
    each result as its call alone gives it, and the writes done in order."""
    from django.db import transaction

    from scoring.models import Hand, ScoresheetChange
    from tournaments import prepared

    hands = Prepared(
        lambda sheet_id: Hand.objects.filter(scoresheet_id=sheet_id).order_by("number")
    )
    seats = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id).order_by("position"))
    lock = Prepared(lambda pk: Scoresheet.objects.select_for_update().filter(pk=pk))
    with transaction.atomic():
        locked, read_hands, read_seats = prepared.run(
            lock.bound(sheet.pk), hands.bound(sheet.pk), seats.bound(sheet.table_id)
        )
    assert [s.pk for s in locked] == [sheet.pk]
    assert read_hands == hands(sheet.pk) == list(sheet.hands.order_by("number"))
    assert read_seats == list(sheet.table.seats.order_by("position"))

    sheet = Scoresheet.objects.get(pk=sheet.pk)
    sheet.version += 1
    change = ScoresheetChange(
        scoresheet=sheet, version=sheet.version, action="hands", before={}, after={}
    )
    doomed = Hand.objects.filter(scoresheet=sheet, number__gt=20)
    saved, inserted, deleted = prepared.run(
        prepared.saving(sheet), prepared.inserting([change]), prepared.deleting(doomed)
    )
    assert (saved, deleted) == (None, 4)
    assert inserted == [change]
    assert change.pk is not None
    assert Scoresheet.objects.get(pk=sheet.pk).version == sheet.version
    assert ScoresheetChange.objects.get(pk=change.pk).version == sheet.version
    assert sheet.hands.count() == 20


def test_a_failing_step_raises_the_orms_error_and_the_later_ones_do_not_run(sheet):
    from django.db import IntegrityError, transaction

    from scoring.models import Hand, ScoresheetChange
    from tournaments import prepared

    first = sheet.hands.get(number=1)
    twice = Hand(**{**_row(first), "id": None, "scoresheet_id": sheet.pk})  # number 1 again
    change = ScoresheetChange(scoresheet=sheet, version=99, action="hands", before={}, after={})
    changes = ScoresheetChange.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        prepared.run(prepared.inserting([twice]), prepared.inserting([change]))
    assert ScoresheetChange.objects.count() == changes
    assert sheet.hands.count() == 24


def test_a_step_the_orm_must_do_itself_runs_them_one_by_one(sheet):
    """A save heard by a receiver, a delete of rows that others refer to (a scan: its file's
    record): the ORM does those, and the steps run one by one, in order."""
    from django.db.models.signals import post_save

    from scoring.models import ScoresheetScan
    from tournaments import prepared

    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.pk)

    sheet = Scoresheet.objects.get(pk=sheet.pk)
    post_save.connect(receiver, sender=Scoresheet)
    try:
        steps = (
            prepared.saving(sheet),
            prepared.deleting(SecondEntry.objects.filter(scoresheet=sheet)),
            prepared.deleting(ScoresheetScan.objects.filter(scoresheet=sheet)),
        )
        assert [step.pipelined for step in steps] == [False, True, False]
        assert prepared.run(*steps) == [None, 1, 0]
    finally:
        post_save.disconnect(receiver, sender=Scoresheet)
    assert heard == [sheet.pk]
    assert not SecondEntry.objects.filter(scoresheet=sheet).exists()
    assert prepared.run(prepared.inserting([])) == [[]]


@pytest.fixture
def begins(monkeypatch):
    """The ``BEGIN``\\ s psycopg sends itself, each in a round trip of its own (in pipeline
    mode with a Sync after it): none on SQLite."""
    from django.db import connection

    sent: list[bytes] = []
    if connection.vendor != "postgresql":
        return sent
    import psycopg

    original = psycopg.Connection._exec_command

    def counted(self, command, *args, **kwargs):
        if bytes(command).startswith(b"BEGIN"):
            sent.append(bytes(command))
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "_exec_command", counted)
    return sent


@pytest.mark.django_db(transaction=True)
def test_a_transactions_begin_goes_with_its_first_statements(begins):
    """A write's first statements run together (its lock and reads) take its ``BEGIN`` along
    (``prepared._begin_sent``, issue 45): no round trip of its own, and what they and the
    statements after them write is one transaction, undone whole. A transaction whose first
    statement is the ORM's own begins as psycopg begins it."""
    from django.db import connection, transaction

    from scoring.models import ScoresheetChange
    from tournaments import prepared

    tournament = factories.tournament(players=4)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    version, seat = sheet.version, sheet.table.seats.first()
    changes = ScoresheetChange.objects.count()
    change = ScoresheetChange(scoresheet=sheet, version=99, action="hands", before={}, after={})
    seen = []

    @transaction.atomic
    def undone() -> None:
        sheet.version = version + 5
        locked, _seats = prepared.run(LOCKED.bound(seat.pk), SEATS.bound("x", 1))
        prepared.run(prepared.saving(sheet), prepared.inserting([change]))
        seen.extend([len(locked), ScoresheetChange.objects.count()])  # within the transaction
        raise RuntimeError("undone")

    begins.clear()
    with pytest.raises(RuntimeError):
        undone()
    assert seen == [1, changes + 1]
    assert Scoresheet.objects.get(pk=sheet.pk).version == version
    assert ScoresheetChange.objects.count() == changes
    assert begins == []
    with transaction.atomic():
        assert Scoresheet.objects.filter(pk=sheet.pk).exists()
    assert len(begins) == (1 if connection.vendor == "postgresql" else 0)


@pytest.mark.django_db(transaction=True)
def test_a_transaction_whose_first_statements_fail_is_undone_and_the_connection_goes_on(begins):
    """The ``BEGIN`` sent along, a statement after it failing: the ORM's error, nothing of the
    transaction kept, the connection fit for the next one."""
    from django.db import IntegrityError, transaction

    from scoring.models import Hand, ScoresheetChange
    from tournaments import prepared

    tournament = factories.tournament(players=4)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:2], version=sheet.version, by=factories.keeper(sheet)
    )
    first = sheet.hands.get(number=1)
    twice = Hand(**{**_row(first), "id": None, "scoresheet_id": sheet.pk})  # number 1 again
    change = ScoresheetChange(scoresheet=sheet, version=99, action="hands", before={}, after={})
    changes = ScoresheetChange.objects.count()
    begins.clear()
    with pytest.raises(IntegrityError), transaction.atomic():
        prepared.run(prepared.inserting([change]), prepared.inserting([twice]))
    assert ScoresheetChange.objects.count() == changes
    assert sheet.hands.count() == 2
    assert begins == []
    with transaction.atomic():
        assert prepared.run(SEATS.bound("x", 1), SEATS.bound("y", 1)) == [[], []]
        sheet.hands.filter(number=2).delete()
    assert sheet.hands.count() == 1
