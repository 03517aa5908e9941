"""URL routes of the tables app (tablet API, dashboard pages)."""

from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    path("api/", include("tables.api.urls")),
    path("dashboard/", include("tables.dashboard_urls")),
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
]
