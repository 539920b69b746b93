#!/bin/sh
# Entry point of the image, for the web server and the Celery worker alike.
#
# RUN_MIGRATIONS=1 (set for the web service only): wait for the database, then apply the
# migrations. Before gunicorn starts it waits for the database in any case. Then it runs the
# command it was given (the image's CMD, or the `command:` of docker-compose.yml).
#
# DB_WAIT_SECONDS: how long to wait for the database to answer (default 60).
set -eu

# gunicorn reads WEB_CONCURRENCY when it is imported and fails on an empty value;
# docker-compose.yml passes an empty one when .env leaves it unset, meaning "automatic".
if [ -z "${WEB_CONCURRENCY:-}" ]; then
    unset WEB_CONCURRENCY
fi

# Exits 0 when the database answers, 75 while it cannot be reached, 1 on any other error
# (a wrong setting, say), on which waiting makes no sense.
DB_CHECK='
import sys
import django
django.setup()
from django.db import OperationalError, connection
try:
    connection.ensure_connection()
except OperationalError as error:
    print(str(error).strip().partition("\n")[0] or repr(error), file=sys.stderr)
    sys.exit(75)
'

wait_for_database() {
    limit=${DB_WAIT_SECONDS:-60}
    deadline=$(( $(date +%s) + limit ))
    while :; do
        status=0
        output=$(python -c "$DB_CHECK" 2>&1) || status=$?
        if [ "$status" -eq 0 ]; then
            return 0
        fi
        if [ "$status" -ne 75 ]; then
            printf '%s\n' "$output" >&2
            exit "$status"
        fi
        if [ "$(date +%s)" -ge "$deadline" ]; then
            echo "entrypoint: the database did not answer within ${limit}s: $output" >&2
            exit 1
        fi
        echo "entrypoint: waiting for the database: $output" >&2
        sleep 2
    done
}

# The migrations, then the stored standings of tournaments from before them (once). Several
# web replicas (`docker compose up --scale web=3`) start together: on PostgreSQL each holds an
# advisory lock while it migrates, so they migrate one after the other, not at once.
MIGRATE='
import django
django.setup()
from django.core.management import call_command
from django.db import connection
if connection.vendor == "postgresql":
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(4504)")  # released when this process ends
call_command("migrate", interactive=False)
call_command("standings_rebuild", missing=True)
'

if [ "${RUN_MIGRATIONS:-0}" = "1" ]; then
    wait_for_database
    python -c "$MIGRATE"
elif [ "${1:-}" = "gunicorn" ]; then
    wait_for_database
fi

if [ -n "${MEDIA_ROOT:-}" ] && ! { mkdir -p "$MEDIA_ROOT" && [ -w "$MEDIA_ROOT" ]; } 2>/dev/null; then
    echo "entrypoint: warning: MEDIA_ROOT ($MEDIA_ROOT) is not writable by $(id -un); PDFs cannot be stored" >&2
fi

exec "$@"
