"""The ranking lists (RankingList, RankingAdmission, RankingLogEntry) move to the rankings app,
tables and rows untouched: this migration only tells Django's state that they are no longer
ours; ``rankings 0001`` takes them over on the same tables (``db_table``)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0032_springer'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='rankinglist',
                    name='maintainers',
                ),
                migrations.RemoveField(
                    model_name='rankinglogentry',
                    name='ranking_list',
                ),
                migrations.RemoveField(
                    model_name='rankinglogentry',
                    name='by',
                ),
                migrations.RemoveField(
                    model_name='rankinglogentry',
                    name='tournament',
                ),
                migrations.DeleteModel(
                    name='RankingAdmission',
                ),
                migrations.DeleteModel(
                    name='RankingList',
                ),
                migrations.DeleteModel(
                    name='RankingLogEntry',
                ),
            ],
            database_operations=[],
        ),
    ]
