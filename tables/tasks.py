"""Celery tasks of the tables app (``app.autodiscover_tasks()`` imports this module)."""

from .tasks_audit import *  # noqa: F403  (audits, nightly report: tables/tasks_audit.py)
from .tasks_rounds import *  # noqa: F403,E402  (interrupted Mini Blackjack rounds: tables/tasks_rounds.py)
from .tasks_theory import *  # noqa: F403,E402  (back-office theory: tables/tasks_theory.py)
