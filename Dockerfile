# syntax=docker/dockerfile:1

# Production-like image of the Doppelkopf tournament system. One image for both processes:
# gunicorn serving Django (static files by whitenoise), and the Celery worker (another
# command). docker-compose.yml puts them together with PostgreSQL and Redis.
#
# Bookworm pinned: the plain python:3.11-slim tag follows the newest Debian release.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    VAR_DIR=/data \
    MEDIA_ROOT=/data/media

# The server runs as this user. The code stays root's and read-only to it; it writes only
# under /data (uploaded and generated files; mount a volume on /data/media).
RUN groupadd --system --gid 10001 doko \
 && useradd --system --uid 10001 --gid doko --create-home --home-dir /home/doko \
        --shell /usr/sbin/nologin doko \
 && install -d -o doko -g doko -m 0755 /data /data/media

WORKDIR /app

# Dependencies first, in their own layer: rebuilt only when the lock file changes.
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

COPY . .

# Static files into /app/staticfiles, hashed and compressed for whitenoise. The key only lets
# the settings load (they refuse to start without one when DEBUG is false); it exists for this
# one command and is in no layer's environment. The code is compiled here once, as it cannot
# be at run time (read-only to the server's user, and PYTHONDONTWRITEBYTECODE).
RUN chmod 0755 docker/entrypoint.sh \
 && SECRET_KEY=build-time-collectstatic-only DEBUG=false \
        python manage.py collectstatic --noinput \
 && python -m compileall -q api_base config doko limits tournaments scoring adjudication teams printing backup demo

USER doko

EXPOSE 8000

# The host name is the first of ALLOWED_HOSTS (Django answers 400 to any other), and
# X-Forwarded-Proto keeps SECURE_SSL_REDIRECT from redirecting the check to https.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import http.client, os; hosts = [h.strip() for h in os.environ.get('ALLOWED_HOSTS', '').split(',') if h.strip()]; host = (hosts or ['localhost'])[0]; host = 'localhost' if host == '*' else 'health' + host if host.startswith('.') else host; c = http.client.HTTPConnection('127.0.0.1', 8000, timeout=4); c.request('GET', '/healthz/', headers={'Host': host, 'X-Forwarded-Proto': 'https'}); raise SystemExit(c.getresponse().status != 200)"]

ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["gunicorn", "--config", "docker/gunicorn.conf.py", "config.wsgi:application"]
