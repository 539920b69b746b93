"""The seats' private keys never reach a log (config/logs.py): Django's server writes its request
lines, Django warns about refused requests, and gunicorn writes its access log
(docker/gunicorn.conf.py) with ``/s/…/`` where the key was."""

import datetime
import logging
import runpy
from types import SimpleNamespace

import pytest
from django.core.servers.basehttp import WSGIRequestHandler
from django.test import Client
from django.urls import reverse
from gunicorn.config import Config

from config.logs import SeatKeyFilter, mask_seat_keys
from tests import factories
from tests.test_deploy_check import ROOT
from tournaments import services

KEY = "Xy_3-abcdefghijklmnopqrstuvwxyz012"


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        (f"GET /s/{KEY}/ HTTP/1.1", "GET /s/…/ HTTP/1.1"),
        (f"POST /s/{KEY}/check/ HTTP/1.1", "POST /s/…/check/ HTTP/1.1"),
        (f"/s/{KEY}/history/", "/s/…/history/"),
        (f"Not Found: /s/{KEY}/", "Not Found: /s/…/"),
        (f"GET /s/{KEY}?x=1 HTTP/1.1", "GET /s/…?x=1 HTTP/1.1"),
        (f'"https://example.org/s/{KEY}/"', '"https://example.org/s/…/"'),
        (f"http://192.168.1.20:8000/s/{KEY}/save/", "http://192.168.1.20:8000/s/…/save/"),
        (f"/language/en/?next=%2Fs%2F{KEY}%2F", "/language/en/?next=%2Fs%2F…%2F"),
        (f"/accounts/login/?next=%2fs%2f{KEY}%2f&x=1", "/accounts/login/?next=%2fs%2f…%2f&x=1"),
        (f"/accounts/login/?next=/s/{KEY}/", "/accounts/login/?next=/s/…/"),
        ("GET /s/made%20up%3Ckey%3E/ HTTP/1.1", "GET /s/…/ HTTP/1.1"),
        (f"/s/{KEY}/ and /s/{KEY[::-1]}/", "/s/…/ and /s/…/"),
        # Not a seat link: left as it is.
        ("/tournaments/s/rounds/1/", "/tournaments/s/rounds/1/"),
        ("GET /static/js/sheet.js HTTP/1.1", "GET /static/js/sheet.js HTTP/1.1"),
        ("GET /s/ HTTP/1.1", "GET /s/ HTTP/1.1"),
    ],
)
def test_the_key_of_a_seat_link_is_masked(line, masked):
    assert mask_seat_keys(line) == masked


def test_the_filter_masks_message_arguments_and_traceback():
    try:
        raise ValueError(f"no seat for /s/{KEY}/")
    except ValueError as error:
        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "%s: %s", ("Error", f"/s/{KEY}/"), None
        )
        record.exc_info = (type(error), error, error.__traceback__)
    assert SeatKeyFilter().filter(record)
    assert record.getMessage() == "Error: /s/…/"
    assert KEY not in logging.Formatter().format(record)
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%(path)s", None, None)
    record.args = {"path": f"/s/{KEY}/"}
    SeatKeyFilter().filter(record)
    assert record.getMessage() == "/s/…/"


@pytest.fixture
def seat_key():
    """The private key of seat 4 (the scorekeeper) of a table whose round runs."""
    round_ = factories.seated_round(factories.tournament(players=4))
    services.round_start(round=round_)
    return round_.seats.get(position=4).token


def served(status: int, path: str, method: str = "GET") -> None:
    """Write the request line as Django's development server does (``manage.py runserver``)."""
    handler = WSGIRequestHandler.__new__(WSGIRequestHandler)
    handler.request = None
    handler.client_address = ("127.0.0.1", 50000)
    handler.log_message('"%s" %s %s', f"{method} {path} HTTP/1.1", str(status), "100")


@pytest.fixture
def logs(caplog):
    """Every log record of the request, Django's server's too (it does not propagate)."""
    server = logging.getLogger("django.server")
    server.addHandler(caplog.handler)
    caplog.set_level(logging.INFO)
    yield caplog
    server.removeHandler(caplog.handler)


def check_masked(logs, key: str, lines: int) -> None:
    """At least ``lines`` lines were written, each seat link in them masked, ``key`` nowhere."""
    assert len(logs.records) >= lines, logs.text
    assert key not in logs.text
    assert "/s/…/" in logs.text


def refusals(logs) -> list[str]:
    return [r.getMessage() for r in logs.records if r.name == "django.request"]


@pytest.mark.django_db
def test_an_open_seat_link_leaves_no_key_in_the_logs(logs, seat_key):
    path = reverse("scoring:sheet-link", args=[seat_key])
    assert Client().get(path).status_code == 200
    served(200, path)
    check_masked(logs, seat_key, 1)


@pytest.mark.django_db
def test_a_made_up_key_leaves_no_key_in_the_logs(logs):
    made_up = "made-up-key-of-no-seat-1234567"
    path = reverse("scoring:sheet-link", args=[made_up])
    assert Client().get(path).status_code == 404
    served(404, path)
    check_masked(logs, made_up, 2)
    assert refusals(logs) == ["Not Found: /s/…/"]


@pytest.mark.django_db
def test_a_link_over_its_limit_leaves_no_key_in_the_logs(logs, seat_key, settings):
    settings.SEAT_LINK_RATE = "1/min"
    path = reverse("scoring:sheet-link-check", args=[seat_key])
    client = Client()
    hand = {"mode": "quick", "contract": "normal", "game_value": 1, "plus_seats": "13"}
    assert client.post(path, hand).status_code == 200
    assert client.post(path, hand).status_code == 429
    served(429, path, "POST")
    check_masked(logs, seat_key, 2)
    assert refusals(logs) == ["Too Many Requests: /s/…/check/"]


@pytest.mark.django_db
def test_a_language_switch_from_a_seat_link_leaves_no_key_in_the_logs(logs, seat_key):
    path = reverse("language", args=["en"]) + f"?next=%2Fs%2F{seat_key}%2F"
    assert Client().get(path).status_code == 302
    served(302, path)
    assert seat_key not in logs.text
    assert "next=%2Fs%2F…%2F" in logs.text


def gunicorn_logger():
    """The logger docker/gunicorn.conf.py gives gunicorn, set up as gunicorn sets it up."""
    conf = runpy.run_path(str(ROOT / "docker" / "gunicorn.conf.py"))
    config = Config()
    for name in ("accesslog", "errorlog", "loglevel", "access_log_format", "logger_class"):
        config.set(name, conf[name])
    return config.logger_class(config)


def test_the_gunicorn_access_log_masks_the_key(caplog):
    logger = gunicorn_logger()
    logger.access_log.addHandler(caplog.handler)
    caplog.set_level(logging.INFO, logger="gunicorn.access")
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/s/{KEY}/?mode=raw",
        "PATH_INFO": f"/s/{KEY}/",
        "QUERY_STRING": "mode=raw",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.168.1.50",
        "HTTP_REFERER": f"http://192.168.1.20:8000/s/{KEY}/history/",
        "HTTP_USER_AGENT": "Mozilla/5.0",
    }
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    response = SimpleNamespace(status="200 OK", sent=512, headers=[])
    logger.access(response, request, environ, datetime.timedelta(milliseconds=12))
    logger.access_log.removeHandler(caplog.handler)
    line = caplog.records[-1].getMessage()
    assert KEY not in line
    assert '"GET /s/…/?mode=raw HTTP/1.1" 200 512 "http://192.168.1.20:8000/s/…/history/"' in line
    assert line.endswith('"Mozilla/5.0" 12ms')
