"""Check constraints validated in one query (``tournaments.constraints``): the same verdict as
Django's own check, constraint by constraint, on every model that has them."""

import datetime
import decimal

import pytest
from django.apps import apps
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import connection, models
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests import factories
from tournaments.constraints import OneQueryChecks, checks_failed, unique_free
from tournaments.models import Entry, Player, Tournament

CHECKED = [
    model
    for model in apps.get_models()
    if any(isinstance(each, models.CheckConstraint) for each in model._meta.constraints)
]


def test_every_model_with_a_check_constraint_asks_them_in_one_query():
    assert CHECKED
    assert [model for model in CHECKED if not issubclass(model, OneQueryChecks)] == []


def _values(field: models.Field) -> list:
    """Values that break or keep a constraint on ``field``: bounds, empties, the choices."""
    if field.choices:
        values = [value for value, _label in field.flatchoices] + ["unknown"]
    elif isinstance(field, models.BooleanField):
        values = [True, False]
    elif isinstance(field, models.DecimalField):
        values = [decimal.Decimal("-1"), decimal.Decimal("0"), decimal.Decimal("1.5")]
    elif isinstance(field, models.IntegerField | models.FloatField):
        values = [-1, 0, 1, 4, 5, 30, 10_000]
    elif isinstance(field, models.DateTimeField):
        values = [timezone.now(), timezone.now() - datetime.timedelta(days=400)]
    elif isinstance(field, models.DateField):
        values = [datetime.date(2026, 11, 21), datetime.date(1990, 1, 1)]
    elif isinstance(field, models.DurationField):
        values = [datetime.timedelta(0), datetime.timedelta(minutes=-5)]
    elif isinstance(field, models.CharField | models.TextField):
        values = ["", " ", "x", "1"]
    else:
        values = []
    return values + ([None] if field.null else [])


def _variants(model: type[models.Model]):
    """The model's default instance, and one for each value of each of its fields."""
    yield model()
    for field in model._meta.concrete_fields:
        if field.primary_key:
            continue
        if field.is_relation:
            for value in ([None] if field.null else []) + [1]:
                instance = model()
                setattr(instance, field.attname, value)
                yield instance
            continue
        for value in _values(field):
            instance = model()
            setattr(instance, field.attname, value)
            yield instance


def _djangos(instance: models.Model) -> list[str]:
    failed = []
    for model, constraints in instance.get_constraints():
        for constraint in constraints:
            if isinstance(constraint, models.CheckConstraint):
                try:
                    constraint.validate(model, instance, using="default")
                except ValidationError:
                    failed.append(constraint.name)
    return failed


def _ours(instance: models.Model) -> list[str]:
    failed = []
    for model, constraints in instance.get_constraints():
        checks = [each for each in constraints if isinstance(each, models.CheckConstraint)]
        failed += [
            each.name
            for each in checks_failed(instance, model, checks, exclude=None, using="default")
        ]
    return failed


@pytest.mark.django_db
@pytest.mark.parametrize("model", CHECKED, ids=lambda model: model._meta.label)
def test_one_query_breaks_the_constraints_that_django_breaks(model):
    variants = list(_variants(model))
    verdicts = {tuple(_djangos(instance)) for instance in variants}
    assert len(verdicts) > 1, "the variants should keep and break something"
    for instance in variants:
        assert _ours(instance) == _djangos(instance), {
            field.attname: getattr(instance, field.attname) for field in model._meta.concrete_fields
        }


@pytest.mark.django_db
def test_a_tournaments_eleven_checks_are_one_select_in_one_savepoint():
    tournament = factories.tournament()
    checks = [
        each for each in Tournament._meta.constraints if isinstance(each, models.CheckConstraint)
    ]
    assert len(checks) >= 10
    with CaptureQueriesContext(connection) as queries:
        tournament.full_clean()
    selects = [query["sql"] for query in queries if query["sql"].startswith("SELECT")]
    # The name taken (a unique field) is Django's own query; the checks are one.
    assert len([sql for sql in selects if "check_0" in sql]) == 1
    assert len(queries) <= 3 + 2 * (len(selects) - 1)


@pytest.mark.django_db
def test_a_broken_check_is_named_as_django_names_it_and_a_start_number_where_it_was_typed():
    tournament = factories.tournament(players=1)
    entry = tournament.entries.get()
    entry.start_number = 0
    with pytest.raises(ValidationError) as refused:
        entry.full_clean()
    assert refused.value.message_dict == {
        NON_FIELD_ERRORS: ["Constraint “entry_start_number_positive” is violated."]
    }
    twin = factories.tournament(players=2).entries.order_by("start_number")
    second = twin[1]
    second.start_number = twin[0].start_number
    with pytest.raises(ValidationError) as refused:
        second.full_clean()
    assert list(refused.value.message_dict) == ["start_number"]
    tournament.ends_on = tournament.starts_on - datetime.timedelta(days=1)
    tournament.springer = True
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert refused.value.message_dict == {
        NON_FIELD_ERRORS: [
            "The last day cannot be before the first day.",
            next(
                each
                for each in Tournament._meta.constraints
                if each.name == "tournament_springer_needs_tables_of_six_and_seven"
            ).get_violation_error_message(),
        ]
    }
    with pytest.raises(ValidationError) as refused:  # a field left out leaves its checks out
        tournament.full_clean(exclude=["ends_on"])
    assert len(refused.value.message_dict[NON_FIELD_ERRORS]) == 1


@pytest.mark.django_db
def test_a_unique_constraint_is_asked_through_a_compiled_read_that_django_would_agree_with():
    tournament = factories.tournament(players=2)
    first, second = tournament.entries.order_by("start_number")
    by_name = {each.name: each for each in Entry._meta.constraints}
    player_once = by_name["entry_player_once_per_tournament"]
    number_once = by_name["entry_start_number_unique"]

    def free(instance, constraint):
        ours = unique_free(instance, Entry, constraint, exclude=None, using="default")
        try:
            constraint.validate(Entry, instance, using="default")
        except ValidationError:
            assert not ours, "Django finds it taken"
        else:
            # Django's check decides where the compiled read does not answer.
            assert ours or constraint.condition is not None
        return ours

    assert free(first, player_once)
    assert free(first, number_once)
    twin = Entry(tournament=tournament, player=first.player, start_number=9)
    assert not free(twin, player_once)
    assert free(twin, number_once)
    twin = Entry(tournament=tournament, player=factories.player(), start_number=second.start_number)
    assert free(twin, player_once)
    assert not free(twin, number_once)
    # A conditional one is left to Django.
    conditional = next(
        each for each in Player._meta.constraints if getattr(each, "condition", None)
    )
    assert isinstance(conditional, models.UniqueConstraint)
    assert not unique_free(first.player, Player, conditional, exclude=None, using="default")
