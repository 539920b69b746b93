"""The rules core imports no Django, so every caller (and a plain script) can ask it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_rules_core_and_seating_import_without_django():
    modules = sorted(
        f"scoring.rules.{path.stem}"
        for path in (ROOT / "scoring/rules").glob("*.py")
        if path.stem != "__init__"
    )
    assert "scoring.rules.value" in modules
    code = (
        f"import sys, {', '.join(modules)}, scoring.simulation, tournaments.seating; "
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    # Importing the packages runs their __init__; the tournaments package must stay Django-free
    # at import time too.
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
