"""bakers_lab: an analysis toolkit for Baker's Dozen solitaire and its variants.

>>> import bakers_lab as bl
>>> d = bl.deal(417)                       # PySolFC game 417, classic rules
>>> g = bl.GameState.from_deal(d)
>>> len(g.legal_moves()) > 0
True
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker sees; at run time each name loads on first use
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
    from bakers_lab.solve.fast import solve  # bl.solve is the function it calls
    from bakers_lab.solve.players import GameRecord, Player, PlayerError, play
    from bakers_lab.solve.prove import ProveError, ProveResult, RunBusy, prove
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

#: Where each public name lives: ``bl.NAME`` imports its module on first use, so that
#: ``import bakers_lab`` (and every command, every ``import bakers_lab.model.game``)
#: loads only what it needs, not pandas, numba and scikit-learn for a card.
_WHERE = {
    "ablation": "bakers_lab.study.stats",
    "BoardTextError": "bakers_lab.model.boardtext",
    "Card": "bakers_lab.model.cards",
    "CardError": "bakers_lab.model.cards",
    "classroom_deal": "bakers_lab.solve.search",
    "Deal": "bakers_lab.model.deals",
    "deal": "bakers_lab.model.deals",
    "deal_features": "bakers_lab.study.features",
    "DealError": "bakers_lab.model.deals",
    "describe_features": "bakers_lab.study.features",
    "Dest": "bakers_lab.model.moves",
    "Difficulty": "bakers_lab.study.rating",
    "difficulty": "bakers_lab.study.rating",
    "DifficultyError": "bakers_lab.study.rating",
    "effort": "bakers_lab.study.skill",
    "explain": "bakers_lab.study.coach",
    "ExplainError": "bakers_lab.study.coach",
    "Explanation": "bakers_lab.study.coach",
    "GameRecord": "bakers_lab.solve.players",
    "GameState": "bakers_lab.model.game",
    "hardest_deals": "bakers_lab.study.stats",
    "Hint": "bakers_lab.study.coach",
    "hint": "bakers_lab.study.coach",
    "IllegalMoveError": "bakers_lab.model.moves",
    "ladder": "bakers_lab.study.stats",
    "loss_model": "bakers_lab.study.predict",
    "LossModel": "bakers_lab.study.stats",
    "Move": "bakers_lab.model.moves",
    "MoveError": "bakers_lab.model.moves",
    "Outcome": "bakers_lab.model.game",
    "paired_comparison": "bakers_lab.study.stats",
    "parse_moves": "bakers_lab.model.moves",
    "pick": "bakers_lab.study.rating",
    "play": "bakers_lab.solve.players",
    "prove": "bakers_lab.solve.prove",
    "ProveError": "bakers_lab.solve.prove",
    "ProveResult": "bakers_lab.solve.prove",
    "RunBusy": "bakers_lab.solve.prove",
    "Player": "bakers_lab.solve.players",
    "PlayerError": "bakers_lab.solve.players",
    "PRESETS": "bakers_lab.model.rules",
    "PysolFileError": "bakers_lab.files.pysol",
    "PysolGame": "bakers_lab.files.pysol",
    "rate_by_decile": "bakers_lab.study.stats",
    "read_pysol_game": "bakers_lab.files.pysol",
    "read_pysol_stats": "bakers_lab.files.pysol",
    "read_survey": "bakers_lab.study.survey",
    "Rules": "bakers_lab.model.rules",
    "rules": "bakers_lab.model.rules",
    "RulesError": "bakers_lab.model.rules",
    "SearchResult": "bakers_lab.solve.search",
    "seeded_deal": "bakers_lab.model.deals",
    "shortest": "bakers_lab.solve.shortest",
    "ShortestResult": "bakers_lab.solve.shortest",
    "skill_curve": "bakers_lab.study.skill",
    "SolverError": "bakers_lab.solve",
    "SolveResult": "bakers_lab.solve",
    "Strength": "bakers_lab.study.strength",
    "strength": "bakers_lab.study.strength",
    "StrengthError": "bakers_lab.study.strength",
    "Suit": "bakers_lab.model.cards",
    "survey": "bakers_lab.study.survey",
    "SurveyError": "bakers_lab.study.survey",
    "UnknownVariantError": "bakers_lab.model.rules",
    "variant_names": "bakers_lab.model.rules",
    "wilson_interval": "bakers_lab.study.stats",
    "win_rates": "bakers_lab.study.stats",
}


def __getattr__(name: str) -> object:
    """``bl.NAME``: the public name, its module imported the first time."""
    import importlib

    if name == "solve":  # the callable package (so that `import bakers_lab.solve.fast` works)
        return importlib.import_module("bakers_lab.solve")
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'bakers_lab' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value  # the next look-up is a plain one
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE, "solve"])


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
    "ProveError",
    "ProveResult",
    "PysolFileError",
    "PysolGame",
    "Rules",
    "RulesError",
    "RunBusy",
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
    "prove",
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
