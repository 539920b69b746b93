"""Django's deployment check (``manage.py check --deploy``) with the settings production uses
(docs/configuration.md; docker-compose.yml behind an HTTPS proxy)."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from tools.servers import HANG_SECONDS

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "SECRET_KEY": secrets.token_urlsafe(64),  # 86 characters, many different ones
    "ALLOWED_HOSTS": "example.org",
    "CSRF_TRUSTED_ORIGINS": "https://example.org",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_COOKIES": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "DATABASE_URL": "postgres://doko:secret@postgres:5432/doko",
    "REDIS_URL": "redis://redis:6379/0",
    "NUM_PROXIES": "1",
    "LOG_LEVEL": "WARNING",
}


def deploy_check(tmp_path) -> subprocess.CompletedProcess:
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "SYSTEMROOT"}}
    env = {**keep, **PRODUCTION, "VAR_DIR": str(tmp_path), "MEDIA_ROOT": str(tmp_path / "m")}
    assert "DEBUG" not in env
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )


def warnings_of(result) -> set[str]:
    return set(re.findall(r"\(([a-z_.]+\.[WE]\d+)\)", result.stdout + result.stderr))


def test_the_deploy_check_is_clean(tmp_path):
    result = deploy_check(tmp_path)
    assert warnings_of(result) == set(), result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
