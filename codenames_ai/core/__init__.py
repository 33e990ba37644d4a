"""The rules core of codenames-ai: rule sets, boards, state, views, records, the match and the
runner.

Standard library only: no numpy, no I/O, no agents. Everything else builds on this.
"""

from .actions import (
    MOVE_KINDS,
    UNLIMITED,
    Action,
    Clue,
    ClueNumber,
    Cover,
    Guess,
    GuesserAction,
    Pass,
    Unlimited,
    action_from_dict,
    clue_number_from_json,
    clue_number_to_json,
    parse_clue_number,
)
from .board import (
    MAX_CARD_LENGTH,
    SEED_BITS,
    Board,
    check_deck,
    check_word_cards,
    deal,
    derive_seed,
    format_key,
    parse_key,
    random_key,
    secret_seed,
    starting_team_of,
)
from .cards import Identity, Role, Standing, Team
from .choices import DEFAULT_LEVEL, LEVEL_ROLES, Level, PlayRole
from .clock import MONOTONIC, ClockStalled, MoveClock, VirtualClock
from .clues import (
    BasicClueValidator,
    ClueContext,
    ClueValidator,
    ClueViolation,
    check_clue,
    fold_word,
    normalize_word,
    resolve_validator,
)
from .errors import (
    AgentError,
    CodenamesError,
    ConfigError,
    DeckError,
    GameInterrupted,
    IllegalActionError,
    IllegalClueError,
    ModelError,
    MoveTimedOut,
    RecordError,
)
from .events import (
    Abandoned,
    ClueGiven,
    Covered,
    CoverReason,
    Event,
    Forfeited,
    GuessMade,
    InvalidClue,
    Passed,
    TimedOut,
)
from .match import Match, Move, MoveResult, OutsideSeat
from .protocols import (
    Guesser,
    NamesModels,
    PreparesBoard,
    Spymaster,
    agent_id,
    model_names,
    prepare_board,
)
from .record import GameRecord, replay, replay_steps
from .rules import (
    COOP_RATINGS,
    EDITIONS,
    MAX_CARDS,
    PICTURES,
    WORDS,
    ClueRulesName,
    EditionName,
    GuessLimit,
    InvalidCluePolicy,
    Layout,
    RuleSet,
    Variant,
    coop_rating,
    custom,
    edition,
    guess_limit,
    variant,
)
from .runner import DEFAULT_MAX_TURNS, IDLE, IdleSeat, Seats, play_game
from .settings import GameSettings, LayoutOverrides
from .state import CoverTask, EndReason, GameState, Outcome
from .views import GuesserView, Phase, PublicView, SpymasterView, held_key

__all__ = [
    "MAX_CARD_LENGTH", "MAX_CARDS", "MOVE_KINDS", "SEED_BITS", "UNLIMITED", "Abandoned",
    "Action", "AgentError",
    "MONOTONIC", "ClockStalled", "MoveClock", "VirtualClock",
    "BasicClueValidator",
    "Board", "Clue",
    "ClueContext", "ClueGiven", "ClueNumber", "ClueValidator", "ClueViolation",
    "COOP_RATINGS", "CodenamesError", "ConfigError", "Cover", "CoverReason", "CoverTask",
    "Covered", "DEFAULT_MAX_TURNS", "DeckError", "EDITIONS", "EditionName", "ClueRulesName",
    "DEFAULT_LEVEL", "GameSettings", "LayoutOverrides", "Level", "LEVEL_ROLES", "PlayRole",
    "EndReason", "Event", "GameRecord",
    "GameInterrupted", "GameState", "Guess", "GuessLimit", "GuessMade", "Guesser",
    "GuesserAction", "GuesserView",
    "Identity", "IllegalActionError", "IllegalClueError", "InvalidClue", "InvalidCluePolicy",
    "Layout", "Match", "ModelError", "Move", "MoveResult", "MoveTimedOut", "NamesModels",
    "OutsideSeat", "PreparesBoard",
    "Outcome", "PICTURES", "Pass", "Passed", "Phase", "PublicView",
    "RecordError",
    "Role", "RuleSet", "Seats", "IDLE", "IdleSeat", "Forfeited", "Spymaster", "SpymasterView",
    "Team", "TimedOut", "Unlimited",
    "Variant", "WORDS", "action_from_dict", "agent_id", "check_clue", "check_deck",
    "clue_number_from_json", "clue_number_to_json",
    "check_word_cards", "coop_rating", "custom", "deal", "derive_seed", "edition", "fold_word",
    "guess_limit", "model_names", "normalize_word",
    "parse_clue_number", "prepare_board",
    "play_game", "random_key", "replay", "replay_steps", "resolve_validator", "secret_seed",
    "variant",
    "Standing", "format_key", "held_key", "parse_key", "starting_team_of",
]
