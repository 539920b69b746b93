"""A model's check constraints validated in one query.

Django's ``full_clean`` asks the database about each ``CheckConstraint`` on its own, and inside a
transaction (every service runs in one) wraps each question in a savepoint: three statements a
constraint, 33 for a tournament's eleven, 45 for a decision's fifteen, on every validated save
and every bound model form. ``OneQueryChecks`` asks one ``SELECT`` with a column per
constraint, in one savepoint, and names the same errors in the same places; a unique constraint
is still checked by Django (a query of its own is what it needs).
"""

from collections.abc import Collection, Iterator
from contextlib import nullcontext
from typing import ClassVar

from django.core.exceptions import NON_FIELD_ERRORS, FieldError, ValidationError
from django.db import DatabaseError, connections, models, router, transaction
from django.db.models import BooleanField, CheckConstraint, Q, Value
from django.db.models.constraints import BaseConstraint
from django.db.models.functions import Coalesce
from django.db.models.sql import Query
from django.db.models.sql.constants import SINGLE


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
    error (a value the database cannot compare) falls back to Django's own check of each."""
    # The fields' values as expressions, as Django's own check builds them.
    against = instance._get_field_expression_map(  # type: ignore[attr-defined]
        meta=model._meta, exclude=exclude
    )
    query = Query(None)
    for name, value in against.items():
        query.add_annotation(
            value if hasattr(value, "resolve_expression") else Value(value), name, select=False
        )
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
        return []
    connection = connections[using]
    try:
        with transaction.atomic(using=using) if connection.in_atomic_block else nullcontext():
            row = query.get_compiler(using=using).execute_sql(SINGLE)
    except DatabaseError:
        failed = []
        for constraint in asked:
            try:
                constraint.validate(model, instance, exclude=exclude, using=using)
            except ValidationError:
                failed.append(constraint)
        return failed
    return [constraint for constraint, passed in zip(asked, row, strict=True) if not passed]


class OneQueryChecks(models.Model):
    """A model whose ``validate_constraints`` asks its check constraints in one query.

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
                try:
                    constraint.validate(model, self, exclude=excluded, using=using)
                except ValidationError as error:
                    yield constraint, error


def _error(constraint: CheckConstraint) -> ValidationError:
    return ValidationError(
        constraint.get_violation_error_message(), code=constraint.violation_error_code
    )
