"""Seed the five games with their published rule sets and pay tables (reversible)."""

from django.db import migrations

from tables.seeding import seed_games, unseed_games


def forwards(apps, schema_editor):
    seed_games(apps.get_model)


def backwards(apps, schema_editor):
    unseed_games(apps.get_model)


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_published_guard")]

    operations = [migrations.RunPython(forwards, backwards)]
