"""The README is the front door and docs/ the manual (MkDocs): the README stays short and names
the two commands, and the manual builds with --strict, so a link to a page or a heading that does
not exist fails here as it does in `make lint`."""

import os
import re
import subprocess
import sys
from pathlib import Path

from tools.servers import HANG_SECONDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_readme_stays_under_200_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200, f"README.md has {len(lines)} lines; move the text into docs/"


def test_readme_names_both_commands():
    text = README.read_text(encoding="utf-8")
    assert "make run" in text
    assert "make test" in text


def test_readme_links_only_to_files_that_exist():
    """The README is read on its own (a repository's front page), not through MkDocs."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [target for target in targets if "://" not in target]
    assert local, "the README points into the manual"
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing


def test_manual_names_no_file_outside_the_repository():
    for page in [README, *sorted((ROOT / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text, page
        assert not re.search(r"(?<![\w.])/(work|home|tmp)/", text), page


def test_manual_builds_strictly(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    assert (tmp_path / "index.html").is_file()
    assert (tmp_path / "rules.html").is_file()
