"""Reads of a fixed shape, compiled by the ORM once and then run with new parameters; and the
inserts and saves of a write's rows, likewise (below, "Writes").

On a tournament day's writes the database's own work is small; what a request costs the web
process is mostly the ORM making SQL of the same querysets again and again (the four-eyes record
of a sheet: 1.8 ms to build and compile, 0.1 ms to run). A ``Prepared`` read is built from its
queryset once per process, database and shape (the lengths of its lists), with a stand-in for
each argument; the SQL is kept, and each call runs it with the arguments in the stand-ins'
places and turns the rows into what the queryset gives (values, or models with their
``select_related`` objects and annotations) through the compiler the ORM made for it, so its
field conversions are the ORM's own.

A ``select_for_update`` is checked on every call as the ORM checks it when compiling (only in a
transaction). No ``prefetch_related`` or ``distinct(*fields)``; ``values_list`` in the order the SQL selects. A
queryset that breaks this, or whose arguments do not all reach the SQL as parameters, is
refused when first compiled (``ValueError``). An argument may be used more than once. No library does this for Django 5 (the one
published, django-prepared-queries, stops at Django 2.1; README, "Stack").

Several of these, bound to their arguments (``Prepared.bound``, ``inserting``, ``saving``,
``deleting``), are run one after another by ``run`` without waiting for the database's answer
between them where it can (PostgreSQL's pipeline mode): a write's lock and what it reads under
it, or its rows, go in one round trip instead of one each.
"""

import contextlib
import copy
import functools
import inspect
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ParamSpec, Protocol, TypeVar

from django.db import InterfaceError, OperationalError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.deletion import Collector
from django.db.models.fields.files import FileDescriptor
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, post_save, pre_init, pre_save
from django.db.models.sql import DeleteQuery, InsertQuery
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

Argument = int | str | Sequence[int] | Sequence[str]

# Stand-ins for the arguments while compiling: strings no key holds (a NUL), and numbers that
# every integer column takes (the ORM finds a lookup of a small integer column outside its range
# empty, and makes no SQL of it) and that no query of ours has as a constant.
_INT_BASE = 32000
_MOST_ARGUMENTS = 700  # the stand-ins stay below 32767, a small integer's largest


def _stand_in(kind: type, slot: int) -> int | str:
    return _INT_BASE + slot if kind is int else f"\x00prepared:{slot}"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]  # the compiled parameters; an argument's slot where it goes
    slots: dict[int, int]  # parameter position -> the argument's slot
    compiler: SQLCompiler
    models: bool  # model instances, else tuples (values_list)
    locks: bool  # FOR UPDATE in the SQL: only in a transaction
    # The field converters by connection (``SQLCompiler.get_converters``), found on first use.
    converters: weakref.WeakKeyDictionary = field(default_factory=weakref.WeakKeyDictionary)
    # How its rows become instances (``_Made``), by database, found on first use.
    made: dict[str, "_Made"] = field(default_factory=dict)


class Prepared:
    """``build(*arguments)`` made into a read compiled once per shape: calling it with the
    arguments gives the queryset's rows as a list. Each argument is an int, a str, or a list
    of either (an ``__in`` lookup: each length is a shape of its own)."""

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self._compiled: dict[tuple, _Compiled] = {}
        self._lock = threading.Lock()

    def __call__(self, *arguments: Argument, using: str = "default") -> list:
        return run(self.bound(*arguments, using=using), using=using)[0]

    def bound(self, *arguments: Argument, using: str = "default") -> "Step":
        """The read with these arguments, for ``run`` to send with others; its result the
        rows, as calling it gives them."""
        shape = (using, *(_shape(argument) for argument in arguments))
        compiled = self._compiled.get(shape)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(shape) or self._compile(arguments, using)
                self._compiled[shape] = compiled
        if compiled.locks and connections[using].get_autocommit():
            # As the ORM refuses it when it compiles the query (SQLCompiler.as_sql).
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        flat = _flat(arguments)
        params = list(compiled.params)
        for position, slot in compiled.slots.items():
            params[position] = flat[slot]
        return _Read(compiled, params, using)

    def _compile(self, arguments: Sequence[Argument], using: str) -> _Compiled:
        stand_ins: list[Any] = []
        slot = 0
        for argument in arguments:
            if isinstance(argument, int | str):
                stand_ins.append(_stand_in(type(argument), slot))
                slot += 1
                continue
            kind = type(argument[0]) if argument else int
            stand_ins.append([_stand_in(kind, slot + index) for index in range(len(argument))])
            slot += len(argument)
        if slot > _MOST_ARGUMENTS:
            raise ValueError(f"at most {_MOST_ARGUMENTS} arguments, lists' items counted")
        queryset = self.build(*stand_ins)
        query = queryset.query
        prefetch = queryset._prefetch_related_lookups  # type: ignore[attr-defined]  # not in the stubs
        if prefetch or query.distinct_fields:
            raise ValueError("a prepared read is a plain read (no prefetch, distinct on)")
        models = queryset._iterable_class is ModelIterable
        if not models and queryset._iterable_class is not ValuesListIterable:
            raise ValueError("a prepared read gives models or values_list rows")
        if not models:
            names = [*query.extra_select, *query.values_select, *query.annotation_select]
            if list(queryset._fields) != names:  # type: ignore[attr-defined]  # not in the stubs
                raise ValueError(f"values_list in the order the SQL selects them: {names}")
        compiler = query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        wanted = {value: index for index, value in enumerate(_flat(stand_ins))}
        slots = {
            position: wanted[value] for position, value in enumerate(params) if value in wanted
        }
        if set(slots.values()) != set(range(len(wanted))):
            raise ValueError("every argument must reach the SQL as a parameter")
        connection = connections[using]
        features = connection.features
        locks = bool(query.select_for_update and features.has_select_for_update)
        locks = locks and features.supports_transactions
        return _Compiled(sql, tuple(params), slots, compiler, models, locks)


def _shape(argument: Argument) -> Any:
    if isinstance(argument, int | str):
        return type(argument)
    return (len(argument), type(argument[0]) if argument else int)


def _flat(arguments: Sequence[Any]) -> list[Any]:
    flat: list[Any] = []
    for argument in arguments:
        if isinstance(argument, int | str):
            flat.append(argument)
        else:
            flat.extend(argument)
    return flat


@dataclass(frozen=True)
class _Read:
    compiled: _Compiled
    params: list[Any]
    using: str
    pipelined = True

    def send(self, cursor: CursorWrapper) -> None:
        cursor.execute(self.compiled.sql, self.params)

    def result(self, cursor: CursorWrapper) -> list:
        rows = cursor.fetchall()
        compiled, connection = self.compiled, connections[self.using]
        # The converters of this thread's connection (the compiler was made on another's),
        # found once per connection: the ORM looks for them in every field on every read.
        compiler = copy.copy(compiled.compiler)
        compiler.connection = connection
        converters = compiled.converters.get(connection)
        if converters is None:
            columns = [column[0] for column in compiler.select[: compiler.col_count]]
            converters = compiled.converters[connection] = compiler.get_converters(columns)
        if converters:
            rows = list(compiler.apply_converters(rows, converters))
        if not compiled.models:
            return [tuple(row) for row in rows]
        return _objects(compiled, compiler, rows, self.using)


def _objects(compiled: _Compiled, compiler: SQLCompiler, rows: list, using: str) -> list[Model]:
    """The rows (converted) as the model's instances, with their ``select_related`` objects and
    annotations, as ``ModelIterable`` makes them (``_Made``, found once per read and database)."""
    made = compiled.made.get(using)
    if made is None:
        made = compiled.made[using] = _Made(compiler, using)
    return made(compiler, rows)


class _Made:
    """How a read's rows become its model's instances with their ``select_related`` objects:
    the columns of each and how they hang together, found once, where the ORM finds them again
    on every read (``get_related_populators``). An instance is made as ``Model.from_db`` makes
    it, its fields' values set on it, in a third of the time: a hand's save makes some forty
    (its sheet's hands, the link's seat with its table, round and tournament; issue 45).

    A model that does more when it is made is made by the ORM: its own ``__init__`` or
    ``from_db``, a receiver of ``pre_init`` or ``post_init`` (asked on every read: one may be
    connected later), a field whose value sets more than itself (an image's); so is every row
    of a read that takes a child's parent fields from its parent's columns."""

    def __init__(self, compiler: SQLCompiler, using: str):
        klass_info = compiler.klass_info
        assert klass_info is not None
        self.using = using
        self.node = _Node.of(klass_info, compiler.select)
        self.models = self.node.models() if self.node is not None else ()
        self.annotations = list((compiler.annotation_col_map or {}).items())

    def __call__(self, compiler: SQLCompiler, rows: list) -> list[Model]:
        node, using = self.node, self.using
        if node is None or any(_heard(model) for model in self.models):
            return _orm_objects(compiler, rows, using)
        objects = []
        for row in rows:
            instance = node.make(row, using)
            for name, position in self.annotations:
                setattr(instance, name, row[position])
            objects.append(instance)
        return objects


@dataclass(frozen=True)
class _Node:
    """A model of a read and its columns in the row: its instance, and those of the models it
    selects with it (``related``), each hung on it as ``RelatedPopulator`` hangs them."""

    model: type[Model]
    names: tuple[str, ...]  # the fields' attribute names, in the columns' order
    start: int
    end: int
    pk: int  # the primary key's place among them: a related object is none where it is null
    local_setter: Callable[[Model, Model | None], None] | None
    remote_setter: Callable[[Model, Model], None] | None
    related: tuple["_Node", ...]

    @classmethod
    def of(cls, klass_info: dict, select: list) -> "_Node | None":
        """None where any of the read's models is not made this way."""
        model = klass_info["model"]
        if klass_info.get("from_parent") or not _plain(model):
            return None
        related = [cls.of(info, select) for info in klass_info.get("related_klass_infos", [])]
        if any(node is None for node in related):
            return None
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        names = tuple(column[0].target.attname for column in select[start:end])
        if model._meta.pk.attname not in names:
            return None  # a key of several columns, in Django 5.2: the ORM's
        return cls(
            model=model,
            names=names,
            start=start,
            end=end,
            pk=names.index(model._meta.pk.attname),
            local_setter=klass_info.get("local_setter"),
            remote_setter=klass_info.get("remote_setter"),
            related=tuple(node for node in related if node is not None),
        )

    def models(self) -> tuple[type[Model], ...]:
        return (self.model, *(model for node in self.related for model in node.models()))

    def make(self, row: Sequence, using: str) -> Model:
        instance = self.model.__new__(self.model)
        state = ModelState()
        state.adding = False
        state.db = using
        attributes = instance.__dict__
        attributes["_state"] = state
        attributes.update(zip(self.names, row[self.start : self.end], strict=True))
        for node in self.related:
            node.hang(row, instance, using)
        return instance

    def hang(self, row: Sequence, parent: Model, using: str) -> None:
        found = None if row[self.start + self.pk] is None else self.make(row, using)
        assert self.local_setter is not None  # a related object's: the read's own has none
        assert self.remote_setter is not None
        self.local_setter(parent, found)
        if found is not None:
            self.remote_setter(found, parent)


# The attributes of a model's fields whose values are only kept on the instance: setting one
# on an instance just made is putting it into its ``__dict__`` (a file's value too, made its
# ``FieldFile`` when read; not an image's, which sets its dimensions).
_KEPT = (DeferredAttribute, ForeignKeyDeferredAttribute, FileDescriptor)


@functools.cache
def _plain(model: type[Model]) -> bool:
    """Whether an instance of ``model`` is only its fields' values: made by ``Model.__init__``
    and ``Model.from_db``, every field kept as it is set."""
    return (
        model.__init__ is Model.__init__
        and model.from_db.__func__ is Model.from_db.__func__  # type: ignore[attr-defined]
        and all(
            type(inspect.getattr_static(model, field.attname, None)) in _KEPT
            for field in model._meta.concrete_fields
        )
    )


def _heard(model: type[Model]) -> bool:
    """Whether anything listens when an instance of ``model`` is made."""
    return pre_init.has_listeners(model) or post_init.has_listeners(model)


def _orm_objects(compiler: SQLCompiler, rows: list, using: str) -> list[Model]:
    """The instances as ``ModelIterable`` makes them, through ``from_db`` and the ORM's
    populators."""
    select, klass_info = compiler.select, compiler.klass_info
    assert klass_info is not None
    model = klass_info["model"]
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    names = [column[0].target.attname for column in select[start:end]]
    # The stubs give the signature of a later Django (with a fetch mode); 5.2 has three.
    populators = get_related_populators(klass_info, select, using)  # type: ignore[call-arg]
    annotations = compiler.annotation_col_map or {}
    objects = []
    for row in rows:
        instance = model.from_db(using, names, row[start:end])
        for populator in populators:
            populator.populate(row, instance)
        for name, position in annotations.items():
            setattr(instance, name, row[position])
        objects.append(instance)
    return objects


# Writes ------------------------------------------------------------------------------------------
#
# The same for the rows a write inserts and saves on every request (a sheet's new version, its
# history, its hands, its players' results): ``insert`` is ``bulk_create`` and ``save`` is
# ``Model.save`` of a row that exists, each made into SQL by the ORM's own compiler once per
# model (and row count) and database, and run with the fields' values as the ORM prepares them
# (``pre_save``, ``get_db_prep_save``). Where the model has receivers of ``pre_save`` or
# ``post_save``, ``save`` leaves it to the ORM, which sends them; ``insert``, like
# ``bulk_create``, sends none.


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple[Field, ...]
    returning: tuple[Field, ...]  # set on the objects from the rows the INSERT returns
    by_column: bool  # the values a list per field (PostgreSQL's UNNEST), else row by row


_INSERTS: dict[tuple, _Insert] = {}
_M = TypeVar("_M", bound=Model)
_T = TypeVar("_T")
_P = ParamSpec("_P")
_UPDATES: dict[tuple, tuple[str, tuple[Field, ...]]] = {}


def insert(objs: Sequence[_M], *, using: str = "default") -> Sequence[_M]:
    """``bulk_create(objs)`` of new rows of one model (no primary key set), compiled once per
    model, number of rows and database; the objects get their keys as ``bulk_create`` gives
    them. Anything else (rows of several models, a key set) goes to ``bulk_create`` itself."""
    return run(inserting(objs, using=using), using=using)[0]


def inserting(objs: Sequence[_M], *, using: str = "default") -> "Step":
    """``insert(objs)`` for ``run`` to send with others; its result the objects, with their
    keys."""
    if not objs:
        return _Done(objs)
    model = type(objs[0])
    if any(type(obj) is not model or obj.pk is not None for obj in objs):
        return _Elsewhere(lambda: model._default_manager.using(using).bulk_create(objs))
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="bulk_create")  # type: ignore[attr-defined]  # not in the stubs
    key = (model, len(objs), using)
    compiled = _INSERTS.get(key)
    if compiled is None:
        compiled = _INSERTS[key] = _insert_compiled(model, objs, using)
    connection = connections[using]
    rows = [
        [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in compiled.fields]
        for obj in objs
    ]
    params = (
        [list(column) for column in zip(*rows, strict=True)]
        if compiled.by_column
        else [value for row in rows for value in row]
    )
    return _Inserting(compiled, params, objs, using)


@dataclass(frozen=True)
class _Inserting:
    compiled: _Insert
    params: list[Any]
    objs: Sequence[Model]
    using: str
    pipelined = True

    def send(self, cursor: CursorWrapper) -> None:
        cursor.execute(self.compiled.sql, self.params)

    def result(self, cursor: CursorWrapper) -> Sequence[Model]:
        returned = cursor.fetchall() if self.compiled.returning else []
        for obj, values in zip(self.objs, returned, strict=False):
            for returned_field, value in zip(self.compiled.returning, values, strict=True):
                setattr(obj, returned_field.attname, value)
        for obj in self.objs:
            obj._state.adding = False
            obj._state.db = self.using
        return self.objs


def _insert_compiled(model: type[Model], objs: Sequence[Model], using: str) -> _Insert:
    opts = model._meta
    fields = tuple(
        field
        for field in opts.concrete_fields
        if field is not opts.auto_field and not field.generated
    )
    if any(field.has_db_default() for field in fields):
        raise ValueError(f"{opts.label}: a field with a database default is not prepared")
    connection = connections[using]
    query = InsertQuery(model)
    query.insert_values(fields, list(objs), raw=False)
    compiler = query.get_compiler(using=using)
    returning: tuple[Field, ...] = ()
    if connection.features.can_return_rows_from_bulk_insert:
        returning = tuple(opts.db_returning_fields)
        compiler.returning_fields = list(returning)
    statements = compiler.as_sql()
    if len(statements) != 1:
        raise ValueError(f"{opts.label}: {len(statements)} statements for one insert")
    sql, params = statements[0]
    if len(params) == len(fields) * len(objs) and not any(isinstance(p, list) for p in params):
        by_column = False
    elif len(params) == len(fields) and all(isinstance(p, list) for p in params):
        by_column = True
    else:
        raise ValueError(f"{opts.label}: the insert's parameters are laid out unlike its rows")
    return _Insert(sql, fields, returning, by_column)


def save(obj: Model, *, using: str = "default") -> None:
    """``obj.save()`` of a row that exists (an UPDATE of every field by its key), compiled once
    per model and database. Where the model has receivers of ``pre_save`` or ``post_save``, or
    the row turns out to be gone, the ORM saves it (and sends them, or inserts it again)."""
    run(saving(obj, using=using), using=using)


def saving(obj: Model, *, using: str = "default") -> "Step":
    """``save(obj)`` for ``run`` to send with others; its result None."""
    model = type(obj)
    if (
        obj._state.adding
        or obj.get_deferred_fields()  # the ORM saves only the fields loaded
        or model._meta.parents  # a row in several tables
        or pre_save.has_listeners(model)
        or post_save.has_listeners(model)
    ):
        return _Elsewhere(lambda: obj.save(using=using))
    obj._prepare_related_fields_for_save(operation_name="save")  # type: ignore[attr-defined]  # not in the stubs
    key = (model, using)
    compiled = _UPDATES.get(key)
    if compiled is None:
        compiled = _UPDATES[key] = _update_compiled(model, using)
    sql, fields = compiled
    connection = connections[using]
    params = [field.get_db_prep_save(field.pre_save(obj, False), connection) for field in fields]
    params.append(model._meta.pk.get_db_prep_value(obj.pk, connection))
    return _Saving(sql, params, obj, using)


@dataclass(frozen=True)
class _Saving:
    sql: str
    params: list[Any]
    obj: Model
    using: str
    pipelined = True

    def send(self, cursor: CursorWrapper) -> None:
        cursor.execute(self.sql, self.params)

    def result(self, cursor: CursorWrapper) -> None:
        if cursor.rowcount != 1:  # gone meanwhile: as Model.save does, insert it again
            self.obj.save(using=self.using, force_insert=True)
            return
        self.obj._state.db = self.using


def deleting(queryset: QuerySet) -> "Step":
    """``queryset.delete()`` of rows nothing refers to and nobody listens for (the ORM's fast
    delete: one DELETE, no cascade, no signals), for ``run`` to send with others; its result
    the number of rows deleted. Anything else the ORM deletes itself."""
    using = queryset.db
    if not Collector(using=using, origin=queryset).can_fast_delete(queryset):
        return _Elsewhere(lambda: queryset.delete()[0])
    query = queryset.query.clone()
    query.__class__ = DeleteQuery
    sql, params = query.get_compiler(using=using).as_sql()
    return _Deleting(sql, list(params))


@dataclass(frozen=True)
class _Deleting:
    sql: str
    params: list[Any]
    pipelined = True

    def send(self, cursor: CursorWrapper) -> None:
        cursor.execute(self.sql, self.params)

    def result(self, cursor: CursorWrapper) -> int:
        return cursor.rowcount


def _update_compiled(model: type[Model], using: str) -> tuple[str, tuple[Field, ...]]:
    opts = model._meta
    fields = tuple(
        field for field in opts.concrete_fields if not field.primary_key and not field.generated
    )
    if any(hasattr(field, "get_placeholder") for field in fields):
        raise ValueError(f"{opts.label}: a field with a placeholder of its own is not prepared")
    connection = connections[using]
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(str(field.column))} = %s" for field in fields)
    sql = f"UPDATE {quote(opts.db_table)} SET {columns} WHERE {quote(str(opts.pk.column))} = %s"
    return sql, fields


# Several statements in one round trip -----------------------------------------------------------


class Step(Protocol):
    """A statement bound to its values (``Prepared.bound``, ``inserting``, ``saving``): ``send``
    gives it to the database, ``result`` makes its result once the answer is there. A step that
    is not ``pipelined`` runs through the ORM (``send`` does it all) and is run alone."""

    pipelined: bool

    def send(self, cursor: CursorWrapper) -> None: ...

    def result(self, cursor: CursorWrapper) -> Any: ...


@dataclass(frozen=True)
class _Done:
    """A step with nothing to send (an insert of no rows)."""

    value: Any
    pipelined = True

    def send(self, cursor: CursorWrapper) -> None:
        pass

    def result(self, cursor: CursorWrapper) -> Any:
        return self.value


@dataclass(frozen=True)
class _Elsewhere:
    """A step the ORM does itself (``bulk_create``, ``Model.save``), with its signals."""

    does: Callable[[], Any]
    pipelined = False

    def send(self, cursor: CursorWrapper) -> None:
        pass

    def result(self, cursor: CursorWrapper) -> Any:
        return self.does()


def run(*steps: Step, using: str = "default") -> list[Any]:
    """The steps' statements run in order, and each one's result as it alone gives it. On
    PostgreSQL they are sent one after another without waiting for an answer between them
    (psycopg's pipeline mode), in one round trip: a read after a lock (``select_for_update``)
    still reads under it, as the database runs them in order. An error in one is raised once all
    were sent, as the database's error the ORM raises (``IntegrityError``, ...); the statements
    after it did not run, and the transaction is broken, as after any failed statement. Where
    one step is the ORM's own, the steps run one by one.

    Reads outside a transaction, as a request's first statements, check the connection
    themselves (``_checking``): Django's own check sends a ``SELECT 1`` of its own first."""
    connection = connections[using]
    if not _checking(connection, steps):
        return _run(connection, steps)
    # The reads are the check. (The stubs have no health check, Django's since 4.1.)
    connection.health_check_done = True  # type: ignore[attr-defined]
    try:
        return _run(connection, steps)
    except (InterfaceError, OperationalError):
        if connection.is_usable():
            raise  # the reads' own error (a timeout, a cancel), on a connection that works
        connection.close()
        return _run(connection, steps)  # on a new connection, as after a failed check


def _checking(connection: BaseDatabaseWrapper, steps: Sequence[Step]) -> bool:
    """Whether the steps may stand for the connection's health check (``CONN_HEALTH_CHECKS``).

    On a connection kept from an earlier request, Django asks ``SELECT 1`` before the request's
    first statement, in a round trip of its own, and opens a new connection if that fails: the
    server may have closed the old one (restarted, or an idle connection ended). Reads in
    autocommit change nothing, so they can go first instead: where they fail on a connection
    that no longer works, they run again on a new one, as they would have after the check. The
    seat's lookup of every write through a link, and the round read by every table page's
    refresh, are such first reads (one round trip fewer each, issue 45). Anything in a
    transaction, a lock or a write keeps Django's check: its statements run once."""
    return (
        connection.health_check_enabled  # type: ignore[attr-defined]
        and not connection.health_check_done  # type: ignore[attr-defined]
        and connection.connection is not None
        and connection.get_autocommit()
        and all(isinstance(step, _Read) and not step.compiled.locks for step in steps)
    )


def _run(connection: BaseDatabaseWrapper, steps: Sequence[Step]) -> list[Any]:
    cursors = [connection.cursor() for _ in steps]
    try:
        if len(steps) > 1 and all(step.pipelined for step in steps):
            with _pipeline(connection):
                for step, cursor in zip(steps, cursors, strict=True):
                    step.send(cursor)
            return [step.result(cursor) for step, cursor in zip(steps, cursors, strict=True)]
        results = []
        for step, cursor in zip(steps, cursors, strict=True):
            step.send(cursor)
            results.append(step.result(cursor))
        return results
    finally:
        for cursor in cursors:
            cursor.close()


@contextlib.contextmanager
def _pipeline(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """psycopg's pipeline mode on a PostgreSQL connection (synced on leaving: every answer is
    then with its cursor); elsewhere nothing."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.wrap_database_errors, connection.connection.pipeline():
        _begin_sent(connection.connection)
        yield


def _begin_sent(conn: Any) -> None:
    """A transaction's ``BEGIN`` sent with the pipeline's statements, where they are its first.

    psycopg begins a transaction with its first statement; in pipeline mode it sends the
    ``BEGIN`` with a Sync of its own and waits for it (``BaseConnection._start_query``): a round
    trip more for every write, the one the lock's reads would otherwise make alone (issue 45).
    Sent here first, in the same pipeline (the connection has just entered it, nothing is
    queued), the server runs it before the rest, as before: an error in a statement after it
    leaves the transaction broken, as any failed statement does, until Django rolls it back.
    While the pipeline has a statement out, libpq calls the transaction active, so psycopg sends
    no ``BEGIN`` of its own; its answer, which nobody reads, is taken off the queue in its turn
    (the ``None`` in psycopg's own ``_exec_command``). Only where psycopg would begin one: not
    in autocommit, nor in a transaction already begun. psycopg is pinned
    (requirements.lock); tests/tournaments/test_prepared.py checks that this still holds."""
    from psycopg.pq import TransactionStatus  # only on PostgreSQL

    pipeline = conn._pipeline
    if (
        conn.autocommit
        or conn.pgconn.transaction_status != TransactionStatus.IDLE
        or pipeline is None
        or pipeline.level != 1
        or pipeline.command_queue
        or pipeline.result_queue
    ):
        return
    conn.pgconn.send_query_params(conn._get_tx_start_command(), None)
    pipeline.result_queue.append(None)


# A transaction's last writes, with its COMMIT --------------------------------------------------


@dataclass
class _Block:
    """An ``atomic`` block of this module: how many atomic blocks the connection had open with
    it, and the writes its body left for its end (``run_last``)."""

    depth: int
    pending: list[Step] = field(default_factory=list)
    guard: Callable[..., Any] | None = None

    def flush(self, connection: BaseDatabaseWrapper, *, using: str) -> None:
        """The pending writes sent now, before the statement that would have overtaken them."""
        self.unguard(connection)
        steps, self.pending = self.pending, []
        if steps:
            run(*steps, using=using)

    def unguard(self, connection: BaseDatabaseWrapper) -> None:
        if self.guard is not None:
            connection.execute_wrappers.remove(self.guard)
            self.guard = None


def atomic(func: Callable[_P, _T]) -> Callable[_P, _T]:
    """``transaction.atomic`` (on the default database) for a write whose last statements are
    its writes (``run_last``): they are sent when its body has returned, and where the block is
    the transaction itself (no block around it) on PostgreSQL, its ``COMMIT`` goes with them,
    in the same round trip (issue 45: a write waited for the database four times, the seat, the
    lock with its reads, the writes and the commit; now three). Django's own commit then finds
    the transaction committed and sends nothing; what waits for the commit
    (``transaction.on_commit``) runs as before.

    What the body raises, or the writes or the ``COMMIT`` (a deferred foreign key checked
    there), undoes the transaction whole, as before: the block is still open when they run.
    Inside another block (a service called by another, a test's transaction) the writes are
    sent at the block's end without the ``COMMIT``, which stays the outer block's."""

    @functools.wraps(func)
    def wrapped(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        with _atomic("default"):
            return func(*args, **kwargs)

    return wrapped


@contextlib.contextmanager
def _atomic(using: str) -> Iterator[None]:
    connection = connections[using]
    with transaction.atomic(using=using):
        blocks = connection.__dict__.setdefault("_prepared_blocks", [])
        block = _Block(depth=len(connection.atomic_blocks))
        blocks.append(block)
        try:
            yield
        finally:
            blocks.remove(block)
            block.unguard(connection)
        # The body returned: its last writes, with the COMMIT where this block commits.
        steps, block.pending = block.pending, []
        if steps and _commits(connection, block) and all(step.pipelined for step in steps):
            steps.append(_Commit())
        if steps:
            run(*steps, using=using)


def _commits(connection: BaseDatabaseWrapper, block: _Block) -> bool:
    """Whether leaving this block commits the transaction (the outermost block, begun in
    autocommit, nothing failed in it), on PostgreSQL, where the ``COMMIT`` can go along."""
    return (
        connection.vendor == "postgresql"
        and block.depth == 1
        and len(connection.atomic_blocks) == 1
        and not connection.savepoint_ids
        and connection.commit_on_exit
        and not connection.needs_rollback
    )


def run_last(*steps: Step, using: str = "default") -> None:
    """The steps run as ``run`` runs them, as the last statements of the ``atomic`` block they
    are in: sent at its end, with its ``COMMIT`` where it commits. Outside such a block, or
    inside another atomic block within it, they run now. A statement the body runs after them
    sends them first (an execute wrapper while they wait): nothing overtakes them, it only
    costs the round trip saved. Their results are not given back; what they set on their
    objects (the keys of the rows inserted) is set once they have run."""
    connection = connections[using]
    blocks = connection.__dict__.get("_prepared_blocks")
    if not blocks or blocks[-1].depth != len(connection.atomic_blocks):
        run(*steps, using=using)
        return
    block = blocks[-1]
    block.pending.extend(steps)
    if block.guard is None:

        def guard(execute, sql, params, many, context):
            block.flush(connection, using=using)
            return execute(sql, params, many, context)

        block.guard = guard
        connection.execute_wrappers.append(guard)


class _Commit:
    """The transaction's ``COMMIT``, queued in the pipeline after the writes as psycopg queues
    its own there (``Connection._exec_command``): it is sent with them and the pipeline's Sync,
    and an error of its answer is raised as theirs are. psycopg is pinned (requirements.lock);
    tests/tournaments/test_last_writes.py checks that this still holds."""

    pipelined = True

    def send(self, cursor: CursorWrapper) -> None:
        conn = cursor.connection
        pipeline = conn._pipeline
        if pipeline is None:  # pragma: no cover - only ever appended to pipelined steps
            raise TransactionManagementError("a COMMIT is only sent along in a pipeline")
        pipeline.command_queue.append(
            functools.partial(conn.pgconn.send_query_params, b"COMMIT", None)
        )
        pipeline.result_queue.append(None)

    def result(self, cursor: CursorWrapper) -> None:
        return None
