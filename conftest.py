"""Test session set-up: the environment's defaults for the tests, then the plugins.

Django's settings are read from the environment, so the defaults for tests are set here, before
any plugin runs; ``tests/plugins/servers.py`` then loads the settings in its ``tryfirst``
``pytest_configure`` (after the PostgreSQL cluster of ``--postgres`` is up), and pytest-django's
``trylast`` ``pytest_configure`` sets Django up. The two passes of ``make test`` and the servers
they start are described in that plugin.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "tests-only-not-secret")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("DEBUG", "false")
# Production asks a second factor of the administration's accounts; the tests that check it
# switch it on themselves, the others log in with passwords alone.
os.environ.setdefault("OTP_REQUIRED_FOR_ADMINS", "false")
# Tests that need Redis start their own, as the cache and as the broker.
os.environ.pop("REDIS_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)

pytest_plugins = ["tests.plugins.servers", "tests.plugins.backends", "tests.plugins.parallel"]
