"""Which tests the PostgreSQL pass of ``make test`` runs: those whose outcome can depend on the
database, by an explicit rule.

``make test`` runs the suite twice (``tests/plugins/servers.py``): the whole suite on SQLite
(except the tests marked ``services``, which need the servers of the PostgreSQL pass), then
``--postgres``. The PostgreSQL pass runs a test that uses the database (a ``django_db`` mark or
one of pytest-django's database fixtures, also through other fixtures) when

1. it is marked ``services`` (a real Redis and Celery worker: only this pass starts them); or
2. its file, or a directory above it, is in ``ON_POSTGRES`` below, each with the reason: locks
   and threads, migrations, the name search and case-insensitive matching, constraints and the
   transactions around them, hostile input (lengths, integer ranges, NUL bytes that PostgreSQL
   refuses and SQLite stores), raw SQL and the database going away, the services that write, a
   backup's import; or
3. it is marked ``postgres("why")`` (one test in a file otherwise left to SQLite); or
4. it counts queries (pytest-django's ``django_assert_num_queries`` or
   ``django_assert_max_num_queries``): a backend may need more or fewer for the same ORM call
   (batches, savepoints, locks).

Every other test, and every test that uses no database (pytest-django refuses it any query), runs
in the SQLite pass only: pages and their markup, the permission matrix (a policy decides before
any query differs), the browser tests (what a browser adds is the browser's), the game core. The
summary says how many it left out; ``pytest --postgres --every-test`` runs them all there too.

``tests/test_postgres_pass.py`` keeps the rule true: a test file with a sign of depending on the
database (``connection.vendor``, a raw cursor, ``IntegrityError``, threads, a migration executor,
the search key, counted queries) must be in ``ON_POSTGRES`` or carry a ``postgres`` mark, and
every path listed must exist.
"""

from pathlib import Path

import pytest

MARK = "postgres"
# Test files (or directories, ending in "/") that run in the PostgreSQL pass too, and why.
ON_POSTGRES: dict[str, str] = {
    # Locks, threads, transactions seen from two connections.
    "tests/test_concurrency.py": "forty tables at once, two confirms or saves in one instant: locks",
    "tests/tournaments/test_prepared.py": "SQL compiled once, run through each driver, converted",
    "tests/tournaments/test_last_writes.py": "a write's last statements sent with its COMMIT",
    "tests/test_database_restart.py": "a restarted server under kept connections",
    "tests/test_faults.py": "Redis and the worker stopped under committed transactions",
    "tests/test_real_services.py": "a real worker on the test database",
    "tests/test_redis_cache.py": "threads counting through one Redis client",
    "tests/adjudication/test_staff_concurrency.py": "two offers of one role at once: locks",
    "tests/tournaments/test_hiding_race.py": "hiding the standings while they are rebuilt",
    "tests/registration/test_online_registration_concurrency.py": "the same person twice at once",
    "tests/registration/test_registration_concurrency.py": "the same people twice at once",
    "tests/tournaments/test_standings_recovery.py": "a lost rebuild requeued: locks and commits",
    "tests/tournaments/test_player_import_pages.py": "one import posted twice at once",
    "tests/scoring/test_write_queries.py": "the queries and locks of every write",
    # Migrations: the schema and the data migrations, run forward and back.
    "tests/adjudication/test_migrations.py": "the migrations on each database's schema",
    "tests/tournaments/test_migrations.py": "the migrations on each database's schema",
    "tests/rankings/test_migration.py": "the ranking lists moved to their app: no row lost",
    "tests/registration/test_migration.py": "the online registration moved to its app: no row lost",
    # Matching names: LIKE and LOWER are case-sensitive or ASCII-only on one and not the other.
    "tests/tournaments/test_search_key.py": "the stored search key and its constraint",
    "tests/tournaments/test_names.py": "the name search (LIKE) with umlauts and case",
    "tests/tournaments/test_persons.py": "the same person in another case or spelling",
    "tests/registration/test_check_in.py": "the desk's search by name and start number",
    "tests/test_accounts.py": "e-mail addresses matched in any case (LOWER)",
    "tests/security/test_registration.py": "duplicates in another spelling, replayed over HTTP",
    # Constraints, and the transactions that catch their violations (PostgreSQL aborts the
    # transaction at the first error; SQLite carries on).
    "tests/scoring/test_models.py": "the scoresheets' constraints",
    "tests/tournaments/test_models.py": "the tournaments' constraints",
    "tests/tournaments/test_constraints.py": "check constraints asked in one query: NULL, booleans",
    "tests/scoring/test_services.py": "the sheets' writes and their constraints",
    "tests/scoring/test_repair_services.py": "repairs under the sheets' constraints",
    "tests/scoring/test_scan_services.py": "one scan per sheet: a constraint",
    "tests/scoring/test_paper_services.py": "the paper sheets' writes",
    "tests/scoring/test_hard_cases_api.py": "hard cases under the sheets' constraints",
    "tests/printing/test_scoresheets.py": "print jobs and their constraints",
    "tests/teams/test_season_plan.py": "the season plan's constraints",
    "tests/teams/test_services.py": "the leagues' writes: a short name taken in parallel, LOWER",
    "tests/tournaments/test_official.py": "the official ranking's constraints",
    "tests/tournaments/api/test_large_tables.py": "tables of six and seven, the Springer: "
    "their seats' and results' constraints",
    "tests/tournaments/test_services.py": "the tournaments' writes: a short name taken in parallel",
    "tests/adjudication/services/": "the adjudication's writes: names taken in parallel, LOWER",
    "tests/backup/": "an import: every model, its constraints and sequences",
    # Input that one database stores and the other refuses.
    "tests/test_hostile_input.py": "lengths, integer ranges and NUL bytes: refused, not a 500",
    "tests/test_api_input.py": "the API's input at the limits of the columns",
    # Raw SQL and the database's errors.
    "tests/test_errors.py": "the database away: 503, and no query on the error page",
    "tests/test_settings.py": "DATABASE_URL read into the settings",
}
QUERY_COUNTS = {"django_assert_num_queries", "django_assert_max_num_queries"}
# pytest-django's fixtures that open the database to a test; a test that uses none of them (also
# not through its other fixtures) gets "Database access not allowed" on its first query.
DATABASE_FIXTURES = {
    "_django_db_helper",  # db, transactional_db, the django_db mark, …
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "django_db_setup",  # fixtures that build a world outside the tests' transactions (ctx)
}
ROOT = Path(__file__).resolve().parents[2]
left_out_key = pytest.StashKey[dict[str, int]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--every-test",
        action="store_true",
        default=False,
        help=(
            "With --postgres: also run the tests that the PostgreSQL pass leaves to the SQLite pass "
            "(tests/plugins/backends.py)."
        ),
    )


def uses_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def listed(path: Path) -> bool:
    """Whether the test file at ``path`` is in ``ON_POSTGRES``, itself or by a directory."""
    relative = path.resolve().relative_to(ROOT).as_posix()
    return any(
        relative == entry or (entry.endswith("/") and relative.startswith(entry))
        for entry in ON_POSTGRES
    )


def _reason(item: pytest.Item) -> str | None:
    """Why ``item`` need not run on PostgreSQL, or None if it must."""
    mark = item.get_closest_marker(MARK)
    if mark and not (mark.args[0] if mark.args else mark.kwargs.get("reason")):
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{MARK} needs a reason")
    if item.get_closest_marker("services"):
        return None
    if not uses_database(item):
        return "no database"
    if (
        mark is not None
        or listed(item.path)
        or QUERY_COUNTS & set(getattr(item, "fixturenames", ()))
    ):
        return None
    return "not on the list"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reasons = {item: _reason(item) for item in items}  # a mark without its reason fails anywhere
    if not config.getoption("postgres") or config.getoption("every_test"):
        return
    keep, left_out = [], {}
    for item in items:
        if reason := reasons[item]:
            left_out[reason] = left_out.get(reason, 0) + 1
        else:
            keep.append(item)
    if left_out:
        config.hook.pytest_deselected(items=[item for item in items if reasons[item]])
        items[:] = keep
    config.stash[left_out_key] = left_out
    if hasattr(config, "workerinput"):  # pytest-xdist: the controller prints the summary
        config.workeroutput["left_to_sqlite"] = left_out


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """pytest-xdist: every worker collects the same tests; one's count is the pass's."""
    output = getattr(node, "workeroutput", None) or {}
    if "left_to_sqlite" in output:
        node.config.stash[left_out_key] = output["left_to_sqlite"]


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    left_out = config.stash.get(left_out_key, None)
    if not left_out:
        return
    parts = []
    if count := left_out.get("no database"):
        parts.append(f"{count} that use no database")
    if count := left_out.get("not on the list"):
        parts.append(f"{count} whose outcome cannot depend on it")
    terminalreporter.write_line(
        f"PostgreSQL pass: left to the SQLite pass: {' and '.join(parts)} "
        "(tests/plugins/backends.py; --every-test runs them here too)",
        bold=True,
    )
