"""Referee URLs: entering, editing and confirming results (the same views for matches and
tables), and building a round's pack of score sheets. With player entry on, the sides of a table
reach the same entry, confirmation and dispute pages through their private links
(``urls_entrants``)."""
from django.urls import path

from scoring.web.views import printing, referee, results

MATCH, TABLE = {"kind": "match"}, {"kind": "table"}


def _result_urls(prefix: str, names: dict, kind: dict) -> list:
    return [
        path(f"t/<slug:slug>/{prefix}/<int:pk>/enter/", results.enter, kind, name=names["enter"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/preview/", results.preview, kind, name=names["preview"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/{names['record']}/<int:number>/edit/", results.edit, kind, name=names["edit"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/{names['record']}/<int:number>/delete/", results.delete, kind, name=names["delete"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/end/", results.end, kind, name=names["end"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/resume/", results.resume, kind, name=names["resume"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/confirm/", results.confirm, kind, name=names["confirm"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/dispute/", results.dispute, kind, name=names["dispute"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/reopen/", results.reopen, kind, name=names["reopen"]),
        path(f"t/<slug:slug>/{prefix}/<int:pk>/audit/<int:entry_id>/restore/", results.restore, kind, name=names["restore"]),
    ]


urlpatterns = [
    path("mijn-tafels/", referee.my_tables, name="my_tables"),
    path("handleiding-scheidsrechter/", referee.guide, name="referee_guide"),
    path("handleiding-scheidsrechter.pdf", referee.guide_pdf, name="referee_guide_pdf"),
    *_result_urls("match", {"enter": "match_enter", "preview": "hand_preview", "record": "hand", "edit": "hand_edit",
                            "delete": "hand_delete", "end": "match_end", "resume": "match_resume", "confirm": "match_confirm",
                            "dispute": "match_dispute", "reopen": "match_reopen", "restore": "audit_restore"}, MATCH),
    *_result_urls("table", {"enter": "table_enter", "preview": "deal_preview", "record": "deal", "edit": "deal_edit",
                            "delete": "deal_delete", "end": "table_end", "resume": "table_resume", "confirm": "table_confirm",
                            "dispute": "table_dispute", "reopen": "table_reopen", "restore": "table_audit_restore"}, TABLE),
    path("t/<slug:slug>/round/<int:number>/pack/build/", printing.round_pack_build, name="round_pack_build"),
]
