"""Tablet API routes."""

from django.urls import path

from . import accounting, bluffjack, enrolment, events, rounds, rummy, shoe_feed, tables, tablet
from .auth import LogoutAllView, LogoutView, TokenView
from .rummy import RummyCheckView
from .verify import RoundVerifyView

urlpatterns: list = [
    # The push channel (server-sent events; docs/push.md).
    path("events/floor/", events.floor_events, name="api-events-floor"),
    path("events/tables/<int:pk>/", events.table_events, name="api-events-table"),
    path("auth/token/", TokenView.as_view(), name="api-auth-token"),
    path("auth/logout/", LogoutView.as_view(), name="api-auth-logout"),
    path("auth/logout-all/", LogoutAllView.as_view(), name="api-auth-logout-all"),
    path("rounds/verify/", RoundVerifyView.as_view(), name="api-rounds-verify"),
    path("tables/", tables.TableListView.as_view(), name="api-tables"),
    path("tables/<int:pk>/", tables.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:pk>/open/", tables.TableOpenView.as_view(), name="api-table-open"),
    path("tables/<int:pk>/close/", tables.TableCloseView.as_view(), name="api-table-close"),
    path("tables/<int:pk>/shuffle/", tables.TableShuffleView.as_view(), name="api-table-shuffle"),
    path("tables/<int:pk>/shoe-feed/", shoe_feed.ShoeFeedView.as_view(), name="api-table-shoe-feed"),
    path("tables/<int:pk>/dealers/", tablet.TableDealersView.as_view(), name="api-table-dealers"),
    path("rounds/<int:pk>/reject/", tablet.RoundRejectView.as_view(), name="api-round-reject"),
    path("tables/<int:pk>/recall/", tables.TableRecallView.as_view(), name="api-table-recall"),
    path("tables/<int:pk>/rummy/check/", RummyCheckView.as_view(), name="api-table-rummy-check"),
    path("tables/<int:pk>/rounds/", rounds.RoundOpenView.as_view(), name="api-round-open"),
    path("rounds/<int:pk>/", rounds.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:pk>/cards/", rounds.RoundCardView.as_view(), name="api-round-card"),
    path("rounds/<int:pk>/scans/", rounds.RoundScanView.as_view(), name="api-round-scan"),
    path("rounds/<int:pk>/scans/<int:scan>/dismiss/", rounds.ScanDismissView.as_view(), name="api-round-scan-dismiss"),
    path("scans/<int:pk>/image/", rounds.ScanImageView.as_view(), name="api-scan-image"),
    path("rounds/<int:pk>/decisions/", rounds.RoundDecisionView.as_view(), name="api-round-decision"),
    path("rounds/<int:pk>/settle/", rounds.RoundSettleView.as_view(), name="api-round-settle"),
    path("rounds/<int:pk>/paid/", rounds.RoundPaidView.as_view(), name="api-round-paid"),
    path("rounds/<int:pk>/approve/", rounds.RoundApproveView.as_view(), name="api-round-approve"),
    path("rounds/<int:pk>/pause/", rounds.RoundPauseView.as_view(), name="api-round-pause"),
    path("rounds/<int:pk>/resume/", rounds.RoundResumeView.as_view(), name="api-round-resume"),
    path("rounds/<int:pk>/cancel/", rounds.RoundCancelView.as_view(), name="api-round-cancel"),
    path("rounds/<int:pk>/cards/<int:seq>/correct/", rounds.CardCorrectView.as_view(), name="api-card-correct"),
    path("tables/<int:pk>/rummy/games/", rummy.RummyGamesView.as_view(), name="api-rummy-games"),
    path("rummy/games/<int:pk>/", rummy.RummyGameView.as_view(), name="api-rummy-game"),
    path("rummy/games/<int:pk>/deals/", rummy.RummyDealView.as_view(), name="api-rummy-deal"),
    path("rummy/games/<int:pk>/actions/", rummy.RummyActionView.as_view(), name="api-rummy-action"),
    path("rummy/games/<int:pk>/scan/", rummy.RummyScanView.as_view(), name="api-rummy-scan"),
    path("rummy/games/<int:pk>/end/", rummy.RummyGameEndView.as_view(), name="api-rummy-end"),
    path("tables/<int:pk>/bluffjack/games/", bluffjack.BluffjackGamesView.as_view(), name="api-bluffjack-games"),
    path("bluffjack/games/<int:pk>/", bluffjack.BluffjackGameView.as_view(), name="api-bluffjack-game"),
    path("bluffjack/games/<int:pk>/hands/", bluffjack.BluffjackHandOpenView.as_view(), name="api-bluffjack-hand"),
    path("bluffjack/games/<int:pk>/end/", bluffjack.BluffjackGameEndView.as_view(), name="api-bluffjack-end"),
    # Table accounting and player ratings (docs/accounting.md).
    path("tables/<int:pk>/slips/", accounting.TableSlipsView.as_view(), name="api-table-slips"),
    path("slips/<int:pk>/", accounting.SlipDetailView.as_view(), name="api-slip"),
    path("slips/<int:pk>/sign/", accounting.SlipSignView.as_view(), name="api-slip-sign"),
    path("slips/<int:pk>/void/", accounting.SlipVoidView.as_view(), name="api-slip-void"),
    path("tables/<int:pk>/drop/", accounting.DropView.as_view(), name="api-table-drop"),
    path("accounting/reconciliation/", accounting.ReconciliationView.as_view(), name="api-reconciliation"),
    path("tables/<int:pk>/players/", accounting.SeatPlayerView.as_view(), name="api-table-players"),
    path("ratings/", accounting.RatingListView.as_view(), name="api-ratings"),
    path("ratings/<int:pk>/", accounting.RatingDetailView.as_view(), name="api-rating"),
    path("ratings/<int:pk>/pause/", accounting.RatingPauseView.as_view(), name="api-rating-pause"),
    path("ratings/<int:pk>/resume/", accounting.RatingResumeView.as_view(), name="api-rating-resume"),
    path("ratings/<int:pk>/close/", accounting.RatingCloseView.as_view(), name="api-rating-close"),
]

# Deck enrolment at the tablet (docs/tablet.md "Enrol a new deck").
_ENROL = "tables/<int:pk>/enrolments/<int:sid>/"
urlpatterns += [
    path("tables/<int:pk>/enrolments/", enrolment.EnrolmentsView.as_view(), name="api-enrolments"),
    path(_ENROL, enrolment.EnrolmentView.as_view(), name="api-enrolment"),
    path(f"{_ENROL}scans/", enrolment.EnrolmentScanView.as_view(), name="api-enrolment-scan"),
    path(f"{_ENROL}scans/<int:seq>/", enrolment.EnrolmentScanNameView.as_view(), name="api-enrolment-scan-name"),
    path(f"{_ENROL}scans/<int:seq>/image/", enrolment.EnrolmentScanImageView.as_view(),
         name="api-enrolment-scan-image"),
    path(f"{_ENROL}undo/", enrolment.EnrolmentUndoView.as_view(), name="api-enrolment-undo"),
    path(f"{_ENROL}abandon/", enrolment.EnrolmentAbandonView.as_view(), name="api-enrolment-abandon"),
    path(f"{_ENROL}finish/", enrolment.EnrolmentFinishView.as_view(), name="api-enrolment-finish"),
    path(f"{_ENROL}assign/", enrolment.EnrolmentAssignView.as_view(), name="api-enrolment-assign"),
]
