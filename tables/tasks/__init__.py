"""Celery tasks of the tables app (``app.autodiscover_tasks()`` imports this module)."""

from .audit import *  # noqa: F403  (audits, nightly report: tables/tasks/audit.py)
from .floor import *  # noqa: F403,E402  (today's hold as rounds settle: tables/tasks/floor.py)
from .rounds import *  # noqa: F403,E402  (interrupted Mini Blackjack rounds: tables/tasks/rounds.py)
from .theory import *  # noqa: F403,E402  (back-office theory: tables/tasks/theory.py)
