"""Work a request sets off that its answer must not wait for: run once the response has been
sent (at its close, which the WSGI and ASGI servers call after the last byte), so that neither
its time nor its failure shows in the answer.

A mail is the example: whether an address has an account must not be told by how long the
page took (a mail server that answers in 0.4 s would tell it), and a slow mail server must not
hold the page. With a Celery broker the work is queued to a worker from there; without one
(Celery runs eagerly) it runs in the web process after the answer.
"""

import logging
from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

logger = logging.getLogger(__name__)

_jobs: ContextVar[list[Callable[[], object]] | None] = ContextVar("after_response", default=None)


def after_response(job: Callable[[], object]) -> None:
    """Run ``job`` once the current request's response has been sent; outside a request (a
    Celery worker, a command, a test's captured commit callbacks) at once."""
    jobs = _jobs.get()
    if jobs is None:
        _run(job)
    else:
        jobs.append(job)


def task_after_response(task, *args) -> None:
    """Queue the Celery ``task`` once the response has been sent; where Celery runs eagerly
    (no broker), or the broker does not answer, run it in this process then."""
    from kombu.exceptions import OperationalError

    def send() -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            task(*args)
            return
        try:
            task.delay(*args)
        except OperationalError:
            logger.warning("Broker unreachable; running %s in-process.", task.name)
            task(*args)

    after_response(send)


def _run(job: Callable[[], object]) -> None:
    try:
        job()
    except Exception:  # the answer has gone: the failure can only be logged
        logger.exception("Work after the response failed.")


def _run_all(jobs: list[Callable[[], object]]) -> None:
    for job in jobs:
        _run(job)


class AfterResponseMiddleware:
    """Gives each request its list of work for after the response, and hands it to the
    response's close."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        jobs: list[Callable[[], object]] = []
        token = _jobs.set(jobs)
        try:
            response = self.get_response(request)
        finally:
            _jobs.reset(token)
        if jobs:
            # Django's close() calls these after the server has sent the response (the
            # documented way is a file-like response's close; the list is what calls them).
            closers = response._resource_closers  # type: ignore[attr-defined]
            closers.append(lambda: _run_all(jobs))
        return response
