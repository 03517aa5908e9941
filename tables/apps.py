from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Casino tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Role groups kept in step after every migrate (tables/access.py); the sign-in signals (services/auth.py)."""
        from pathlib import Path

        from django.conf import settings
        from django.db.models.signals import post_migrate

        for folder in settings.LOCAL_DIRS:
            Path(folder).mkdir(parents=True, exist_ok=True)

        import casino.checks  # noqa: F401  (registers the deploy checks)

        from .access import ensure_roles_after_migrate

        post_migrate.connect(ensure_roles_after_migrate, sender=self, dispatch_uid="tables.ensure_roles")

        from .services.auth import connect_signals

        connect_signals()

        from .services import push

        push.connect_signals()  # the push channel: audit events published after commit (docs/push.md)
