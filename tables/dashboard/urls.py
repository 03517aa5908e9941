"""Routes of the pit-boss dashboard (mounted under /dashboard/)."""

from django.urls import path

from tables.dashboard import accounting
from tables.dashboard import reports as r
from tables.dashboard import views as v

app_name = "dashboard"

urlpatterns = [
    path("", v.floor, name="floor"),
    path("api/floor/", v.floor_json, name="floor-json"),
    path("api/alerts/", v.alerts_json, name="alerts-json"),
    path("alerts/decide/", v.alert_decide, name="alert-decide"),
    path("alerts/history/", v.alert_history, name="alert-history"),
    path("rounds/", v.rounds_search, name="rounds"),
    path("rounds.csv", v.rounds_csv, name="rounds-csv"),
    path("hold/", v.hold, name="hold"),
    path("tables/<int:pk>/", v.table_detail, name="table"),
    path("rounds/<int:pk>/", v.round_detail, name="round"),
    path("reports/", v.reports, name="reports"),
    path("reports/<int:pk>/<str:kind>/", v.report_file, name="report-file"),
    path("reports/<int:pk>/earlier/<int:n>/<str:kind>/", v.report_file, name="report-earlier-file"),
    path("accounting/", accounting.accounting, name="accounting"),
    path("reports/run/", r.run_audit, name="report-run"),
    path("reports/run/<str:day>/", r.run_progress, name="report-run-progress"),
]
