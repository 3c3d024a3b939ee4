"""URLs of the API, included under ``/api/`` (namespace ``api``): the version 1 endpoints under
``v1/`` (no trailing slashes below the index), the OpenAPI schema at ``schema/`` and the
browsable docs (Swagger UI, served from our own static files) at ``docs/``.

A match (Tai Pan) and a four-player table have the same endpoints under ``matches/`` and
``tables/``; the tournament's game decides which one it has (the other is 404).

Every other address under ``/api/`` (a malformed id, a trailing slash, an unknown name) is the
API's JSON 404 (:class:`scoring.api.views.base.NoSuchEndpoint`, last), never Django's HTML page."""
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerSplitView

from scoring.api.views import (
    checkins,
    crosstable,
    engines,
    hall_board,
    hall_clock,
    hall_print,
    members,
    persons,
    profiles,
    reads,
    results,
    rounds,
    seasons,
)
from scoring.api.views.base import NoSuchEndpoint, SchemaView
from scoring.kinds import KINDS, ResultKind

app_name = "api"


def result_urls(result_kind: ResultKind) -> list:
    """The endpoints of one kind of result (:mod:`scoring.kinds`) under its ``api_name``."""
    kind, prefix = result_kind.key, result_kind.api_name
    k = {"kind": kind}
    return [
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>", reads.ResultDetailView.as_view(**k), name=f"{kind}-detail"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/records", results.RecordsView.as_view(**k), name=f"{kind}-records"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/records/<id:number>", results.RecordView.as_view(**k),
             name=f"{kind}-record"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/records/<id:number>/acknowledge",
             results.AcknowledgeView.as_view(**k), name=f"{kind}-acknowledge"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/records/<id:number>/disagree",
             results.DisagreeView.as_view(**k), name=f"{kind}-disagree"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/end", results.EndView.as_view(**k), name=f"{kind}-end"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/resume", results.ResumeView.as_view(**k), name=f"{kind}-resume"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/confirm", results.ConfirmView.as_view(**k), name=f"{kind}-confirm"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/dispute", results.DisputeView.as_view(**k), name=f"{kind}-dispute"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/reopen", results.ReopenView.as_view(**k), name=f"{kind}-reopen"),
        path(f"tournaments/<slug:slug>/{prefix}/<id:pk>/referee-call", hall_board.RefereeCallView.as_view(**k),
             name=f"{kind}-referee-call"),
    ]


v1 = [
    path("", reads.IndexView.as_view(), name="index"),
    path("tournaments", reads.TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<slug:slug>", reads.TournamentDetailView.as_view(), name="tournament-detail"),
    path("tournaments/<slug:slug>/rounds", reads.RoundListView.as_view(), name="round-list"),
    path("tournaments/<slug:slug>/rounds/<id:number>", reads.RoundDetailView.as_view(), name="round-detail"),
    path("tournaments/<slug:slug>/rounds/draw", rounds.DrawNextView.as_view(), name="round-draw"),
    path("tournaments/<slug:slug>/rounds/<id:number>/draw", rounds.DrawAgainView.as_view(), name="round-draw-again"),
    path("tournaments/<slug:slug>/rounds/<id:number>/publish", rounds.PublishView.as_view(), name="round-publish"),
    path("tournaments/<slug:slug>/rounds/<id:number>/start", rounds.StartView.as_view(), name="round-start"),
    path("tournaments/<slug:slug>/rounds/<id:number>/close", rounds.CloseView.as_view(), name="round-close"),
    path("tournaments/<slug:slug>/rounds/<id:number>/names", hall_print.RoundNamesView.as_view(), name="round-names"),
    path("tournaments/<slug:slug>/standings", reads.StandingsView.as_view(), name="standings"),
    path("tournaments/<slug:slug>/crosstable", crosstable.CrossTableView.as_view(), name="crosstable"),
    path("tournaments/<slug:slug>/federation-export", crosstable.FederationExportView.as_view(), name="federation-export"),
    path("tournaments/<slug:slug>/rounds/<id:number>/times-up", hall_board.TimesUpView.as_view(), name="times-up"),
    path("tournaments/<slug:slug>/rounds/<id:number>/times-up/apply", hall_board.TimesUpApplyView.as_view(),
         name="times-up-apply"),
    path("tournaments/<slug:slug>/rounds/<id:number>/assignments", hall_board.AssignmentsView.as_view(),
         name="assignments"),
    path("tournaments/<slug:slug>/rounds/<id:number>/tables/<id:table>/claim", hall_board.ClaimView.as_view(),
         name="claim"),
    path("tournaments/<slug:slug>/rounds/<id:number>/tables/<id:table>/referee-call/answer",
         hall_board.AnswerCallView.as_view(), name="referee-call-answer"),
    path("tournaments/<slug:slug>/rounds/<id:number>/board", hall_board.BoardView.as_view(), name="board"),
    *(url for kind in KINDS.values() for url in result_urls(kind)),
    path("tournaments/<slug:slug>/members", members.MembersView.as_view(), name="member-list"),
    path("tournaments/<slug:slug>/members/<id:pk>/password", members.MemberPasswordView.as_view(), name="member-password"),
    path("tournaments/<slug:slug>/invitations", members.InvitationsView.as_view(), name="invitation-list"),
    path("tournaments/<slug:slug>/invitations/<id:pk>", members.InvitationView.as_view(), name="invitation-detail"),
    path("tournaments/<slug:slug>/clock", hall_clock.CurrentClockView.as_view(), name="clock"),
    path("tournaments/<slug:slug>/rounds/<id:number>/clock", hall_clock.RoundClockView.as_view(), name="round-clock"),
    *(path(f"tournaments/<slug:slug>/rounds/<id:number>/clock/{name}", view.as_view(), name=f"clock-{name}")
      for name, view in (("start", hall_clock.ClockStartView), ("pause", hall_clock.ClockPauseView),
                         ("resume", hall_clock.ClockResumeView), ("extend", hall_clock.ClockExtendView))),
    path("tournaments/<slug:slug>/announcements", hall_clock.AnnouncementsView.as_view(), name="announcement-list"),
    path("tournaments/<slug:slug>/announcements/<id:pk>", hall_clock.AnnouncementView.as_view(),
         name="announcement-detail"),
    path("tournaments/<slug:slug>/checkins", checkins.CheckInListView.as_view(), name="checkin-list"),
    path("tournaments/<slug:slug>/checkins/mine", checkins.MyCheckInView.as_view(), name="checkin-mine"),
    path("tournaments/<slug:slug>/checkins/<id:pk>", checkins.CheckInView.as_view(), name="checkin-detail"),
    path("tournaments/<slug:slug>/rounds/<id:number>/no-show", checkins.NoShowView.as_view(), name="no-show"),
    path("tournaments/<slug:slug>/entrants/<id:pk>/withdraw", checkins.WithdrawView.as_view(), name="entrant-withdraw"),
    path("tournaments/<slug:slug>/entrants/<id:pk>/return", checkins.ReturnView.as_view(), name="entrant-return"),
    path("people/<id:pk>", profiles.PersonView.as_view(), name="person-detail"),
    path("seasons", seasons.SeasonListView.as_view(), name="season-list"),
    path("seasons/<slug:slug>", seasons.SeasonDetailView.as_view(), name="season-detail"),
    path("seasons/<slug:slug>/ranking", seasons.SeasonRankingView.as_view(), name="season-ranking"),
    path("tournaments/<slug:slug>/entries", persons.EntryListView.as_view(), name="entry-list"),
    path("tournaments/<slug:slug>/entries/<id:pk>", persons.EntryView.as_view(), name="entry-detail"),
    path("tournaments/<slug:slug>/entries/<id:pk>/split", persons.EntrySplitView.as_view(), name="entry-split"),
    path("tournaments/<slug:slug>/public-names", persons.PublicNamesView.as_view(), name="public-names"),
    path("tournaments/<slug:slug>/people/review", persons.ReviewView.as_view(), name="people-review"),
    path("tournaments/<slug:slug>/people/same", persons.SamePersonView.as_view(), name="people-same"),
    path("tournaments/<slug:slug>/people/different", persons.DifferentPeopleView.as_view(), name="people-different"),
    path("engines", engines.EngineListView.as_view(), name="engine-list"),
    path("engines/<slug:game>/<slug:command>", engines.EngineCommandView.as_view(), name="engine-command"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"", NoSuchEndpoint.as_view(), name="no-such-endpoint"),
]
