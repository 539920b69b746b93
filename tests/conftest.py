import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english_messages():
    """Services' messages are read in English unless a test asks for German; pages still
    choose the language per request (German by default)."""
    with translation.override("en"):
        yield
