"""django-axes' sign-in attempts in the back office, its clean-up action kept to those who may delete.

axes registers its own ``AccessAttemptAdmin`` whose "Clean up expired attempts" action has no
permission of its own: every role that may *view* the attempts (the auditor, the pit boss) was offered
it, and running it answered 500 (axes reads the sign-in's time from the request, which an admin page's
request has not).  Here the action asks for the delete permission and runs against the present time.
"""

from __future__ import annotations

from typing import Any

from axes.admin import AccessAttemptAdmin as AxesAccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest


class AccessAttemptAdmin(AxesAccessAttemptAdmin):  # type: ignore[misc]
    actions = ["cleanup_expired_attempts"]

    @admin.action(description="Clean up expired attempts", permissions=["delete"])
    def cleanup_expired_attempts(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        # axes' handler measures "expired" from the attempt's time on the request (set for a sign-in);
        # here no sign-in is being made: from now.
        request.axes_attempt_time = None  # type: ignore[attr-defined]
        super().cleanup_expired_attempts(request, queryset)


admin.site.unregister(AccessAttempt)
admin.site.register(AccessAttempt, AccessAttemptAdmin)
