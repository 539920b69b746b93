"""Worlds that many tests of a module read and change, built once for the module.

The world is written inside a transaction of its own that stays open while the module runs and
is rolled back after it (Django's ``TestCase.setUpTestData`` does the same per class): each
test's own transaction is then a savepoint within it, rolled back after the test, so every test
starts from the world as built, and nothing of it outlives the module. The tests of the module
that do not ask for the world see it too; none of them may be transactional
(``django_db(transaction=True)`` would empty the database under the open transaction).

Each test gets the world's rows read afresh (``fresh``), so that what one test changes on the
objects in memory is not seen by the next.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.db import models, transaction
from django.utils import translation

Model = TypeVar("Model", bound=models.Model)


@contextmanager
def built_once(django_db_blocker) -> Iterator[None]:
    """Open the module's transaction (pytest-django's ``django_db_blocker``), and roll it back
    at the end; in English, as the tests' services write (``english_messages``)."""
    with django_db_blocker.unblock(), translation.override("en"), transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


def fresh(instance: Model, *related: str) -> Model:
    """``instance`` read again from the database (with ``related`` selected)."""
    return type(instance)._default_manager.select_related(*related).get(pk=instance.pk)
