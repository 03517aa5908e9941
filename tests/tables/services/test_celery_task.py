"""Services queue tasks by name (``celery_task``); a web process that never imported the task modules finds them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_a_fresh_process_finds_the_tasks_the_services_queue_by_name() -> None:
    code = (
        "import django, sys; django.setup()\n"
        "assert 'tables.tasks.floor' not in sys.modules\n"
        "from tables.services.common import celery_task\n"
        "print(celery_task('tables.hold_refresh').name, celery_task('tables.compute_theory').name)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["tables.hold_refresh", "tables.compute_theory"]
