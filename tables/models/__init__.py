"""Models of the floor, one submodule per area; Django finds them through these imports.

``config``: casinos, pits, tables, games, versioned rule sets and pay tables (the back office).
Other areas (rounds, shoes, audit records) live in their own submodules imported below.
"""

from .config import (
    Casino,
    Game,
    GameKind,
    PayLine,
    PayLineKind,
    PayTable,
    Pit,
    PublishedVersionError,
    RuleSet,
    Table,
    TableStatus,
    VersionStatus,
)

__all__ = [
    "Casino",
    "Game",
    "GameKind",
    "PayLine",
    "PayLineKind",
    "PayTable",
    "Pit",
    "PublishedVersionError",
    "RuleSet",
    "Table",
    "TableStatus",
    "VersionStatus",
]

# Live floor records (rounds, shoes, approvals, audit trail): tables/models/rounds.py.
from .rounds import (  # noqa: E402
    Approval,
    ApprovalKind,
    AuditEvent,
    CardSource,
    Decision,
    IdempotencyKey,
    Payment,
    Round,
    RoundCard,
    RoundState,
    Scan,
    SettlementLine,
    Shoe,
    ShuffleEvent,
    TableSession,
    Wager,
)

__all__ += [
    "Approval",
    "ApprovalKind",
    "AuditEvent",
    "CardSource",
    "Decision",
    "IdempotencyKey",
    "Payment",
    "Round",
    "RoundCard",
    "RoundState",
    "SettlementLine",
    "Shoe",
    "ShuffleEvent",
    "Scan",
    "TableSession",
    "Wager",
]

# Audits, drop counts, theory and nightly reports: tables/models/audit.py.
from .audit import (  # noqa: E402
    AlertDecision,
    AuditFinding,
    AuditKind,
    AuditReport,
    AuditResult,
    BetTheory,
    DropCount,
    ReportStatus,
    Severity,
)

__all__ += [
    "AlertDecision",
    "AuditFinding",
    "AuditKind",
    "AuditReport",
    "AuditResult",
    "BetTheory",
    "DropCount",
    "ReportStatus",
    "Severity",
]

# Cached theory (simulated RTP) per pay-table version and rules: tables/models/theory.py.
from .theory import TheoryResult, TheoryStatus  # noqa: E402

__all__ += ["TheoryResult", "TheoryStatus"]

# Games spanning many rounds (Contract Rummy deals, Bluffjack stacks): tables/models/games.py.
from .games import BluffjackGame, GameState, RummyAction, RummyDeal, RummyGame  # noqa: E402

__all__ += ["BluffjackGame", "GameState", "RummyAction", "RummyDeal", "RummyGame"]

# Deck designs the reader has learned (enrolment profiles): tables/models/decks.py.
from .decks import DeckDesign, EnrolmentScan, EnrolmentSession, EnrolmentStatus  # noqa: E402

__all__ += ["DeckDesign", "EnrolmentScan", "EnrolmentSession", "EnrolmentStatus"]

# Table accounting (inventory, fills, credits) and player ratings: tables/models/accounting.py.
from .accounting import (  # noqa: E402
    INVENTORY_KINDS,
    TRANSFER_KINDS,
    Player,
    RatingPause,
    RatingSlip,
    RatingState,
    Slip,
    SlipKind,
    SlipSignature,
    SlipStep,
    SlipVoid,
)

__all__ += [
    "INVENTORY_KINDS",
    "TRANSFER_KINDS",
    "Player",
    "RatingPause",
    "RatingSlip",
    "RatingState",
    "Slip",
    "SlipKind",
    "SlipSignature",
    "SlipStep",
    "SlipVoid",
]

# Maker-checker of publishing: tables/models/publishing.py.
from .publishing import PublishRequest, PublishStatus  # noqa: E402

__all__ += ["PublishRequest", "PublishStatus"]

# Devices posting card images for a table (a card-reading shoe, a document camera): tables/models/shoe_feed.py.
from .shoe_feed import ShoeFeedDevice  # noqa: E402

__all__ += ["ShoeFeedDevice"]

# Who watches which part of the floor (the dashboard's scope): tables/models/floor.py.
from .floor import FloorScope  # noqa: E402

__all__ += ["FloorScope"]
