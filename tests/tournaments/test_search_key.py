"""The key a player is found by (``Player.search_key``): made from the names on every path
that writes them, refused by the database when missing, and filled by the migration for the
players known before it."""

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Concat

from tests import factories
from tournaments import services
from tournaments.models import Player, player_search_key

pytestmark = pytest.mark.django_db


def _key(player: Player) -> str:
    return Player.objects.values_list("search_key", flat=True).get(pk=player.pk)


def test_a_new_player_has_the_key_of_his_name():
    player = factories.player(first_name="Jörg", last_name="Müller")
    assert _key(player) == "joerg mueller|jorg muller"


def test_correcting_a_name_renews_the_key():
    tournament = factories.tournament()
    player = factories.player(first_name="Jörg", last_name="Müller")
    entry = services.entry_create(tournament=tournament, player=player)
    services.entry_update(
        entry=entry,
        first_name="Jörg",
        last_name="Möller",
        start_number=entry.start_number,
        by=factories.organiser(tournament),
    )
    assert _key(player) == "joerg moeller|jorg moller"


def test_saving_only_a_name_saves_its_key():
    player = factories.player(first_name="Jörg", last_name="Müller")
    player.last_name = "Weiß"
    player.save(update_fields=["last_name"])
    assert _key(player) == "joerg weiss|jorg weiss"


def test_saving_a_player_loaded_without_his_names_keeps_the_key():
    player = factories.player(first_name="Jörg", last_name="Müller")
    partial = Player.objects.only("pk", "club").get(pk=player.pk)
    partial.club = "Köln"
    partial.save()
    assert _key(player) == "joerg mueller|jorg muller"


def test_every_bulk_path_keeps_the_key():
    created = Player.objects.bulk_create(
        [
            Player(first_name="Ayşe", last_name="Öztürk"),
            Player(first_name="Emre", last_name="Yılmaz"),
        ]
    )
    assert [_key(player) for player in created] == [
        "ayse oeztuerk|ayse ozturk",
        "emre yilmaz|emre yilmaz",
    ]
    created[0].last_name = "Şahin"
    Player.objects.bulk_update(created[:1], ["last_name"])
    assert _key(created[0]) == "ayse sahin|ayse sahin"
    Player.objects.filter(pk=created[1].pk).update(last_name="Dvořák")
    assert _key(created[1]) == "emre dvorak|emre dvorak"
    Player.objects.filter(last_name="Dvořák").update(last_name=Concat(F("last_name"), Value("ová")))
    assert _key(created[1]) == "emre dvorakova|emre dvorakova"


def test_the_database_refuses_a_player_without_a_key():
    with pytest.raises(IntegrityError), transaction.atomic():
        Player._base_manager.bulk_create([Player(first_name="Ohne", last_name="Schlüssel")])


def test_the_key_of_a_name_of_compatibility_characters_is_cut_to_fit():
    key = player_search_key("ﷺ" * 100, "ﷺ" * 100)
    assert len(key) == Player._meta.get_field("search_key").max_length
    player = factories.player(first_name="ﷺ" * 100, last_name="ﷺ" * 100)
    assert _key(player) == key


def test_the_migration_fills_the_key_of_every_player_in_batches(monkeypatch):
    migration = importlib.import_module("tournaments.migrations.0015_player_search_key")
    monkeypatch.setattr(migration, "BATCH", 2)
    players = [factories.player(last_name=name) for name in ("Öztürk", "Müller", "Straße")]
    Player.objects.update(search_key="stale")
    migration.fill_search_keys(apps, None)
    assert [_key(player).split("|")[0] for player in players] == [
        f"{player.first_name.lower()} {spelt}"
        for player, spelt in zip(players, ("oeztuerk", "mueller", "strasse"), strict=True)
    ]
