"""DRF's authtoken app is replaced by django-rest-knox: drop its leftover table of never-expiring tokens.

Those tokens no longer authenticate (knox's TokenAuthentication reads knox's own table), but they are
credentials in clear text: the table goes.  Its migration records and content types go too, so the app
could be installed again from scratch.  Nothing to undo on reverse (the tokens are not coming back).
"""

from django.db import migrations


def drop_authtoken(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" in connection.introspection.table_names():
        schema_editor.execute("DROP TABLE authtoken_token")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = 'authtoken'")
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.using(schema_editor.connection.alias).filter(app_label="authtoken").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_pot_and_scoring_games"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(drop_authtoken, migrations.RunPython.noop, elidable=True)]
