"""Tournament data model (docs/architecture.md, docs/tournaments.md).

Entered records (hand and deal inputs as the engine reads them) are the source of truth; the plain
integer columns next to them (hand scores, match totals, match points) are derived and can be
rebuilt with ``manage.py rebuild_scores``.

Tai Pan tournaments: entrants are :class:`Team` (two :class:`Player`), a round pairs teams in a
:class:`Match` (team NS vs team EW) made of :class:`Hand` rows. Four-player games (Sichuan,
Taiwanese, Tien Gow): entrants are individual :class:`Player`, a round seats four at a
:class:`Table` (:class:`TableSeat` rows) made of :class:`Deal` rows.

The models live in one module per concern and are re-exported here, so the app label stays
``scoring`` and every model keeps its name (no migration churn).
"""
from scoring.models.accounts import Invitation
from scoring.models.api_tokens import ApiToken
from scoring.models.checkins import CheckIn, Withdrawal
from scoring.models.clock import ANNOUNCEMENT_MAX_LENGTH, Announcement, RoundClock
from scoring.models.hall_board import RefereeAssignment, RefereeCall, TimesUp
from scoring.models.idempotency import IdempotentAnswer
from scoring.models.links import EntrantLink
from scoring.models.live import LiveRound, LiveState
from scoring.models.participants import Player, Team
from scoring.models.persons import DistinctPersons, Person, PublicNames
from scoring.models.results import (
    AuditEntry,
    Confirmation,
    Deal,
    Dispute,
    Hand,
    Match,
    MatchQuerySet,
    ResultContainer,
    ResultRecord,
    Table,
    TableSeat,
)
from scoring.models.rounds import Round
from scoring.models.seasons import FinalPlace, PointsPreset, Season
from scoring.models.tasks import TaskState
from scoring.models.tournaments import FirstRoundMethod, Membership, RoundFormat, Tournament

__all__ = [
    "ANNOUNCEMENT_MAX_LENGTH", "Announcement", "ApiToken", "RoundClock",
    "AuditEntry", "CheckIn", "FinalPlace", "PointsPreset", "Season", "DistinctPersons", "Person", "PublicNames", "Confirmation", "Deal", "Dispute", "EntrantLink", "Hand", "IdempotentAnswer", "Invitation", "LiveRound", "LiveState", "Match", "MatchQuerySet", "Membership",
    "FirstRoundMethod", "RefereeAssignment", "RefereeCall", "ResultContainer", "ResultRecord", "Player", "Round",
    "RoundFormat", "Table", "TableSeat", "TaskState", "Team", "TimesUp", "Tournament", "Withdrawal",
]
