"""Static files: our own copies of Bootstrap and htmx, hashed for whitenoise in production."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_collectstatic_builds_the_manifest_production_serves_from(tmp_path):
    environment = {**os.environ, "DEBUG": "false", "SECRET_KEY": "collectstatic-test"}
    environment.pop("DATABASE_URL", None)
    environment["VAR_DIR"] = str(tmp_path / "var")
    code = (
        "import django; from django.conf import settings; "
        f"settings.STATIC_ROOT = {str(tmp_path / 'static')!r}; django.setup(); "
        "from django.core.management import call_command; "
        "call_command('collectstatic', interactive=False, verbosity=0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "static/staticfiles.json").read_text())["paths"]
    for name in ["vendor/bootstrap/bootstrap.min.css", "vendor/htmx/htmx.min.js", "css/app.css"]:
        assert (tmp_path / "static" / manifest[name]).exists()
    assert any(path.startswith("drf_spectacular_sidecar/swagger-ui-dist/") for path in manifest)


def test_pages_load_no_assets_from_other_hosts(client, db):
    page = client.get("/").content.decode()
    assert "/static/vendor/bootstrap/bootstrap.min.css" in page
    assert "/static/vendor/htmx/htmx.min.js" in page
    assert "http://" not in page
    assert "https://" not in page


def test_no_live_request_is_aborted_by_the_next():
    """htmx logs an aborted request (``htmx:sendAbort``, ``htmx:afterRequest``) as console
    errors, and ``hx-sync="…:replace"`` aborts the check in flight at every keystroke (issue
    47): the live checks queue the last instead, which aborts nothing."""
    root = Path(__file__).resolve().parent.parent / "templates"
    aborting = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.html"))
        if ":replace" in path.read_text() or ":abort" in path.read_text()
    ]
    assert aborting == []
    row = (root.parent / "scoring/views/sheet_parts.py").read_text()  # the entry row
    assert 'hx-sync="this:queue last"' in row


def test_the_favicon_is_a_static_file():
    icon = Path(__file__).resolve().parent.parent / "static/img/favicon.ico"
    assert icon.read_bytes()[:4] == b"\x00\x00\x01\x00"  # an ICO file's header
