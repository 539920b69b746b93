"""The boundaries `make lint` checks hold, and bite: import-linter's contracts (the game core
imports no Django; apps import only downwards and never config; each app's modules import one
way) fail on a deliberate violation, no app imports another
app's private names, and no template loads the tags or includes the templates of an app above
its own."""

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.template import Engine

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
    assert "Contracts: 4 kept, 0 broken." in result.stdout


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


ONE_WAY = "The modules of each app import one way, without a circle BROKEN"


def test_a_service_that_imports_the_tasks_running_it_closes_a_circle(copy):
    # As results_refresh once queued the rebuild through tournaments.tasks, which imported
    # every service module.
    results = copy / "tournaments" / "services" / "results.py"
    results.write_text(
        results.read_text() + "\nfrom tournaments.tasks import personal_links_send\n"
    )
    result = lint_imports(copy)
    assert result.returncode == 1
    assert ONE_WAY in result.stdout
    assert "No cycles are allowed in tournaments." in result.stdout


def test_printing_services_and_tasks_importing_each_other_close_a_circle(copy):
    services = copy / "printing" / "services.py"
    services.write_text(services.read_text() + "\nfrom printing.tasks import recover_task\n")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert ONE_WAY in result.stdout
    assert "No cycles are allowed in printing." in result.stdout


def test_two_service_modules_importing_each_other_close_a_circle(copy):
    common = copy / "tournaments" / "services" / "common.py"
    common.write_text(
        common.read_text() + "\nfrom tournaments.services.results import results_refresh\n"
    )
    result = lint_imports(copy)
    assert result.returncode == 1
    assert ONE_WAY in result.stdout
    assert "No cycles are allowed in tournaments.services." in result.stdout


def test_an_app_importing_config_breaks_its_contract(copy):
    # config wires the apps together; what an app needs of it belongs lower (as the API's
    # parser moved to api_base).
    (copy / "scoring" / "wired.py").write_text("from config import urls\n")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert "No app imports config: it is only at the top BROKEN" in result.stdout
    assert "scoring.wired -> config.urls" in result.stdout


def test_a_circle_inside_scoring_breaks_the_one_way_contract(copy):
    models = copy / "scoring" / "models.py"
    models.write_text(models.read_text() + "\nfrom scoring.selectors import sheets\n")
    result = lint_imports(copy)
    assert result.returncode == 1
    assert ONE_WAY in result.stdout
    assert "No cycles are allowed in scoring." in result.stdout


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


# Templates keep to the layers too: a template loads the tag libraries of its own app and of the
# apps below it, and includes or extends only their templates. A template is its app's by its
# folder (``templates/<app>/…``, in the project's folder or an app's); the folder of Django's
# auth pages, ``registration/``, is config's login and accounts; the generic ones at the top
# (``base.html``, the error pages) lie below every app, which all extend them.
TEMPLATE_FOLDERS = {"registration": "config.login"}
GENERIC = "(generic)"
LOAD = re.compile(r"{%\s*load\s+(.*?)\s*%}")
INCLUDE = re.compile(r"""{%\s*(include|extends)\s+(["'])(.+?)\2""")
VERBS = {"include": "includes", "extends": "extends"}


def layers() -> list[list[tuple[str, bool]]]:
    """The layers of pyproject.toml's import-linter contract, top first: each a list of its
    modules, with whether they are independent of each other (``|``) or not (``:``)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        contract
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["type"] == "layers"
    ]
    return [
        [(module.strip(), "|" in layer) for module in re.split(r"[|:]", layer)]
        for layer in contract["layers"]
    ]


def layer_of(module: str, stack: list[list[tuple[str, bool]]]) -> tuple[int, str, bool] | None:
    """The index of the layer holding ``module``, its member that does, and whether that
    layer's members are independent; None for a module of no layer (Django's own, a library's).
    The generic templates lie below the lowest layer."""
    if module == GENERIC:
        return len(stack), GENERIC, False
    found = [
        (index, member, independent)
        for index, layer in enumerate(stack)
        for member, independent in layer
        if module == member or module.startswith(member + ".")
    ]
    return max(found, key=lambda hit: len(hit[1])) if found else None


def template_module(name: str) -> str:
    """The module a template belongs to, by its name (``scoring/partials/x.html``)."""
    folder, _, rest = name.partition("/")
    return TEMPLATE_FOLDERS.get(folder, folder) if rest else GENERIC


def template_files(roots: list[Path]) -> dict[str, Path]:
    """Every template under the template folders given, by the name Django loads it by."""
    return {
        path.relative_to(root).as_posix(): path
        for root in roots
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.suffix in {".html", ".txt", ".xml", ".svg"}
    }


def loaded(arguments: str) -> list[str]:
    """The libraries a ``{% load %}`` names: each word, or with ``from`` the last one."""
    words = arguments.split()
    return words[-1:] if "from" in words else words


def references(line: str, libraries: dict[str, str]) -> list[tuple[str, str | None]]:
    """What a line of a template loads, includes or extends, each with the module it is of
    (None: a tag library no app has)."""
    return [
        (f"loads {library}", libraries.get(library))
        for match in LOAD.finditer(line)
        for library in loaded(match.group(1))
    ] + [
        (f"{VERBS[match.group(1)]} {match.group(3)}", template_module(match.group(3)))
        for match in INCLUDE.finditer(line)
    ]


def upward_references(templates: dict[str, Path], libraries: dict[str, str]) -> list[str]:
    """Each ``{% load %}`` of a tag library and each ``{% include %}``/``{% extends %}`` of a
    template that lies above the template's own app, or beside it in a layer of independent
    apps, or that no app has: ``template:line: what it references (its module, where)``."""
    stack = layers()
    found = []
    for name, path in templates.items():
        own = layer_of(template_module(name), stack)
        assert own is not None, f"{name}: its folder is no app of the layers"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for what, module in references(line, libraries):
                theirs = None if module is None else layer_of(module, stack)
                if module is None:
                    found.append(f"{name}:{number}: {what} (no app has this library)")
                elif theirs is None:
                    continue  # Django's own (i18n, static), below every app
                elif theirs[0] < own[0]:
                    found.append(f"{name}:{number}: {what} ({module}, above {own[1]})")
                elif theirs[0] == own[0] and theirs[1] != own[1] and own[2]:
                    found.append(f"{name}:{number}: {what} ({module}, beside {own[1]})")
    return found


def project_templates() -> dict[str, Path]:
    """The project's templates: its own folder's and any app's."""
    roots = [ROOT / "templates"] + [ROOT / package / "templates" for package in PACKAGES]
    return template_files([root for root in roots if root.is_dir()])


def test_templates_use_only_their_own_and_lower_apps_tags_and_templates():
    assert upward_references(project_templates(), Engine.get_default().libraries) == []


def test_an_upward_load_or_include_in_a_template_is_named(tmp_path):
    page = tmp_path / "tournaments" / "page.html"
    page.parent.mkdir()
    page.write_text(
        '{% extends "base.html" %}\n'
        "{% load i18n tournament_tags scoring_tags %}\n"
        '{% include "tournaments/partials/x.html" %}{% include "adjudication/partials/form.html" %}\n'
        "{% load qr_svg from tournament_tags %}{% load hand_initials from scoring_tags %}\n"
        "{% load gone_tags %}\n"
    )
    sideways = tmp_path / "printing" / "job.html"
    sideways.parent.mkdir()
    sideways.write_text('{% extends "demo/page.html" %}{% include "teams/x.html" %}\n')
    assert upward_references(template_files([tmp_path]), Engine.get_default().libraries) == [
        "printing/job.html:1: extends demo/page.html (demo, beside printing)",
        "tournaments/page.html:2: loads scoring_tags (scoring.templatetags.scoring_tags, above tournaments)",
        "tournaments/page.html:3: includes adjudication/partials/form.html (adjudication, above tournaments)",
        "tournaments/page.html:4: loads scoring_tags (scoring.templatetags.scoring_tags, above tournaments)",
        "tournaments/page.html:5: loads gone_tags (no app has this library)",
    ]
