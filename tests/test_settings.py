"""Settings come from the environment (docs/configuration.md)."""

import os
import subprocess
import sys
from pathlib import Path

from tools.servers import HANG_SECONDS

ROOT = Path(__file__).resolve().parent.parent


def run_django(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "VAR_DIR"}
    }
    environment.update({"DJANGO_SETTINGS_MODULE": "config.settings", **env})
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )


def test_production_without_a_secret_key_refuses_to_start(tmp_path):
    result = run_django("", DEBUG="false", VAR_DIR=str(tmp_path))
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_local_run_generates_a_key_once_and_keeps_it(tmp_path):
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path))
    second = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert len(first.stdout.strip()) >= 50
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_default_database_is_sqlite_under_var_with_wal_and_immediate_transactions(tmp_path):
    code = (
        "from django.db import connection; c = connection.cursor(); "
        "c.execute('PRAGMA journal_mode'); print(c.fetchone()[0]); "
        "print(connection.settings_dict['NAME']); print(connection.transaction_mode)"
    )
    result = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    mode, name, transaction_mode = result.stdout.split()
    assert mode == "wal"
    assert name == str(tmp_path / "db.sqlite3")
    assert transaction_mode == "IMMEDIATE"


def test_database_url_chooses_the_database(tmp_path):
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    result = run_django(
        code, DEBUG="true", VAR_DIR=str(tmp_path), DATABASE_URL="postgres://u:p@db:5432/doko"
    )
    assert result.stdout.strip() == "django.db.backends.postgresql"


def test_without_redis_tasks_run_in_process_and_with_redis_through_the_broker(tmp_path):
    code = "from config.celery import app; print(app.conf.task_always_eager, app.conf.broker_url)"
    local = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path))
    assert local.stdout.split() == ["True", "memory://"]
    remote = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path), REDIS_URL="redis://r:6379/0")
    assert remote.stdout.split() == ["False", "redis://r:6379/0"]


CACHE_AND_BROKER = (
    "from django.conf import settings; from config.celery import app; "
    "print(settings.CACHES['default']['BACKEND'], "
    "settings.CACHES['default'].get('LOCATION') or '-', app.conf.broker_url, "
    "app.conf.task_always_eager)"
)


def test_the_broker_is_a_redis_of_its_own_when_celery_broker_url_names_one(tmp_path):
    both = run_django(
        CACHE_AND_BROKER,
        DEBUG="true",
        VAR_DIR=str(tmp_path),
        REDIS_URL="redis://cache:6379/0",
        CELERY_BROKER_URL="redis://broker:6379/0",
    )
    assert both.returncode == 0, both.stderr
    assert both.stdout.split() == [
        "config.redis_cache.RedisCache",  # Django's, its clients made once
        "redis://cache:6379/0",
        "redis://broker:6379/0",
        "False",
    ]
    # A broker without REDIS_URL: the tasks go through it, the cache stays in memory.
    broker_only = run_django(
        CACHE_AND_BROKER,
        DEBUG="true",
        VAR_DIR=str(tmp_path),
        CELERY_BROKER_URL="redis://broker:6379/0",
    )
    assert broker_only.stdout.split() == [
        "django.core.cache.backends.locmem.LocMemCache",
        "-",
        "redis://broker:6379/0",
        "False",
    ]


def test_time_zone_and_languages(settings):
    assert settings.TIME_ZONE == "Europe/Berlin"
    assert [code for code, _ in settings.LANGUAGES] == ["de", "en"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


def test_the_site_url_host_is_always_allowed(tmp_path):
    code = "from django.conf import settings; print(settings.ALLOWED_HOSTS)"
    result = run_django(
        code, DEBUG="true", VAR_DIR=str(tmp_path), SITE_URL="http://192.168.1.20:8000/"
    )
    assert result.returncode == 0, result.stderr
    assert "'192.168.1.20'" in result.stdout
    assert "'127.0.0.1'" in result.stdout


EMAIL = (
    "from django.conf import settings as s; "
    "print(s.EMAIL_BACKEND, s.EMAIL_HOST or '-', s.EMAIL_PORT, s.EMAIL_HOST_USER or '-', "
    "s.EMAIL_HOST_PASSWORD or '-', s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL)"
)


def test_mail_goes_to_the_console_unless_a_mail_server_is_named(tmp_path):
    result = run_django(EMAIL, DEBUG="true", VAR_DIR=str(tmp_path), EMAIL_HOST="")
    assert result.returncode == 0, result.stderr
    backend, host, *_rest, sender = result.stdout.split()
    assert backend == "django.core.mail.backends.console.EmailBackend"
    assert (host, sender) == ("-", "webmaster@localhost")


def test_mail_goes_by_smtp_when_email_host_is_set(tmp_path):
    result = run_django(
        EMAIL,
        DEBUG="true",
        VAR_DIR=str(tmp_path),
        EMAIL_HOST="mail.example.org",
        EMAIL_PORT="465",
        EMAIL_HOST_USER="turnier",
        EMAIL_HOST_PASSWORD="geheim",
        EMAIL_USE_TLS="false",
        DEFAULT_FROM_EMAIL="turnier@example.org",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        "465",
        "turnier",
        "geheim",
        "False",
        "turnier@example.org",
    ]


def test_smtp_uses_tls_on_port_587_by_default(tmp_path):
    result = run_django(EMAIL, DEBUG="true", VAR_DIR=str(tmp_path), EMAIL_HOST="mail.example.org")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[2::3] == ["587", "True"]


def test_files_go_under_media_root_by_default_and_to_the_storage_named(tmp_path):
    code = (
        "from django.core.files.storage import default_storage as s; "
        "where = s.location; print(type(s._wrapped).__name__, where)"
    )
    result = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["FileSystemStorage", str(tmp_path / "media")]
    named = run_django(
        code,
        DEBUG="true",
        VAR_DIR=str(tmp_path),
        FILE_STORAGE="django.core.files.storage.InMemoryStorage",
        FILE_STORAGE_OPTIONS='{"location": "/scans"}',
    )
    assert named.returncode == 0, named.stderr
    assert named.stdout.split() == ["InMemoryStorage", "/scans"]


def test_storage_options_that_are_no_json_object_refuse_to_start(tmp_path):
    for options in ("{not json", "[1]"):
        result = run_django("", DEBUG="true", VAR_DIR=str(tmp_path), FILE_STORAGE_OPTIONS=options)
        assert result.returncode != 0
        assert "FILE_STORAGE_OPTIONS" in result.stderr


PREPARED = (
    "from django.conf import settings; o = settings.DATABASES['default'].get('OPTIONS', {}); "
    "print(o.get('server_side_binding'), o.get('prepare_threshold'))"
)


def test_postgresql_prepares_the_queries_a_connection_runs_again(tmp_path):
    """A query run five times on a connection is planned once (DATABASE_PREPARE_THRESHOLD);
    ``off`` for a pooler that cannot keep prepared statements; SQLite has none."""

    def options(**env: str) -> subprocess.CompletedProcess:
        return run_django(PREPARED, DEBUG="true", VAR_DIR=str(tmp_path), **env)

    url = "postgres://u:p@db:5432/doko"
    for env, wanted in (
        ({"DATABASE_URL": url}, ["True", "5"]),
        ({"DATABASE_URL": url, "DATABASE_PREPARE_THRESHOLD": "off"}, ["None", "None"]),
        ({}, ["None", "None"]),
    ):
        result = options(**env)
        assert result.stdout.split() == wanted, (env, result.stderr)
    wrong = options(DATABASE_URL=url, DATABASE_PREPARE_THRESHOLD="often")
    assert wrong.returncode != 0
    assert "DATABASE_PREPARE_THRESHOLD must be a whole number or off" in wrong.stderr


def test_postgresql_connections_are_kept_ten_minutes_unless_told_otherwise(tmp_path):
    """A web thread's connection lives ``CONN_MAX_AGE`` seconds, 600 unless set: a new one is
    slow for its first statements (issue 45). SQLite opens its file per request as Django does."""
    code = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    url = "postgres://u:p@db:5432/doko"
    for env, wanted in (
        ({"DATABASE_URL": url}, "600"),
        ({"DATABASE_URL": url, "CONN_MAX_AGE": "0"}, "0"),
        ({}, "0"),
    ):
        result = run_django(code, DEBUG="true", VAR_DIR=str(tmp_path), **env)
        assert result.stdout.split() == [wanted], (env, result.stderr)
