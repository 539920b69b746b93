"""The commit-msg hook (.pre-commit-config.yaml): a commit message keeps the house style of
commits.

- The subject, the first line, says what the commit does: it is not empty, and it is at most
  72 characters long, so that ``git log --oneline`` and the forges show it whole.
- The body, if any, follows after a blank line: git and its tools take everything up to the first
  blank line as the subject.

Read as git keeps the message: comment lines (``#``) and everything below the scissors line of
``git commit -v`` are dropped, and so are blank lines before the subject.

Usage: ``python tools/commit_msg.py <file>``; exits 1 and names the broken rule.
"""

import sys
from pathlib import Path

MAX_SUBJECT = 72
SCISSORS = "# ------------------------ >8 ------------------------"


def message_lines(text: str) -> list[str]:
    """The message's lines as git stores them: without comments, the diff below the scissors
    and the blank lines before the subject."""
    lines = []
    for line in text.splitlines():
        if line == SCISSORS:
            break
        if not line.startswith("#"):
            lines.append(line.rstrip())
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def problems(text: str) -> list[str]:
    """What in the message breaks the rules, one sentence each; none if it keeps them."""
    lines = message_lines(text)
    if not lines:
        return ["The subject (the first line) is empty: say what the commit does."]
    found = []
    subject = lines[0]
    if len(subject) > MAX_SUBJECT:
        found.append(
            f"The subject is {len(subject)} characters long; at most {MAX_SUBJECT} are allowed: "
            f"{subject!r}"
        )
    if len(lines) > 1 and lines[1]:
        found.append("The body must be separated from the subject by a blank line.")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python tools/commit_msg.py <commit message file>", file=sys.stderr)
        return 2
    found = problems(Path(argv[1]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"commit-msg: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
