"""Referee URLs: entering, editing and confirming results (the same views for every kind of
result, :mod:`scoring.kinds`, under its key: ``match/``, ``table/``), and building a round's pack
of score sheets. With player entry on, the sides of a table reach the same entry, confirmation
and dispute pages through their private links (``urls_entrants``)."""
from django.urls import path

from scoring.kinds import KINDS, ResultKind
from scoring.web.views import hall_board, printing, referee, result_actions, results


def _result_urls(kind: ResultKind) -> list:
    """The entry and action URLs of one kind of result, named by its ``url_names``."""
    base, names, k = f"t/<slug:slug>/{kind.key}/<id:pk>", kind.url_names, {"kind": kind}
    return [
        path(f"{base}/enter/", results.enter, k, name=names["enter"]),
        path(f"{base}/preview/", results.preview, k, name=names["preview"]),
        path(f"{base}/{kind.record_key}/<id:number>/edit/", results.edit, k, name=names["edit"]),
        path(f"{base}/{kind.record_key}/<id:number>/delete/", results.delete, k, name=names["delete"]),
        path(f"{base}/end/", result_actions.end, k, name=names["end"]),
        path(f"{base}/resume/", result_actions.resume, k, name=names["resume"]),
        path(f"{base}/confirm/", result_actions.confirm, k, name=names["confirm"]),
        path(f"{base}/dispute/", result_actions.dispute, k, name=names["dispute"]),
        path(f"{base}/reopen/", result_actions.reopen, k, name=names["reopen"]),
        path(f"{base}/audit/<id:entry_id>/restore/", result_actions.restore, k, name=names["restore"]),
        path(f"{base}/{kind.record_key}/<id:number>/acknowledge/", result_actions.acknowledge, k,
             name=names["acknowledge"]),
        path(f"{base}/{kind.record_key}/<id:number>/disagree/", result_actions.disagree, k, name=names["disagree"]),
    ]


urlpatterns = [
    path("mijn-tafels/", referee.my_tables, name="my_tables"),
    path("handleiding-scheidsrechter/", referee.guide, name="referee_guide"),
    path("handleiding-scheidsrechter.pdf", referee.guide_pdf, name="referee_guide_pdf"),
    *(url for kind in KINDS.values() for url in _result_urls(kind)),
    path("t/<slug:slug>/code/", referee.find_match, name="find_match"),
    path("t/<slug:slug>/round/<id:number>/table/<id:table>/claim/", hall_board.claim_table, name="claim_table"),
    path("t/<slug:slug>/round/<id:number>/table/<id:table>/answer/", hall_board.answer_call, name="answer_call"),
    *(path(f"t/<slug:slug>/{kind.key}/<id:pk>/call-referee/", hall_board.call_referee, {"kind": kind},
           name=f"{kind.key}_call_referee") for kind in KINDS.values()),
    path("t/<slug:slug>/round/<id:number>/pack/build/", printing.round_pack_build, name="round_pack_build"),
]
