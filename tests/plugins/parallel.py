"""The suite in parallel processes (pytest-xdist), as ``make test`` runs it: ``-n auto --dist
loadfile``.

With ``--dist loadfile`` each test file goes to one worker process in one piece, so that what a
module builds once (the permission matrix's world, the demo) is built once. pytest-xdist would
hand out the biggest files first; the scheduler here hands them out in the order pytest-django
puts the tests in (``FIRST`` at the front), and a file whose tests pytest-django splits up goes out in as many pieces. That
order matters: pytest-django runs the transactional tests (``transaction=True``, the live server)
after the others because they end by emptying the database, data migrations' rows included (the
Organisers group, the catalogue of offences), which the other tests expect to find.

Each worker has a test database of its own (pytest-django adds ``_gw0``, ``_gw1``, … to its name)
and, in the ``--postgres`` pass, a PostgreSQL cluster, Redis and Celery worker of its own
(``tests/plugins/servers.py``).
"""

import pytest

# Files that take a good part of a pass on their own (the API's property test: over a thousand
# generated requests, in the PostgreSQL pass). They go out first, so that the other workers share
# the rest meanwhile instead of waiting for them at the end.
FIRST = ("tests/test_api_fuzz.py",)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]):
    """``FIRST`` to the front, before pytest-django puts the transactional tests last (its sort
    keeps this order within each kind)."""
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))
    return (yield)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class InOrder(LoadScopeScheduling):
        """``--dist loadfile`` in the collection's order: a scope is a file's run of
        consecutive tests."""

        def __init__(self, config: pytest.Config, log=None) -> None:
            super().__init__(config, log)
            self.config.option.loadscopereorder = False
            self._scopes: dict[str, str] = {}

        def _split_scope(self, nodeid: str) -> str:
            if not self._scopes:
                previous, runs = None, 0
                for each in self.collection or ():
                    file = each.split("::", 1)[0]
                    if file != previous:
                        previous, runs = file, runs + 1
                    self._scopes[each] = f"{file} ({runs})"
            return self._scopes.get(nodeid) or nodeid.split("::", 1)[0]

    return InOrder(config, log)
