"""Requests at the same instant, for the concurrency tests of the `--postgres` pass."""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connection

WAIT = 60  # seconds a thread waits for the others before the test fails instead of hanging


def together(requests: list[Callable[[], Any]]) -> list[Any]:
    """Run each request in a thread of its own, all released at once by a barrier, so that
    their transactions overlap; their answers, in order. Each thread has its own database
    connection (Django's are per thread) and closes it when done. The test must be
    transactional: the threads see only what is committed."""
    start = threading.Barrier(len(requests))

    def run(request: Callable[[], Any]) -> Any:
        try:
            start.wait(WAIT)
            return request()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        futures = [pool.submit(run, request) for request in requests]
        return [future.result() for future in futures]
