"""Beat schedule: settle interrupted Mini Blackjack rounds every 15 minutes (reversible)."""

from django.db import migrations

NAME = "Settle interrupted Mini Blackjack rounds"


def forwards(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=15, period="minutes")
    PeriodicTask.objects.get_or_create(name=NAME, defaults={"task": "tables.settle_interrupted_rounds", "interval": every})


def backwards(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("tables", "0008_theory_result"), ("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(forwards, backwards)]
