"""The map of the code in docs/development.md ("Where things are") is true: it names every module
of the project's packages (migrations and ``__init__.py`` aside), each on its line under its
directory, and every file and directory it names exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "development.md"
# A line of the map that names something: at most four levels deep (two spaces a level), the
# names (several with ", "), then two spaces and what they are. A continuation of a description
# is indented further.
ENTRY = re.compile(r"^(?P<indent>(?:  ){0,4})(?P<names>[^\s,]+(?:, [^\s,]+)*)(?: {2,}\S.*)?$")


def the_map() -> list[str]:
    text = DOC.read_text()
    start = text.index("## Where things are")
    block = text[text.index("```\n", start) + 4 :]
    return block[: block.index("```")].splitlines()


def named() -> dict[str, int]:
    """Each path the map names (relative to the repository; a directory ends in "/"), and its
    line in the map."""
    paths: dict[str, int] = {}
    parents: list[str] = []
    for number, line in enumerate(the_map(), start=1):
        match = ENTRY.match(line)
        if not match:
            assert line.startswith(" " * 10), f"line {number} of the map: {line!r}"
            continue
        level = len(match["indent"]) // 2
        assert level <= len(parents), f"line {number} of the map is indented too far: {line!r}"
        del parents[level:]
        names = match["names"].split(", ")
        for name in names:
            paths["".join(parents) + name] = number
        if len(names) == 1 and names[0].endswith("/"):
            parents.append(names[0])
    return paths


def modules() -> set[str]:
    """The project's modules: every .py file of its top-level packages but the tests."""
    packages = [path.parent for path in ROOT.glob("*/__init__.py") if path.parent.name != "tests"]
    return {
        path.relative_to(ROOT).as_posix()
        for package in packages
        for path in package.rglob("*.py")
        if path.name != "__init__.py" and not {"migrations", "__pycache__"} & set(path.parts)
    }


def test_every_module_has_its_line_in_the_map():
    missing = sorted(modules() - set(named()))
    assert not missing, (
        'docs/development.md, "Where things are": give these modules their line, under their '
        "directory: " + ", ".join(missing)
    )


def test_everything_the_map_names_exists():
    gone = [
        f"{path} (line {line} of the map)"
        for path, line in named().items()
        if not ((ROOT / path).is_dir() if path.endswith("/") else (ROOT / path).is_file())
    ]
    assert not gone, "docs/development.md names what is not there: " + ", ".join(gone)


def test_every_package_is_a_line_of_its_own_at_the_top():
    top = {path for path, _ in named().items() if path.count("/") == 1 and path.endswith("/")}
    packages = {f"{path.parent.name}/" for path in ROOT.glob("*/__init__.py")}
    assert packages <= top
