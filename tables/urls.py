"""URL routes of the tables app (tablet API, dashboard pages)."""

from django.contrib.auth.views import LogoutView
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from tables.dashboard.landing import landing
from tables.tablet import views

urlpatterns = [
    path("api/", include("tables.api.urls")),
    path("dashboard/", include("tables.dashboard.urls")),
    path("tablet/", views.tablet_home, name="tablet-home"),
    path("tablet/login/", views.TabletLoginView.as_view(), name="tablet-login"),
    path("tablet/logout/", LogoutView.as_view(next_page="/tablet/login/"), name="tablet-logout"),
    path("tablet/tables/<int:pk>/", views.tablet_table, name="tablet-table"),
    path("tablet/tables/<int:pk>/enrol/", views.tablet_enrol, name="tablet-enrol"),
    path("logout/", LogoutView.as_view(next_page="/"), name="logout"),
    path("", landing, name="landing"),
    # Browsers ask for /favicon.ico on every page: our own icon rather than a 404 in every console.
    path("favicon.ico", RedirectView.as_view(url=static("shared/favicon.svg"), permanent=True)),
]
