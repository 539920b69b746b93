"""A model's constraints validated with few queries.

Django's ``full_clean`` asks the database about each ``CheckConstraint`` on its own, and inside a
transaction (every service runs in one) wraps each question in a savepoint: three statements a
constraint, 33 for a tournament's eleven, 45 for a decision's fifteen, on every validated save
and every bound model form; and it builds and compiles a queryset for each unique constraint.
``OneQueryChecks`` asks the check constraints in one ``SELECT`` with a column per constraint, in
one savepoint, compiled once per shape, and a unique constraint of plain fields through a read
compiled once (``Prepared``); Django's own check still names every error, in the same places.
"""

import functools
from collections.abc import Collection, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, ClassVar

from django.core.exceptions import NON_FIELD_ERRORS, FieldError, ValidationError
from django.db import DatabaseError, connections, models, router, transaction
from django.db.models import BooleanField, CheckConstraint, Q, UniqueConstraint, Value
from django.db.models.constraints import BaseConstraint
from django.db.models.functions import Coalesce
from django.db.models.sql import Query

from tournaments.prepared import Prepared


@dataclass(frozen=True)
class _Param:
    """A field's value in a compiled check: its place among the parameters."""

    field: models.Field


class _FieldValue(Value):
    """A field's value (not None) as Django's check puts it in the query (``Value(value,
    field)``), compiled as a parameter to be filled in with each instance's value. Its value
    while compiling is a stand-in that is not None: the ORM decides an ``isnull`` of a value
    then and there (the shape says which values are None)."""

    def __init__(self, field: models.Field) -> None:
        super().__init__(_NOT_NONE, field)

    def as_sql(self, compiler: Any, connection: Any) -> Any:  # a _Param for a parameter
        connection.ops.check_expression_support(self)
        return "%s", [_Param(self.output_field)]


_NOT_NONE = object()


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]  # constants, and a _Param where a field's value goes
    asked: tuple[CheckConstraint, ...]  # by column


_compiled: dict[tuple, _Compiled] = {}


def checks_failed(
    instance: models.Model,
    model: type[models.Model],
    checks: list[CheckConstraint],
    *,
    exclude: set[str] | None,
    using: str,
) -> list[CheckConstraint]:
    """Those of ``checks`` (constraints of ``model``) that ``instance`` breaks, asked in one
    query. A constraint on a field in ``exclude`` is left out, as Django leaves it; a database
    error (a value the database cannot compare) falls back to Django's own check of each.

    The query is compiled once per model, database and shape (the fields left out, those
    whose value is None, which Django writes as NULL) and run with the instance's values: making
    it cost more than asking it."""
    connection = connections[using]
    fields = [
        field
        for field in model._meta.local_concrete_fields
        if field.name not in (exclude or ()) and not field.generated
    ]
    values = [getattr(instance, field.attname) for field in fields]
    if not _compilable(model) or any(
        value is not None and hasattr(value, "resolve_expression") for value in values
    ):
        return _checks_failed_each(instance, model, checks, exclude=exclude, using=using)
    empty = {field.name for field, value in zip(fields, values, strict=True) if value is None}
    if instance.pk is None:
        empty.add("pk")
    shape = (model, using, connection.vendor, frozenset(exclude or ()), frozenset(empty))
    compiled = _compiled.get(shape)
    if compiled is None:
        compiled = _compile(model, fields, empty, checks, exclude=exclude, using=using)
        _compiled[shape] = compiled
    if not compiled.asked:
        return []
    by_field = dict(zip(fields, values, strict=True))
    by_field[model._meta.pk] = instance.pk
    params = [
        param.field.get_db_prep_value(by_field[param.field], connection=connection)
        if isinstance(param, _Param)
        else param
        for param in compiled.params
    ]
    try:
        atomic = transaction.atomic(using=using) if connection.in_atomic_block else nullcontext()
        with atomic, connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            row = cursor.fetchone()
    except DatabaseError:
        return _checks_failed_each(instance, model, compiled.asked, exclude=exclude, using=using)
    return [each for each, passed in zip(compiled.asked, row, strict=True) if not passed]


@functools.cache
def _compilable(model: type[models.Model]) -> bool:
    """Whether the model's fields all reach the query as a plain parameter (no generated field,
    no field with a placeholder of its own)."""
    return not any(
        field.generated or hasattr(field, "get_placeholder")
        for field in model._meta.local_concrete_fields
    )


def _compile(
    model: type[models.Model],
    fields: list[models.Field],
    empty: set[str],
    checks: list[CheckConstraint],
    *,
    exclude: set[str] | None,
    using: str,
) -> _Compiled:
    """The query of ``checks``, as Django's check builds it (``Q.check``), a column each."""
    query = Query(None)
    against = {
        field.name: Value(None, field) if field.name in empty else _FieldValue(field)
        for field in fields
    }
    if "pk" not in (exclude or ()):
        pk = model._meta.pk
        against["pk"] = Value(None, pk) if "pk" in empty else _FieldValue(pk)
    for name, value in against.items():
        query.add_annotation(value, name, select=False)
    asked = []
    for number, constraint in enumerate(checks):
        # Unknown (NULL) passes, as in the database and in Django's check.
        condition = Coalesce(Q(constraint.condition), True, output_field=BooleanField())
        try:
            query.add_annotation(condition, f"check_{number}")
        except FieldError:  # a field left out
            continue
        asked.append(constraint)
    if not asked:
        return _Compiled("", (), ())
    sql, params = query.get_compiler(using=using).as_sql()
    return _Compiled(sql, tuple(params), tuple(asked))


def _checks_failed_each(
    instance: models.Model,
    model: type[models.Model],
    checks: Iterable[CheckConstraint],
    *,
    exclude: set[str] | None,
    using: str,
) -> list[CheckConstraint]:
    """Django's own check, a query each."""
    failed = []
    for constraint in checks:
        try:
            constraint.validate(model, instance, exclude=exclude, using=using)
        except ValidationError:
            failed.append(constraint)
    return failed


def unique_free(
    instance: models.Model,
    model: type[models.Model],
    constraint: UniqueConstraint,
    *,
    exclude: set[str] | None,
    using: str,
) -> bool:
    """Whether no other row holds the values of ``constraint`` (a unique constraint of
    ``model``) that ``instance`` has, asked through a read compiled once (``Prepared``); False
    where that read does not answer it (a condition, an expression, a value that is not a whole
    number or text), and then Django's check decides, and names the error, as it would."""
    if constraint.condition is not None or constraint.expressions or not constraint.fields:
        return False
    if exclude and any(name in exclude for name in constraint.fields):
        return False
    fields = [model._meta.get_field(name) for name in constraint.fields]
    values = [getattr(instance, getattr(field, "attname", "")) for field in fields]
    if any(
        getattr(field, "generated", False) or type(value) not in (int, str)
        for field, value in zip(fields, values, strict=True)
    ):
        return False
    other = not instance._state.adding and instance.pk is not None
    key = (model, constraint.name, other)
    read = _unique_reads.get(key)
    if read is None:
        read = _unique_reads[key] = _unique_read(model, tuple(constraint.fields), other=other)
    return not read(*values, *([instance.pk] if other else []), using=using)


def _unique_read(model: type[models.Model], names: tuple[str, ...], *, other: bool) -> Prepared:
    def build(*arguments: Any) -> Any:
        taken = model._default_manager.filter(**dict(zip(names, arguments, strict=False)))
        if other:
            taken = taken.exclude(pk=arguments[-1])
        return taken.values_list("pk")[:1]

    return Prepared(build)


_unique_reads: dict[tuple, Prepared] = {}


class OneQueryChecks(models.Model):
    """A model whose ``validate_constraints`` asks its check constraints in one query, and a
    unique constraint of plain fields through a compiled read.

    ``constraint_fields`` names, by constraint, the field whose error a broken constraint of
    several fields is (Django names none, so a form would show it above the form rather than
    where it was typed)."""

    constraint_fields: ClassVar[dict[str, str]] = {}

    class Meta:
        abstract = True

    def validate_constraints(self, exclude: Collection[str] | None = None) -> None:
        errors: dict[str, list[ValidationError]] = {}
        for constraint, error in self.constraint_errors(exclude):
            field = self.constraint_fields.get(constraint.name)
            fields: tuple[str, ...] = getattr(constraint, "fields", ())
            if field is None and error.code == "unique" and len(fields) == 1:
                field = fields[0]  # as Django places it
            errors.setdefault(field or NON_FIELD_ERRORS, []).extend(error.error_list)
        if errors:
            raise ValidationError(errors)

    def constraint_errors(
        self, exclude: Collection[str] | None = None
    ) -> Iterator[tuple[BaseConstraint, ValidationError]]:
        """Each constraint this instance breaks, with Django's error for it, in the model's
        order."""
        using = router.db_for_write(type(self), instance=self)
        excluded = set(exclude) if exclude is not None else None
        for model, constraints in self.get_constraints():
            checks = [each for each in constraints if isinstance(each, CheckConstraint)]
            failed = checks_failed(self, model, checks, exclude=excluded, using=using)
            for constraint in constraints:
                if isinstance(constraint, CheckConstraint):
                    if constraint in failed:
                        yield constraint, _error(constraint)
                    continue
                if isinstance(constraint, UniqueConstraint) and unique_free(
                    self, model, constraint, exclude=excluded, using=using
                ):
                    continue
                try:
                    constraint.validate(model, self, exclude=excluded, using=using)
                except ValidationError as error:
                    yield constraint, error


def _error(constraint: CheckConstraint) -> ValidationError:
    return ValidationError(
        constraint.get_violation_error_message(), code=constraint.violation_error_code
    )
