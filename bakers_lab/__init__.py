"""bakers_lab: an analysis toolkit for Baker's Dozen solitaire and its variants.

>>> import bakers_lab as bl
>>> d = bl.deal(417)                       # PySolFC game 417, classic rules
>>> g = bl.GameState.from_deal(d)
>>> len(g.legal_moves()) > 0
True
"""

from .boardtext import BoardTextError
from .cards import Card, CardError, Suit
from .deals import Deal, DealError, deal, seeded_deal
from .game import GameState, Outcome
from .moves import Dest, IllegalMoveError, Move, MoveError, parse_moves
from .rules import PRESETS, Rules, RulesError, UnknownVariantError, rules, variant_names
from . import solve
from .solve import SolveResult, SolverError
from .stats import wilson_interval, win_rates
from .survey import SurveyError, read_survey, survey
from .features import deal_features, describe_features

__version__ = "0.1.0"

__all__ = [
    "BoardTextError",
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "Dest",
    "GameState",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "Outcome",
    "PRESETS",
    "Rules",
    "RulesError",
    "SolveResult",
    "SurveyError",
    "SolverError",
    "Suit",
    "UnknownVariantError",
    "deal",
    "deal_features",
    "describe_features",
    "parse_moves",
    "read_survey",
    "rules",
    "seeded_deal",
    "solve",
    "survey",
    "variant_names",
    "wilson_interval",
    "win_rates",
]
