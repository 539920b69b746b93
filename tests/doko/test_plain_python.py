"""The game core imports no Django, so every caller (and a plain script) can ask it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def core_modules() -> list[str]:
    return sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "doko").rglob("*.py")
    )


def test_every_module_of_the_core_imports_without_django():
    modules = core_modules()
    assert {"doko.rules.value", "doko.seating", "doko.standings", "doko.simulation"} <= set(modules)
    code = (
        f"import sys, {', '.join(modules)}; "
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
