from django.db import migrations


def create(apps, schema_editor):
    RankingList = apps.get_model("tournaments", "RankingList")
    if not RankingList.objects.exists():
        RankingList.objects.create(name="Rangliste", slug="rangliste", months=24, min_rounds=36)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_standings_and_ranking")]
    operations = [migrations.RunPython(create, migrations.RunPython.noop)]
