"""Celery tasks of the ranking lists: the rebuild's stands beside its service
(``services.lists``), imported here so that a worker knows it."""

from rankings.services.lists import ranking_rebuild_task  # noqa: F401
