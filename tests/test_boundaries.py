"""The boundaries `make lint` checks hold, and bite: import-linter's contracts (the game core
imports no Django; apps import only downwards) fail on a deliberate violation, and no app
imports another app's private names."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ["config", "tournaments", "scoring", "adjudication", "teams", "printing", "backup", "demo"]
PACKAGES = ["doko", "limits", "api_base", *APPS]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The project's packages and its pyproject.toml, in a directory of their own."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def lint_imports(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=where, capture_output=True, text=True, timeout=120
    )


def test_the_contracts_hold_on_the_code_as_it_is(copy):
    result = lint_imports(copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout


def test_a_django_import_in_the_core_breaks_its_contract(copy):
    (copy / "doko" / "clock.py").write_text("from django.utils import timezone\n")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "The game core (doko) imports no Django, no framework and no app BROKEN" in result.stdout
    assert "doko is not allowed to import django" in result.stdout
    assert "doko.clock -> django" in result.stdout


def test_an_upward_import_breaks_the_layers(copy):
    (copy / "tournaments" / "upward.py").write_text("from adjudication import selectors\n")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "Apps import only downwards BROKEN" in result.stdout
    assert "tournaments.upward -> adjudication.selectors" in result.stdout


def test_printing_imports_no_backup_nor_the_demo(copy):
    (copy / "printing" / "sideways.py").write_text("from demo import services\n")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "printing.sideways -> demo.services" in result.stdout


def private_imports() -> list[str]:
    """Imports of a name starting with ``_`` from another app (or the core) than the module's."""
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ImportFrom) or not node.module:
                    continue
                owner = node.module.split(".")[0]
                if owner == package or owner not in PACKAGES:
                    continue  # the app's own names, or a library's
                found += [
                    f"{path.relative_to(ROOT)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_")
                ]
    return found


def test_no_app_imports_another_apps_private_names():
    assert private_imports() == []
