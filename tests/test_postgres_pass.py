"""The rule of the PostgreSQL pass (tests/plugins/backends.py) stays true: a test file that shows a
sign of depending on the database runs there, and the list names only files that exist."""

import re
from pathlib import Path

from tests.plugins.backends import ON_POSTGRES, ROOT, listed

# What in a test file says that its outcome may depend on the database.
SIGNS = {
    r"connection\.vendor|connections\[": "asks which database it is on",
    r"\.cursor\(": "raw SQL",
    r"\b(IntegrityError|DataError)\b": "a constraint or a column's limit",
    r"\bselect_for_update\b": "a row lock",
    r"\bthreading\b|ThreadPoolExecutor|tests\.threads|from tests import threads": "threads",
    r"MigrationExecutor|migrate\(": "migrations",
    r"\bsearch_key\b|name_filter|entry_filter": "the name search",
    r"CaptureQueriesContext|assertNumQueries": "counted queries",
}
# The game core's tests: the core has no database (the import contract "core").
NO_DATABASE = "tests/doko/"


def test_every_test_file_with_a_sign_of_the_database_runs_on_postgresql():
    missing = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path.relative_to(ROOT).as_posix().startswith(NO_DATABASE):
            continue
        text = path.read_text()
        signs = [why for sign, why in SIGNS.items() if re.search(sign, text)]
        if "counted queries" in signs and re.search(r"django_assert_(max_)?num_queries", text):
            signs.remove("counted queries")  # its counting tests run there by that fixture
        if signs and not listed(path) and "pytest.mark.postgres(" not in text:
            missing.append(f"{path.relative_to(ROOT)}: {', '.join(signs)}")
    assert not missing, (
        "Put these files in ON_POSTGRES (tests/plugins/backends.py) with the reason, or mark "
        "their tests @pytest.mark.postgres(reason):\n" + "\n".join(missing)
    )


def test_every_path_on_the_list_exists_with_its_reason():
    for entry, reason in ON_POSTGRES.items():
        path = ROOT / entry
        assert path.is_dir() if entry.endswith("/") else path.is_file(), entry
        assert reason.strip(), entry


def test_a_file_is_listed_by_itself_or_by_its_directory():
    assert listed(ROOT / "tests/test_concurrency.py")
    assert listed(ROOT / "tests/backup/test_tournament.py")
    assert not listed(ROOT / "tests/test_csp.py")
    assert not listed(Path(ROOT / "tests/backupx/test_tournament.py"))
