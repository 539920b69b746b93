"""A request served through every middleware, as a WSGI server does, but with the response
not yet closed: what the client has received before the server's close runs the work left
for after the response (tournaments/after_response.py)."""

from django.core.handlers.base import BaseHandler
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext


def served(method: str, path: str, data=None, **extra):
    """The response to the request, unclosed, and the queries made while answering it."""
    request = getattr(RequestFactory(), method)(path, data or {}, **extra)
    request._dont_enforce_csrf_checks = True
    handler = BaseHandler()
    handler.load_middleware()
    with CaptureQueriesContext(connection) as queries:
        response = handler.get_response(request)
    return response, queries
