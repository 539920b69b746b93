"""Test session set-up.

Django's settings are read from the environment, so the defaults for tests are set here, before
pytest-django imports them (it does so in its trylast ``pytest_configure``).
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "tests-only-not-secret")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("DEBUG", "false")
os.environ.pop("REDIS_URL", None)  # tests that need Redis start their own
