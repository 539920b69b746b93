"""The boundaries `make lint` checks hold, and bite: import-linter's contracts (the game core
imports no Django; apps import only downwards and never config; each app's modules import one
way) fail on a deliberate violation, no app imports another
app's private names, no template loads the tags or includes the templates of an app above
its own, and no template or module names a route without its namespace or a route of an app
above its own (it goes through a door, tournaments.doors)."""

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.template import Engine

from tools.servers import HANG_SECONDS

ROOT = Path(__file__).resolve().parents[1]
APPS = [
    "config",
    "tournaments",
    "rankings",
    "registration",
    "scoring",
    "adjudication",
    "teams",
    "printing",
    "backup",
    "demo",
]
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
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
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
        results.read_text() + "\nfrom tournaments.tasks import password_reset_mail_task\n"
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
        # rounds imports common: back, a circle.
        common.read_text() + "\nfrom tournaments.services.rounds import round_seat\n"
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
# folder (``templates/<app>/…``, in the project's folder or an app's); the generic ones at the
# top (``base.html``, the error pages) lie below every app, which all extend them. The folder of
# Django's auth pages, ``registration/``, is shared with the registration app: the auth pages
# (the login, the password reset, invitations, roles, the second factor; ``CONFIG_PAGES``) are
# config's login and accounts, everything else in it is the registration app's.
TEMPLATE_FOLDERS: dict[str, str] = {}
CONFIG_PAGES = re.compile(
    r"registration/(partials/)?(login|password_reset|invitation|roles|second_factor|"
    r"staff_invitation|new_password)[._]"
)
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
    if CONFIG_PAGES.match(name):
        return "config.login"
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


def test_the_registration_folder_is_the_apps_but_for_configs_auth_pages(tmp_path):
    # Django's auth pages share ``registration/`` with the registration app: theirs are
    # config's (the top), the app's own keep to its layer, beside scoring.
    folder = tmp_path / "registration"
    folder.mkdir()
    (folder / "login.html").write_text('{% include "scoring/partials/x.html" %}\n')
    (folder / "check_in.html").write_text(
        '{% load tournament_tags scoring_tags %}{% include "printing/x.html" %}\n'
    )
    assert template_module("registration/partials/second_factor_code.html") == "config.login"
    assert template_module("registration/partials/check_in_row.html") == "registration"
    assert upward_references(template_files([tmp_path]), Engine.get_default().libraries) == [
        "registration/check_in.html:1: loads scoring_tags (scoring.templatetags.scoring_tags, beside registration)",
        "registration/check_in.html:1: includes printing/x.html (printing, above registration)",
    ]


# Routes keep to the layers too (issue 48). Every app's routes are in its namespace
# (``tournaments:round``, the API's in ``api:``), and a page of a lower app reaches a page of
# an upper one only through a door the upper app registers (``tournaments.doors``, as the
# round's page has its boxes, ``tournaments.round_page``), never by naming its route. A route
# is the app's whose view it calls (``api:scoresheet`` is scoring's). Config's own routes, the
# site's frame (the login and logout, the second factor, the password reset whose names
# Django's auth views reverse, the roles and invitations of an account, the language switch,
# healthz, the favicon, the API's schema and docs) and Django's admin keep their names and are
# reachable from every layer. For routes, the templates at the top (``base.html``, the error
# pages) are config's: the frame of every page, with links to every app's front page.
URL_TAG = re.compile(r"""{%\s*url\s+(["'])([^"']+)\1""")
ROUTE_CALLS = {"reverse", "reverse_lazy", "redirect", "resolve_url"}
ROUTE_NAME = re.compile(r"^[\w-]+(:[\w-]+)*$")
FRAME_TEMPLATES = "config.urls"


def route_owners() -> tuple[dict[str, str], set[str]]:
    """Every namespaced route of the site with the module of its view, and the names of the
    frame's routes (config's own, without a namespace)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    owners: dict[str, str] = {}
    frame: set[str] = set()

    def walk(resolver: URLResolver, namespace: str | None) -> None:
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace
                walk(pattern, f"{namespace}:{inner}" if namespace and inner else inner or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                view = pattern.callback
                module = getattr(getattr(view, "view_class", view), "__module__", "")
                if namespace:
                    owners[f"{namespace}:{pattern.name}"] = module
                else:
                    frame.add(pattern.name)

    walk(get_resolver(), None)
    return owners, frame


def python_routes(path: Path) -> list[tuple[int, str]]:
    """The route names a module gives ``reverse``, ``reverse_lazy``, ``redirect`` or
    ``resolve_url`` as a literal: ``(line, name)``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        function = node.func
        called = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
        first = node.args[0]
        if (
            called in ROUTE_CALLS
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and ROUTE_NAME.match(first.value)
        ):
            found.append((node.lineno, first.value))
    return found


def template_routes(path: Path) -> list[tuple[int, str]]:
    """The route names a template's ``{% url %}`` tags give as a literal: ``(line, name)``."""
    return [
        (number, match.group(2))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in URL_TAG.finditer(line)
    ]


def route_problems(where: str, module: str, routes: list[tuple[int, str]]) -> list[str]:
    """``where:line: route (why)`` for each route of ``module`` that has no namespace and is
    not the frame's, that no app has, or that climbs: its app lies above ``module``'s, or
    beside it in a layer of independent apps."""
    owners, frame = route_owners()
    stack = layers()
    # Config's modules outside the layers (its settings, its health check) are at its top.
    own = layer_of(module, stack) or layer_of(FRAME_TEMPLATES, stack)
    assert own is not None, f"{where}: {module}"
    found = []
    for number, name in routes:
        if ":" not in name:
            if name not in frame:
                found.append(f"{where}:{number}: {name} (no namespace: an app's route is app:name)")
            continue
        if name.split(":")[0] == ADMIN_NAMESPACE:
            continue  # Django's admin: the frame's
        if name not in owners:
            found.append(f"{where}:{number}: {name} (no such route)")
            continue
        theirs = layer_of(owners[name], stack)
        if theirs is None:
            continue  # a view of Django's own
        if theirs[0] < own[0]:
            found.append(f"{where}:{number}: {name} ({theirs[1]}, above {own[1]}: a climb)")
        elif theirs[0] == own[0] and theirs[1] != own[1] and own[2]:
            found.append(f"{where}:{number}: {name} ({theirs[1]}, beside {own[1]}: a climb)")
    return found


ADMIN_NAMESPACE = "admin"


def route_references(root: Path, templates: dict[str, Path]) -> list[str]:
    """The route problems (``route_problems``) of every module of the packages under ``root``
    and of every template given."""
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(
                ".__init__"
            )
            found += route_problems(str(path.relative_to(root)), module, python_routes(path))
    for name, path in templates.items():
        module = template_module(name)
        module = FRAME_TEMPLATES if module == GENERIC else module
        found += route_problems(name, module, template_routes(path))
    return found


def test_every_route_is_namespaced_and_none_climbs():
    assert route_references(ROOT, project_templates()) == []


def test_a_climbing_route_in_a_copy_is_named(copy):
    # As in the project: a page of tournaments naming adjudication's page, a module of scoring
    # naming the teams', one naming a route without its namespace; a lower app naming its own
    # and a lower app's routes, and the frame's, is fine.
    page = copy / "templates" / "tournaments" / "climb.html"
    page.parent.mkdir(parents=True)
    page.write_text(
        "{% url 'tournaments:round' t.slug 1 %}{% url 'login' %}\n"
        "<a href=\"{% url 'adjudication:adjudication' t.slug %}\">x</a>\n"
        "{% url 'api:tournament' t.slug %}{% url 'api:decisions' t.slug %}\n"
    )
    (copy / "scoring" / "climb.py").write_text(
        "from django.shortcuts import redirect\nfrom django.urls import reverse\n\n"
        "reverse('tournaments:round', args=['x', 1])\n"
        "redirect('teams:competitions')\n"
        "reverse('round', args=['x', 1])\n"
        "redirect('/not/a/name/')\n"
    )
    found = route_references(copy, template_files([copy / "templates"]))
    assert [line for line in found if "climb" in line.split(":")[0]] == [
        "scoring/climb.py:5: teams:competitions (teams, above scoring: a climb)",
        "scoring/climb.py:6: round (no namespace: an app's route is app:name)",
        "tournaments/climb.html:2: adjudication:adjudication (adjudication, above tournaments: a climb)",
        "tournaments/climb.html:3: api:decisions (adjudication, above tournaments: a climb)",
    ]
