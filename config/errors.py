"""The answers when the server fails: the database away (HTTP 503 with Retry-After) or anything
else (HTTP 500), as a page in the site's layout or, for the API, as JSON in its error shape
(``{"detail": …}``).

Both are rendered without asking the database anything: no session, no user, no messages. The
language is the reader's cookie or the browser's Accept-Language (what ``LocaleMiddleware``
reads too), and the page is rendered without the request's context processors, so that the
page about a database that does not answer is not itself stopped by the database.
"""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

# What Django raises when the database does not answer (a restart, a dropped connection).
DATABASE_AWAY = (OperationalError, InterfaceError)
# How long a client is asked to wait: a database restart takes seconds.
RETRY_AFTER = 30


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def server_error(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """``handler500``: Django calls it while handling the exception, which says which answer."""
    away = isinstance(sys.exc_info()[1], DATABASE_AWAY)
    language = translation.get_language_from_request(request)
    with translation.override(language):
        if away:
            message = gettext(
                "The database is not answering at the moment. Please try again in a minute."
            )
        else:
            message = gettext(
                "Something went wrong on the server. It has been logged; please try again."
            )
        response: HttpResponse
        if _is_api(request):
            response = JsonResponse({"detail": message}, json_dumps_params={"ensure_ascii": False})
        else:
            response = HttpResponse(
                render_to_string(
                    "503.html" if away else "500.html",
                    {"message": message, "LANGUAGE_CODE": language},
                )
            )
    response.status_code = 503 if away else 500
    response["Content-Language"] = language
    if away:
        response["Retry-After"] = str(RETRY_AFTER)
    return response
