"""bakers_lab: an analysis toolkit for Baker's Dozen solitaire and its variants.

>>> import bakers_lab as bl
>>> d = bl.deal(417)                       # PySolFC game 417, classic rules
>>> g = bl.GameState.from_deal(d)
>>> len(g.legal_moves()) > 0
True
"""

from typing import TYPE_CHECKING

from bakers_lab.files.pysol import PysolFileError, PysolGame, read_pysol_game, read_pysol_stats
from bakers_lab.model.boardtext import BoardTextError
from bakers_lab.model.cards import Card, CardError, Suit
from bakers_lab.model.deals import Deal, DealError, deal, seeded_deal
from bakers_lab.model.game import GameState, Outcome
from bakers_lab.model.moves import Dest, IllegalMoveError, Move, MoveError, parse_moves
from bakers_lab.model.rules import (
    PRESETS,
    Rules,
    RulesError,
    UnknownVariantError,
    rules,
    variant_names,
)
from bakers_lab.solve import SolverError, SolveResult
from bakers_lab.solve.players import GameRecord, Player, PlayerError, play
from bakers_lab.solve.search import SearchResult, classroom_deal
from bakers_lab.solve.shortest import ShortestResult, shortest
from bakers_lab.study.coach import ExplainError, Explanation, Hint, explain, hint
from bakers_lab.study.features import deal_features, describe_features
from bakers_lab.study.predict import loss_model
from bakers_lab.study.rating import Difficulty, DifficultyError, difficulty, pick
from bakers_lab.study.skill import effort, skill_curve
from bakers_lab.study.stats import (
    LossModel,
    ablation,
    hardest_deals,
    ladder,
    paired_comparison,
    rate_by_decile,
    wilson_interval,
    win_rates,
)
from bakers_lab.study.strength import Strength, StrengthError, strength
from bakers_lab.study.survey import SurveyError, read_survey, survey

if TYPE_CHECKING:  # for type checkers bl.solve is the function it calls
    from bakers_lab.solve.fast import solve
else:  # at run time the callable package, so that `import bakers_lab.solve.fast` works too
    from bakers_lab import solve

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "BoardTextError",
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "Dest",
    "Difficulty",
    "DifficultyError",
    "ExplainError",
    "Explanation",
    "GameRecord",
    "GameState",
    "Hint",
    "IllegalMoveError",
    "LossModel",
    "Move",
    "MoveError",
    "Outcome",
    "Player",
    "PlayerError",
    "PysolFileError",
    "PysolGame",
    "Rules",
    "RulesError",
    "SearchResult",
    "ShortestResult",
    "SolveResult",
    "SolverError",
    "Strength",
    "StrengthError",
    "Suit",
    "SurveyError",
    "UnknownVariantError",
    "ablation",
    "classroom_deal",
    "deal",
    "deal_features",
    "describe_features",
    "difficulty",
    "effort",
    "explain",
    "hardest_deals",
    "hint",
    "ladder",
    "loss_model",
    "paired_comparison",
    "parse_moves",
    "pick",
    "play",
    "rate_by_decile",
    "read_pysol_game",
    "read_pysol_stats",
    "read_survey",
    "rules",
    "seeded_deal",
    "shortest",
    "skill_curve",
    "solve",
    "strength",
    "survey",
    "variant_names",
    "wilson_interval",
    "win_rates",
]
