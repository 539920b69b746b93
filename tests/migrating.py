"""Migrating the test database to a given state and back to the newest, for the tests of a
migration's data steps (each app's ``test_migration*.py``)."""

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]]) -> Apps:
    """The database migrated to ``targets`` (app, migration), and the models as they stood
    there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> Apps:
    """The database migrated forward to every app's newest migration, as the tests expect it."""
    return migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
