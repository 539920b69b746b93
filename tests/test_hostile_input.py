"""Hostile input over every write endpoint: no input is a server error, and a refusal names the
field it is about.

The endpoints are found, not listed: every POST, PUT, PATCH and DELETE operation of the API's
OpenAPI schema (as JSON, and as form data where it takes that too), and every form post of the permission matrix (tests/permissions.py, which has a
line for every named route); and, for their query parameters, every page and API read of the
matrix. Each is sent by a role that may write there, in the matrix's world (the ``ctx``
fixture), starting from the request the matrix sends (or the schema's example). Its fields are
the schema's properties, nested ones included (the seats of a hand's points are the keys of an
object: a key is a field too), and for a page the fields of its form and of the matrix's request.

The hostile values: digits that are digits only to Python ("²"; "٣", which ``int()`` reads as
3), a lone surrogate, a NUL byte, a number beyond 64 bits, a very long string, and the wrong
JSON type (list, object, bool, null). Each value is first sent in every field at once: a
serializer or form checks every field, so a field that breaks on it breaks there, and a 400
that names a field settles that field. A field that took the value is then sent it alone, with
the rest of the request valid, to reach the services and the database; a page's fields are
sent the values that a form can let through one at a time.

Each request runs in a savepoint that is rolled back, so that every one meets the same world.
The whole file runs on SQLite and, in the ``--postgres`` pass, on PostgreSQL (which refuses a
NUL in text and a number beyond its column where SQLite does not).
"""

import copy
import dataclasses
import json
import logging
import re
import traceback
from functools import cache
from html import unescape
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache as django_cache
from django.core.signals import got_request_exception
from django.db import transaction
from django.forms import BaseForm
from django.test import Client, override_settings
from django.test.client import MULTIPART_CONTENT
from django.urls import resolve, reverse

from tests.permissions import (
    FORM,
    LINK_ROLES,
    MATRIX,
    ROLES,
    Case,
    case_id,
    client_for,
    may,
    page_writes,
    post_forms,
)
from tournaments.caching import memory_clear

pytestmark = pytest.mark.django_db

UNLIMITED = "1000000/min"
WRITES = ("post", "put", "patch", "delete")

TEXT = {
    "superscript two": "²",  # a digit to str.isdigit(), not to int()
    "arabic-indic three": "٣",  # a digit to int() as well: 3
    "lone surrogate": "\ud800",  # valid JSON, no valid text
    "NUL": "a\x00b",  # valid JSON, refused by PostgreSQL
    "very long": "7" * 5000,
}
JSON_VALUES = {
    **TEXT,
    "beyond 64 bits": 10**30,
    "beyond 64 bits, negative": -(10**30),
    "list": [1],
    "object": {"1": 1},
    "bool": True,
    "null": None,
}
# Keys of an object whose keys mean something (a seat's points: {"1": 2, ...}).
JSON_KEYS = {
    "superscript two": "²",
    "arabic-indic three": "٣",
    "lone surrogate": "\ud800",
    "NUL": "\x00",
    "beyond 64 bits": "9" * 30,
}
# A form's values are text; the surrogate goes as the bytes a broken client would send for it.
FORM_VALUES = {
    **TEXT,
    "beyond 64 bits": "1" + "0" * 30,
    "beyond 64 bits, negative": "-1" + "0" * 30,
    "list": ["1", "2"],
}
# What a form field can let through to the view when it is the only hostile one.
FORM_VALUES_ALONE = ["superscript two", "arabic-indic three", "NUL", "very long", "beyond 64 bits"]
QUERY_VALUES = {
    label: FORM_VALUES[label] for label in ("superscript two", "NUL", "very long", "beyond 64 bits")
}
# Query parameters pages read that no page links to (the others are found on the pages, the
# API's in its schema).
UNLINKED_QUERY = {"ask", "mode"}


@pytest.fixture
def unthrottled(settings):
    """No rate limit is reached in the hundreds of requests each endpoint gets (every *_RATE_*
    setting, including ones added after this test)."""
    for name in dir(django_settings):
        if re.fullmatch(r"[A-Z_]*RATE[A-Z_]*", name) and isinstance(
            getattr(django_settings, name), str
        ):
            setattr(settings, name, UNLIMITED)


@pytest.fixture
def tracebacks():
    """The traceback of every exception a view raised (the client only sees the 500); Django's
    warning for each of the many 4xx is not logged."""
    caught: list[str] = []

    def record(sender, request=None, **kwargs):
        caught.append(traceback.format_exc())

    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    got_request_exception.connect(record)
    yield caught
    got_request_exception.disconnect(record)
    logger.setLevel(level)


class Sender:
    """Sends requests, each in a rolled-back savepoint, and notes what went wrong."""

    def __init__(self, send, tracebacks: list[str]):
        self._send = send
        self._tracebacks = tracebacks
        self.problems: list[str] = []

    def __call__(self, where: str, *args):
        del self._tracebacks[:]
        with transaction.atomic():
            response = self._send(*args)
            transaction.set_rollback(True)
        django_cache.clear()  # what the rolled-back request cached, and its rate counts
        memory_clear()
        if response.status_code >= 500:
            last = self._tracebacks[-1].strip().splitlines()[-3:] if self._tracebacks else []
            self.problems.append(f"{where}: {response.status_code}\n  " + "\n  ".join(last))
        return response

    def check(self) -> None:
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(self.problems)


def _address(case: Case, role: str, ctx) -> str:
    kwargs = case.kwargs(ctx)
    if "token" in kwargs and kwargs["token"] is None:  # a seat's link: the role's own
        kwargs["token"] = ctx.links[role]
    return reverse(case.name, kwargs=kwargs)


def _api_headers(role: str, ctx) -> dict:
    headers = {"Accept-Language": "en"}
    if role in ctx.tokens:
        headers["Authorization"] = f"Token {ctx.tokens[role]}"
    elif role in LINK_ROLES:
        headers["X-Seat-Key"] = ctx.links[role]
    return headers


def _form_body(data: dict) -> str:
    """URL-encoded; a lone surrogate as the bytes a broken client would send for it."""
    pairs = []
    for name, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            text = str(item).encode("utf-8", "surrogatepass")
            pairs.append(f"{quote(name)}={quote(text)}")
    return "&".join(pairs)


def _ids(cases: list[Case]) -> list[str]:
    """Each line's name, numbered where one route has several (round-action's actions)."""
    ids: list[str] = []
    for case in cases:
        name = case_id(case)
        ids.append(name if name not in ids else f"{name} {ids.count(name) + 1}")
    return ids


# The API: the schema's write operations -----------------------------------------------------------


@cache
def _schema() -> dict:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(methods) -> list[tuple[str, str]]:
    return [
        (method, path)
        for path, operations in _schema()["paths"].items()
        for method in operations
        if method in methods
    ]


def _matrix_line(method: str, path: str) -> Case:
    """The permission matrix's line for an operation of the schema (every route has one)."""
    example = re.sub(r"{(number|table|start_number|id|\w+_id)}", "1", path)
    name = resolve(re.sub(r"{\w+}", "x", example)).view_name
    lines = [case for case in MATRIX if case.name == name and case.method == method]
    assert lines, f"{method.upper()} {path} ({name}) has no line in the permission matrix"
    return lines[0]


def _ref(node: dict) -> dict:
    while "$ref" in node:
        node = _schema()["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _body_schema(operation: dict, encoding: str) -> tuple[str | None, dict, object]:
    """The request body's content type, schema and first example, as JSON or as form data."""
    content = operation.get("requestBody", {}).get("content", {})
    kinds = ["application/json"] if encoding == "json" else list(FORM_TYPES)
    for kind in kinds:
        if kind in content:
            examples = content[kind].get("examples") or {}
            example = next(iter(examples.values()), {}).get("value")
            return kind, _ref(content[kind]["schema"]), example
    return None, {}, None


def _get(data, path):
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _fields(node: dict, body, prefix: tuple = ()) -> list[tuple[str, tuple]]:
    """Every field of a body of schema ``node``: ("value", path) for each property, nested ones
    where ``body`` has them, and ("key", path) for each object whose keys mean something."""
    found = []
    for name, sub in _ref(node).get("properties", {}).items():
        if sub.get("readOnly"):
            continue
        path = (*prefix, name)
        found.append(("value", path))
        sub = _ref(sub)
        value = _get(body, path)
        if isinstance(value, dict) and "properties" in sub:
            found += _fields(sub, body, path)
        elif isinstance(value, dict) and isinstance(sub.get("additionalProperties"), dict):
            found.append(("key", path))
            if value:
                found.append(("value", (*path, next(iter(value)))))
        elif isinstance(value, list) and value and sub.get("type") == "array":
            item = _ref(sub.get("items", {}))
            found.append(("value", (*path, 0)))
            if isinstance(value[0], dict) and "properties" in item:
                found += _fields(item, body, (*path, 0))
    return found


def _with(body, kind: str, path: tuple, hostile):
    """``body`` with the field at ``path`` (its value, or its first key) made ``hostile``."""
    body = copy.deepcopy(body)
    parent = _get(body, path[:-1]) if len(path) > 1 else body
    if kind == "key":
        target = _get(body, path)
        first = next(iter(target), None)
        target[hostile] = target.pop(first) if first is not None else 1
    elif isinstance(parent, dict | list):
        parent[path[-1]] = hostile
    return body


def _benign(value):
    """A harmless value of the same JSON type: what a field is sent to tell whether a refusal
    is about its value or about the request as a whole."""
    if isinstance(value, bool):
        return False
    return {str: "x", int: 1, list: [], dict: {}}.get(type(value))


def _error_keys(data) -> set[str]:
    """Every key of a nested error body."""
    keys = set()
    if isinstance(data, dict):
        for key, value in data.items():
            keys.add(str(key))
            keys |= _error_keys(value)
    elif isinstance(data, list):
        for value in data:
            keys |= _error_keys(value)
    return keys


def _text_fields(body: dict, errors: str = "strict") -> dict:
    """The fields of a JSON body as form data sends them: text, a list as several values."""
    fields = {}
    for name, value in body.items():
        if isinstance(value, list):
            fields[name] = [str(item) for item in value]
        elif not isinstance(value, dict) and value is not None:
            fields[name] = str(value)
    if errors != "strict":  # a lone surrogate as Django reads its bytes (the encoder refuses it)
        fields = {
            name: value.encode("utf-8", "surrogatepass").decode("utf-8", errors)
            if isinstance(value, str)
            else value
            for name, value in fields.items()
        }
    return fields


def _json(response):
    try:
        return response.json()
    except ValueError:
        return None


# Form data the API takes besides JSON: DRF's parsers, the values all text.
FORM_TYPES = {
    "application/x-www-form-urlencoded": "application/x-www-form-urlencoded",
    "multipart/form-data": MULTIPART_CONTENT,
}


def _api_writes() -> list[tuple[str, str, str]]:
    """Every write operation, as JSON, and as form data where it takes that too."""
    found = []
    for method, path in _operations(WRITES):
        content = _schema()["paths"][path][method].get("requestBody", {}).get("content", {})
        if "application/json" in content or not content:
            found.append((method, path, "json"))
        if set(content) & set(FORM_TYPES):
            found.append((method, path, "form"))
    return found


API_WRITES = _api_writes()


@pytest.mark.parametrize(
    ("method", "path", "encoding"),
    API_WRITES,
    ids=[f"{m.upper()} {p} {e}" for m, p, e in API_WRITES],
)
def test_no_hostile_api_input_is_a_server_error(
    method, path, encoding, ctx, unthrottled, tracebacks
):
    case = _matrix_line(method, path)
    role = may(case)
    assert role is not None, f"nobody may {case_id(case)}"
    kind, node, example = _body_schema(_schema()["paths"][path][method], encoding)
    base = (case.data(ctx) if case.data else None) or example or {}
    address = _address(case, role, ctx)
    client, headers = Client(raise_request_exception=False), _api_headers(role, ctx)
    values, keys = (JSON_VALUES, JSON_KEYS) if encoding == "json" else (FORM_VALUES, {})

    def send(body):
        if encoding == "json":
            data = json.dumps(body)
        elif kind == "multipart/form-data":  # a file field gets text: refused
            data = _text_fields(body, "replace")
        else:
            data = _form_body(_text_fields(body))
        return getattr(client, method)(
            address,
            data,
            content_type=FORM_TYPES.get(kind or "", "application/json"),
            headers=headers,
        )

    sender = Sender(send, tracebacks)
    first = sender("the matrix's request", base)
    fields = _fields(node, base) if encoding == "json" else _fields(node, {})
    top = [path for kind_, path in fields if kind_ == "value" and len(path) == 1]
    # Nested fields and keys one at a time; the others too where the value in every field at
    # once did not settle them.
    alone = [(kind_, path, keys if kind_ == "key" else values) for kind_, path in fields]
    alone = [(kind_, path, values) for kind_, path, values in alone if path not in top]
    for label, hostile in values.items() if top else ():
        body = {**base, **{path[0]: hostile for path in top}}
        response = sender(f"every field = {label}", body)
        if response.status_code != 400 or _json(response) == _json(first):
            continue  # every field went through, or the request is refused as it stands
        named = _error_keys(_json(response))
        # Those not named took the value: alone, it reaches the services.
        alone += [("value", path, {label: hostile}) for path in top if path[0] not in named]

    for field_kind, field_path, values in alone:
        where = ("key of " if field_kind == "key" else "") + ".".join(map(str, field_path))
        for label, hostile in values.items():
            response = sender(f"{where} = {label}", _with(base, field_kind, field_path, hostile))
            if response.status_code != 400 or field_path[0] in _error_keys(_json(response)):
                continue
            # Refused, but not for this field: as the request is, or with a harmless value.
            if _json(response) == _json(first):
                continue
            benign = _benign(hostile) if field_kind == "value" else "1"
            control = sender(f"{where} = {benign!r}", _with(base, field_kind, field_path, benign))
            if _json(control) != _json(response):
                sender.problems.append(
                    f"{where} = {label}: 400 without naming the field: {_json(response)}"
                )
    sender.check()


# Pages: the matrix's form posts -------------------------------------------------------------------

PAGE_WRITES = page_writes(MATRIX)
FIELD_NAME = re.compile(r"""<(?:input|select|textarea)\b[^>]*\bname\s*=\s*["']([^"']+)["']""", re.I)
LINK = re.compile(r"""\b(?:href|hx-get)\s*=\s*["']([^"']*)["']""", re.I)


# Hidden fields a page posts for itself, whose refusal is told in the reader's words rather than
# by the field's name: the import's confirmation posts the key of the upload kept on the server,
# and any other key is answered "This upload is no longer kept … Upload the file again."
ELSEWHERE = {("tournaments:players-import", "key")}


@dataclasses.dataclass
class Pages:
    """What the pages of the matrix offer to send: the fields of every POST form, by the
    address it posts to, and the query parameters of their links and GET forms."""

    forms: dict[str, set[str]]
    query: set[str]


@pytest.fixture(scope="module")
def pages(ctx, django_db_blocker) -> Pages:
    """Each page of the matrix read once, by a superuser (who holds every role) or else a role
    that may."""
    found = Pages(forms={}, query=set(UNLINKED_QUERY))
    storages = {  # as the tests' own fixture has them (tests/conftest.py)
        **django_settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with django_db_blocker.unblock(), override_settings(STORAGES=storages):
        for case in MATRIX:
            statuses = case.statuses()
            if case.json or case.method != "get" or 200 not in statuses.values():
                continue
            role = next(role for role in reversed(ROLES) if statuses[role] == 200)
            address = _address(case, role, ctx)
            response = client_for(role, ctx).get(address + case.query)
            if not response.get("Content-Type", "").startswith("text/html"):
                continue
            html = response.content.decode()
            for form in post_forms(html):
                action = re.search(r"""action\s*=\s*["']([^"']*)["']""", form)
                target = (action.group(1) if action else "") or address
                found.forms.setdefault(target, set()).update(FIELD_NAME.findall(form))
            for link in LINK.findall(html):
                found.query |= set(parse_qs(urlsplit(unescape(link)).query))
            for attrs, body in FORM.findall(html):
                if not re.search(r"method\s*=\s*[\"']?post", attrs, re.I):
                    found.query |= set(FIELD_NAME.findall(body))
    found.query -= {"csrfmiddlewaretoken"}
    return found


@pytest.mark.parametrize(
    ("case", "role"), PAGE_WRITES, ids=_ids([case for case, _role in PAGE_WRITES])
)
def test_no_hostile_form_post_is_a_server_error(case, role, ctx, pages, unthrottled, tracebacks):
    client = client_for(role, ctx)
    client.raise_request_exception = False
    address = _address(case, role, ctx)
    base = case.data(ctx) if case.data else {}
    # The fields of the matrix's request and of every form that posts here.
    fields = sorted((set(base) | pages.forms.get(address, set())) - {"csrfmiddlewaretoken"})
    sender = Sender(
        lambda body: client.post(
            address, _form_body(body), content_type="application/x-www-form-urlencoded"
        ),
        tracebacks,
    )
    sender("the matrix's request", base)
    alone = []
    for label, hostile in FORM_VALUES.items() if fields else ():
        response = sender(f"every field = {label}", {**base, **dict.fromkeys(fields, hostile)})
        if label in FORM_VALUES_ALONE and response.status_code in (400, 422):
            # Those the form did not refuse took the value: alone, it reaches the services.
            refused = _form_errors(response)
            alone += [(field, label) for field in fields if field not in refused]
    for field, label in alone:
        if (case.name, field) in ELSEWHERE:
            continue
        response = sender(f"{field} = {label}", {**base, field: FORM_VALUES[label]})
        if response.status_code == 400 and field.encode() not in response.content:
            sender.problems.append(f"{field} = {label}: 400 without naming the field")
    sender.check()


def _form_errors(response) -> set[str]:
    """The fields, as posted, that the forms of the page refused."""
    refused: set[str] = set()
    contexts = response.context or []
    for context in contexts if isinstance(contexts, list) else [contexts]:
        for value in context.flatten().values():
            if isinstance(value, BaseForm) and value.is_bound:
                refused |= {value.add_prefix(name) for name in value.errors}
    return refused


# Query parameters of every page and API read -----------------------------------------------------

READS = [case for case in MATRIX if case.method == "get" and may(case) is not None]


@pytest.mark.parametrize("case", READS, ids=_ids(READS))
def test_no_hostile_query_is_a_server_error(case, ctx, pages, unthrottled, tracebacks):
    """An API read gets each of its parameters (the schema's) alone, since one can hide
    another (a page far past the end is not asked for, whatever its size); a page gets every
    parameter any page offers at once."""
    role = may(case)
    address = _address(case, role, ctx)
    if case.json:
        client, headers = Client(raise_request_exception=False), _api_headers(role, ctx)
        queries = [[name] for name in _query_parameters(address)]
    else:
        client, headers = client_for(role, ctx), {}
        client.raise_request_exception = False
        queries = [sorted(pages.query)]
    sender = Sender(lambda query: client.get(f"{address}?{query}", headers=headers), tracebacks)
    for names in queries:
        for label, hostile in QUERY_VALUES.items():
            sender(f"{', '.join(names)} = {label}", _form_body(dict.fromkeys(names, hostile)))
    sender.check()


def _query_parameters(address: str) -> list[str]:
    """The query parameters the schema names for the API read at ``address``."""
    for path, operations in _schema()["paths"].items():
        if "get" in operations and re.fullmatch(re.sub(r"{\w+}", "[^/]+", path), address):
            return [
                p["name"] for p in operations["get"].get("parameters", []) if p["in"] == "query"
            ]
    return []
