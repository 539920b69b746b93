"""Which tests the PostgreSQL pass of ``make test`` runs: those whose outcome can depend on the
database.

``make test`` runs the suite twice (``tests/plugins/servers.py``): on SQLite and with
``--postgres``. Every test runs in the SQLite pass (except those marked ``services``, which need
the servers of the PostgreSQL pass). The PostgreSQL pass leaves out, and says so in its summary:

tests that use no database
    No ``django_db`` mark and none of pytest-django's database fixtures (``db``,
    ``transactional_db``, ``live_server``, ``django_db_setup``, also through other fixtures):
    pytest-django refuses them every query, so what they check cannot differ between the passes
    (the game core in ``doko/``, Hypothesis properties of pure code, settings and commands read in a
    subprocess, which never sees the pass's ``DATABASE_URL``). A test among them that does touch
    the database fails in the SQLite pass. Those marked ``services`` still run in the PostgreSQL
    pass, the only one with their servers.
tests marked ``database_independent("why")``
    They use the database, but what they check is decided above it: the markup and headers of a
    page (templates, middleware), or a permission refused by a policy function before any write.
    The reason is required, and says why.

Everything else runs in both passes: every test of a query, a search, a constraint, a lock, a
migration, hostile input, query counts, dates and JSON, the services. ``pytest --postgres
--every-test`` runs the left-out tests on PostgreSQL too.
"""

import pytest

MARK = "database_independent"
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
left_out_key = pytest.StashKey[dict[str, int]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--every-test",
        action="store_true",
        default=False,
        help=(
            "With --postgres: also run the tests that the PostgreSQL pass leaves to the SQLite pass "
            "(no database, or marked database_independent; tests/plugins/backends.py)."
        ),
    )


def uses_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def _reason(item: pytest.Item) -> str | None:
    """Why ``item`` need not run on PostgreSQL, or None if it must."""
    if item.get_closest_marker("services"):
        return None
    if mark := item.get_closest_marker(MARK):
        why = mark.args[0] if mark.args else mark.kwargs.get("reason")
        if not why:
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{MARK} needs a reason")
        return MARK
    if not uses_database(item):
        return "no database"
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # a mark without its reason fails in either pass
        _reason(item)
    if not config.getoption("postgres") or config.getoption("every_test"):
        return
    keep, left_out = [], {}
    for item in items:
        if reason := _reason(item):
            left_out[reason] = left_out.get(reason, 0) + 1
        else:
            keep.append(item)
    if left_out:
        config.hook.pytest_deselected(items=[item for item in items if _reason(item)])
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
    if count := left_out.get(MARK):
        parts.append(f"{count} marked {MARK}")
    terminalreporter.write_line(
        f"PostgreSQL pass: left to the SQLite pass: {' and '.join(parts)} "
        "(tests/plugins/backends.py; --every-test runs them here too)",
        bold=True,
    )
