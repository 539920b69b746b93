"""The wheel holds the whole site: every app of INSTALLED_APPS, the game core (doko) and what
they import, each module of them, and the fonts every printout embeds (pyproject.toml,
``[tool.setuptools.packages.find]``)."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
# In the repository, not in the wheel: the tests, the benchmarks, and the tools of the tests
# and of git's hooks (tools/: the throwaway servers, the commit message's check).
NOT_SHIPPED = {"tests", "bench", "tools"}
# What the apps import beside one another: the core and the two packages below every app.
BELOW_THE_APPS = {"doko", "limits", "api_base"}


def project_packages() -> set[str]:
    """The repository's top-level packages that the site runs on."""
    return {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_SHIPPED


def project_apps() -> set[str]:
    """The top-level packages of the project's own apps in INSTALLED_APPS."""
    return {
        app.split(".")[0] for app in settings.INSTALLED_APPS if (ROOT / app.split(".")[0]).is_dir()
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built without the network from a copy of the packages (the build leaves its
    build/ and egg-info there, not in the working tree)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in project_packages() | NOT_SHIPPED:
        shutil.copytree(
            ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from setuptools import build_meta; build_meta.build_wheel(sys.argv[1])",
            str(out),
        ],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("*.whl")
    return built


def test_the_apps_the_core_and_what_they_import_are_the_packages_shipped():
    assert project_apps() | {"config"} | BELOW_THE_APPS == project_packages()


def test_the_wheel_holds_every_module_of_every_package_and_the_fonts(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for package in sorted(project_packages()):
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert path.relative_to(ROOT).as_posix() in names
    assert not {name.split("/")[0] for name in names} & NOT_SHIPPED


def test_every_app_imports_from_the_wheel_alone(wheel, tmp_path):
    """In a process that sees the wheel and the dependencies but not the repository."""
    packages = sorted(project_packages())
    code = (
        "import importlib, sys\n"
        f"sys.path.insert(0, {str(wheel)!r})\n"
        f"for name in {packages!r}:\n"
        "    module = importlib.import_module(name)\n"
        f"    assert module.__file__.startswith({str(wheel)!r}), module.__file__\n"
    )
    subprocess.run([sys.executable, "-I", "-c", code], cwd=tmp_path, check=True)
