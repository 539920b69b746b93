"""The commit-msg hook (tools/commit_msg.py): it passes a message in the house style and refuses
an empty subject, a subject over 72 characters and a body without a blank line before it, naming
the rule; ``pre-commit install`` installs it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools.servers import HANG_SECONDS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "commit_msg.py"

GOOD_BODY = "Add forced-solo detection (TSR 4.2.3)\n\nThe body says why.\n"


def hook(tmp_path: Path, message: str) -> subprocess.CompletedProcess:
    """The script, run as pre-commit runs it, on a file holding ``message``."""
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(message, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )


@pytest.mark.parametrize(
    "message",
    [
        "Add forced-solo detection (TSR 4.2.3)\n",
        GOOD_BODY,
        "x" * 72,
        "\n\nLeading blank lines are dropped, as git drops them\n",
        "# a comment of git's template first\nSubject\n# and one between\n\nBody\n",
        # `git commit -v`: the diff below the scissors line is not part of the message.
        "Subject\n\n# ------------------------ >8 ------------------------\n" + "d" * 200 + "\n",
        "Prüfe die Umlaute: ÄÖÜäöüß zählen als ein Zeichen " + "ä" * 20,
    ],
    ids=["subject", "body", "72", "leading-blank", "comments", "scissors", "umlauts"],
)
def test_a_message_in_the_house_style_passes(message, tmp_path):
    result = hook(tmp_path, message)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_subject_over_72_characters_is_refused(tmp_path):
    result = hook(tmp_path, "y" * 73 + "\n\nA body.\n")
    assert result.returncode == 1
    assert "The subject is 73 characters long; at most 72 are allowed" in result.stderr


@pytest.mark.parametrize(
    "message",
    ["", "\n\n", "   \n", "# only a comment\n"],
    ids=["empty", "blank", "spaces", "comment"],
)
def test_an_empty_subject_is_refused(message, tmp_path):
    result = hook(tmp_path, message)
    assert result.returncode == 1
    assert "The subject (the first line) is empty" in result.stderr


def test_a_body_right_under_the_subject_is_refused(tmp_path):
    result = hook(tmp_path, "Add forced-solo detection\nThe body, without a blank line.\n")
    assert result.returncode == 1
    assert "separated from the subject by a blank line" in result.stderr


def test_every_broken_rule_is_named(tmp_path):
    result = hook(tmp_path, "z" * 80 + "\nNo blank line.\n")
    assert result.returncode == 1
    assert "80 characters long" in result.stderr
    assert "blank line" in result.stderr


def test_pre_commit_installs_the_hook():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    assert "commit-msg" in config["default_install_hook_types"]
    hooks = {each["id"]: each for repo in config["repos"] for each in repo["hooks"]}
    assert hooks["commit-msg"]["stages"] == ["commit-msg"]
    assert hooks["commit-msg"]["entry"].endswith("tools/commit_msg.py")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_commit_refuses_a_long_subject_once_pre_commit_is_installed(tmp_path):
    """End to end: ``pre-commit install`` in a repository of the hook alone, then ``git commit``."""
    (tmp_path / "tools").mkdir()
    shutil.copy(SCRIPT, tmp_path / "tools")
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    for repo in config["repos"]:
        repo["hooks"] = [each for each in repo["hooks"] if each["id"] == "commit-msg"]
        repo["hooks"][0]["entry"] = f"{sys.executable} tools/commit_msg.py"
    (tmp_path / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    env = {
        **os.environ,
        "HOME": str(tmp_path),  # no user's git configuration, pre-commit's cache in here
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.org",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.org",
    }

    def run(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG_SECONDS
        )

    assert run("git", "init", "-q").returncode == 0
    pre_commit = Path(sys.executable).with_name("pre-commit")
    installed = run(str(pre_commit), "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert (tmp_path / ".git" / "hooks" / "commit-msg").exists()
    assert run("git", "add", ".").returncode == 0

    refused = run("git", "commit", "-q", "-m", "w" * 73)
    assert refused.returncode != 0
    assert "73 characters long" in refused.stdout + refused.stderr
    committed = run("git", "commit", "-q", "-m", "Add the commit-msg hook", "-m", "Why.")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert run("git", "log", "--format=%s").stdout == "Add the commit-msg hook\n"
