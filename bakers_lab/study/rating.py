"""How hard is a deal?  A tag from "very easy" to "very hard", or "unwinnable".

The tag of a deal comes from who wins it: the three human-like players of the
ladder (:data:`RATERS`: ``greedy``, ``careful``, ``lookahead-2``, each a fixed,
deterministic way of playing) and the solver, with its effort (nodes) where no
player wins:

===============  ========================================================  =======
tag              definition                                                share
===============  ========================================================  =======
``very easy``    all three players win it (even ``greedy``)                 5.2 %
``easy``         two of the three win it (mostly careful and lookahead-2)  31.8 %
``medium``       one of them wins it                                       29.4 %
``hard``         none of them wins it; the solver wins it with at most     17.5 %
                 :data:`HARD_NODES` (3,000) nodes
``very hard``    none of them wins it; the solver needs more nodes         15.8 %
``unwinnable``   the solver proved that no sequence of moves wins           0.2 %
``not settled``  the solver could not settle it within its default budget   0.1 %
===============  ========================================================  =======

The shares are of Baker's Dozen games 1-32,000 (the shipped ratings,
:func:`ratings`; counts 1,657 / 10,170 / 9,424 / 5,597 / 5,049 / 76 / 27).
:data:`HARD_NODES` is about the median effort on the deals no player wins,
so "hard" and "very hard" split them in two halves.

Counting the players that lose, rather than naming the weakest one that wins,
keeps the tags ordered for every player: a deal that ``greedy`` wins but
``careful`` loses (it happens) is rated by both results, not by greedy alone.
The players and the solver are deterministic, so a deal's tag is the same on
every machine.

The win rate of every player falls from "very easy" to "very hard", those
of the ladder, of the players outside it (``random``, ``lookahead-3``, the
careful player without one of its tips) and in every preset
(``tests/test_rating.py`` checks it on every shipped survey: 38 pairs of a
player and a survey).  On Baker's Dozen it falls at every step.  In the
presets, rated on 2,000 deals, one step rises: ``greedy`` in
``house_sequences`` wins 39 of 732 "easy" deals (5.3 %) and 8 of 93 "medium"
ones (8.6 %), a rise a one-sided Fisher exact test puts at p = 0.15, within
sampling noise; the test fails any rise below p = 0.05.

>>> import bakers_lab as bl
>>> d = bl.difficulty(5)
>>> d.tag in TAGS, d.source
(True, 'table')
>>> pick("very hard", count=3, seed=1) == pick("very hard", count=3, seed=1)
True
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Literal

from bakers_lab.model.deals import Deal, game_number
from bakers_lab.model.deals import deal as _deal
from bakers_lab.model.rules import Rules, lying_name, title, variant_names
from bakers_lab.model.rules import rules as _rules
from bakers_lab.utils.validate import as_bool, as_int, describe, shown

if TYPE_CHECKING:
    import pandas as pd

    from bakers_lab.model.game import GameState

__all__ = [
    "HARD_NODES",
    "RATERS",
    "SHARES",
    "TAGS",
    "Difficulty",
    "DifficultyError",
    "difficulty",
    "parse_tag",
    "pick",
    "rate",
    "rated",
    "ratings",
    "ratings_from_survey",
    "tag_of",
]

Tag = Literal["very easy", "easy", "medium", "hard", "very hard", "unwinnable", "not settled"]
#: The tags, easiest first; the last two are not difficulties of a winnable deal.
TAGS: tuple[Tag, ...] = (
    "very easy",
    "easy",
    "medium",
    "hard",
    "very hard",
    "unwinnable",
    "not settled",
)
#: The tags of the deals the solver won.
WINNABLE: tuple[Tag, ...] = TAGS[:5]
#: The players whose games rate a deal (weakest first).
RATERS = ("greedy", "careful", "lookahead-2")
#: Most solver nodes of a "hard" deal (more: "very hard"): about the median
#: effort on the Baker's Dozen deals no rater wins (2,652 on games 1-32,000 with the solver of
#: the shipped table; 3,169 with the slower solver before it).
HARD_NODES = 3_000
#: Share of each tag in the shipped ratings of Baker's Dozen games 1-32,000
#: (percent; :func:`ratings` gives the table).
SHARES: dict[Tag, float] = {
    "very easy": 5.2,
    "easy": 31.8,
    "medium": 29.4,
    "hard": 17.5,
    "very hard": 15.8,
    "unwinnable": 0.2,
    "not settled": 0.1,
}
#: The shipped ratings (a package file, made by ``bakers-lab ratings``).
RATINGS_FILE = "ratings.parquet"


class DifficultyError(ValueError):
    """A difficulty that does not exist, or a pick nothing can satisfy."""


def parse_tag(text: object) -> Tag:
    """A tag from its text: ``hard``, ``very hard``, ``very-hard``, ``Very_Hard``.

    >>> parse_tag("very-easy")
    'very easy'
    """
    if not isinstance(text, str):
        raise DifficultyError(f"a difficulty is text, one of {_known()}; not {describe(text)}")
    key = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    for t in TAGS:
        if key == t:
            return t
    raise DifficultyError(
        f"unknown difficulty {shown(repr(text))}; the difficulties are {_known()}"
    )


def _known() -> str:
    return ", ".join(t.replace(" ", "-") for t in TAGS)


def tag_of(won_by: Collection[str], solver: str, nodes: int) -> Tag:
    """The tag of a deal from the raters that won it, the solver's outcome
    (``solved``/``won``, ``unsolvable``/``lost`` or ``unresolved``) and its nodes.

    >>> tag_of({"greedy", "careful", "lookahead-2"}, "solved", 40)
    'very easy'
    >>> tag_of((), "solved", 100_000)
    'very hard'
    """
    if solver in ("unsolvable", "lost"):
        return "unwinnable"
    if solver not in ("solved", "won"):
        return "not settled"
    wins = sum(1 for p in RATERS if p in won_by)
    if wins:
        return ("medium", "easy", "very easy")[wins - 1]
    return "hard" if nodes <= HARD_NODES else "very hard"


@dataclass(frozen=True)
class Difficulty:
    """A deal's tag and what it is based on: the raters that won it
    (``won_by``), the solver's outcome and nodes, and whether it came from the
    shipped table or was computed now (``source``)."""

    tag: Tag
    deal: int
    variant: str
    won_by: tuple[str, ...]
    solver: str
    nodes: int
    source: Literal["table", "computed"] = field(default="computed", compare=False)
    #: The smallest surveyed setting of each strength dial that won the deal
    #: (:func:`bakers_lab.study.skill.effort`): ``search-N`` and ``undo-N``; None where no
    #: dial was surveyed for the deal or no surveyed setting won it.
    #: They come from the shipped surveys only (a rating on the spot plays no dial), so
    #: they are not compared.
    search_effort: int | None = field(default=None, compare=False)
    undo_effort: int | None = field(default=None, compare=False)

    def summary(self) -> str:
        """The rating in words."""
        what = f"Game {self.deal} ({title(_rules(self.variant))}) is {self.tag}"
        if self.tag == "unwinnable":
            return f"{what}: the solver proved that no sequence of moves wins"
        if self.tag == "not settled":
            return f"{what}: the solver could not settle it within its budget"
        lost = [p for p in RATERS if p not in self.won_by]
        who = f"won by {', '.join(self.won_by)}" if self.won_by else "won by none of the players"
        losers = f", lost by {', '.join(lost)}" if lost and self.won_by else ""
        text = f"{what}: {who}{losers}; the solver wins it after {self.nodes:,} positions"
        plans = []
        if self.search_effort is not None:
            plans.append(f"thinking over {self.search_effort:,} positions a move (search-"
                         f"{self.search_effort})")  # fmt: skip
        if self.undo_effort is not None:
            plans.append(f"taking back {self.undo_effort:,} moves (undo-{self.undo_effort})")
        if plans:
            text += "; a careful player wins it by " + " or by ".join(plans)
        return text


def _compute(number: int, variant: str) -> Difficulty:
    from bakers_lab.solve.fast import solve
    from bakers_lab.solve.players import play

    d = _deal(number, variant=variant)
    won = tuple(p for p in RATERS if play(d, p).won)
    result = solve(d)
    return Difficulty(
        tag_of(won, result.outcome, result.nodes),
        number,
        variant,
        won,
        result.outcome,
        result.nodes,
        "computed",
    )


#: Most deals :func:`rate` (and :func:`pick` with ``deals``) rates on the spot, those the
#: shipped ratings lack: about a tenth of a second each, so a few minutes at most.
MAX_ON_THE_SPOT = 2_000


def _variant_name(variant: str | Rules) -> str:
    r = _rules(variant)
    lie = lying_name(r)
    if lie is not None:  # its name would fetch a preset's ratings that are not its own
        raise DifficultyError(f"difficulties are rated for the presets only, not for {lie}")
    if r.name not in variant_names():
        raise DifficultyError(
            f"difficulties are rated for the presets {', '.join(variant_names())}; "
            f"not for {shown(repr(r.name))}"
        )
    return r.name


def _game_of(game: object, variant: str | Rules | None, who: str) -> tuple[int, str]:
    """The game number and preset of what :func:`difficulty` and :func:`pick` take:
    a PySolFC game number (of ``variant``, Baker's Dozen by default), or a Deal (or
    the start of a GameState) with its game number and its rules."""
    from bakers_lab.model.game import GameState

    if isinstance(game, GameState):
        if game.history or game.deal is None:
            raise DifficultyError(
                f"{who} rates a game from its start: this GameState is "
                + (f"{len(game.history)} moves in" if game.history else "no dealt game")
                + "; give its Deal or its game number"
            )
        game = game.deal
    if isinstance(game, Deal):
        if variant is not None and _rules(variant) != game.rules:
            raise DifficultyError(
                f"variant= is only for game numbers; this Deal carries its rules "
                f"({game.rules.name}), not those of {shown(repr(variant))}"
            )
        if game.number is None:
            raise DifficultyError(
                f"{who} rates PySolFC games by their game number; this Deal has none ({game!r})"
            )
        return game.number, _variant_name(game.rules)
    if who != "rate":  # an item of a list of deals is told in the game numbers' words
        try:
            as_int(game, "game")
        except ValueError:
            raise DifficultyError(
                f"{who} takes a Deal, a GameState at its start or a game number, "
                f"not {describe(game)}"
            ) from None
    return game_number(game), _variant_name("bakers_dozen" if variant is None else variant)


def difficulty(deal: int | Deal | GameState, *, variant: str | Rules | None = None) -> Difficulty:
    """The difficulty of PySolFC game ``deal`` of ``variant`` (a preset; Baker's
    Dozen by default), or of a :class:`~bakers_lab.model.deals.Deal` with its game number
    (or a :class:`~bakers_lab.model.game.GameState` at its start), which carries its rules.

    Read from the shipped ratings where the game is there, rated on the spot
    (three players' games and a solve: well under a second for most deals)
    where it is not.

    >>> difficulty(64).tag
    'unwinnable'
    >>> from bakers_lab import deal
    >>> difficulty(deal(64)) == difficulty(64)
    True
    """
    number, name = _game_of(deal, variant, "difficulty")
    return rated(number, name) or _compute(number, name)


def rated(deal: int, variant: str = "bakers_dozen") -> Difficulty | None:
    """The shipped rating of a game (``None`` when the table does not have it)."""
    row = _table().get((variant, deal))
    if row is None:
        return None
    won, solver, nodes, search, undo = row
    return Difficulty(
        tag_of(won, solver, nodes), deal, variant, won, solver, nodes, "table", search, undo
    )


@lru_cache(maxsize=1)
def _table() -> dict[tuple[str, int], tuple[tuple[str, ...], str, int, int | None, int | None]]:
    """The shipped ratings as {(variant, deal): (won_by, solver, nodes, search
    effort, undo effort)}."""
    import pandas as pd

    t = ratings()
    won = t[list(RATERS)].to_numpy()
    efforts = [
        [None if pd.isna(e) else int(e) for e in t[c]] if c in t.columns else [None] * len(t)
        for c in ("search_effort", "undo_effort")
    ]
    out = {}
    for i, (v, d, s, n) in enumerate(
        zip(t["variant"], t["deal"], t["solver"], t["nodes"], strict=True)
    ):
        out[(str(v), int(d))] = (
            tuple(p for p, w in zip(RATERS, won[i], strict=True) if w),
            str(s),
            int(n),
            efforts[0][i],
            efforts[1][i],
        )
    return out


def ratings(variant: str | Rules | None = None) -> pd.DataFrame:
    """The shipped ratings: one row per (variant, deal) with the raters' wins,
    the solver's outcome and nodes, and the ``tag`` (an ordered categorical).

    ``variant`` keeps one preset's rows (all presets by default)."""
    import pandas as pd

    path = resources.files("bakers_lab").joinpath(RATINGS_FILE)
    with resources.as_file(path) as p:
        t = pd.read_parquet(p)
    if variant is not None:
        t = t[t["variant"] == _variant_name(variant)].reset_index(drop=True)
    return _with_tags(t)


def _with_tags(t: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    won = t[list(RATERS)].to_numpy()
    tags = [
        tag_of(tuple(p for p, w in zip(RATERS, row, strict=True) if w), s, n)
        for row, s, n in zip(won, t["solver"], t["nodes"], strict=True)
    ]
    return t.assign(tag=pd.Categorical(tags, categories=list(TAGS), ordered=True))


def ratings_from_survey(table: pd.DataFrame) -> pd.DataFrame:
    """Ratings from survey rows: every (variant, deal) that has a row of the
    solver and of each rater (``bakers-lab survey --players
    solver,greedy,careful,lookahead-2``, or several surveys' tables together,
    as :func:`bakers_lab.study.claims.load_surveys` gives them)."""
    import pandas as pd

    from bakers_lab.study.tablecheck import check_survey

    check_survey(table, who="ratings_from_survey", numbers=("nodes",),
                 players=("solver", *RATERS), error=DifficultyError)  # fmt: skip
    t = table.assign(variant=table["variant"].astype(str), player=table["player"].astype(str))
    t = t[t["player"].isin(("solver", *RATERS))]
    wide = t.assign(won=t["outcome"].astype(str) == "won").pivot(
        index=["variant", "deal"], columns="player", values="won"
    )
    wide = wide[wide.notna().all(axis=1)]  # deals every player played
    if wide.empty:
        raise DifficultyError(
            f"ratings_from_survey: no deal of the table has a row of the solver and of each "
            f"of {', '.join(RATERS)}"
        )
    solver = t[t["player"] == "solver"].set_index(["variant", "deal"]).loc[wide.index]
    out = pd.DataFrame(
        {
            "variant": [str(v) for v, _ in wide.index],
            "deal": [int(d) for _, d in wide.index],
            **{p: wide[p].astype(bool).to_numpy() for p in RATERS},
            "solver": solver["outcome"]
            .astype(str)
            .map({"won": "solved", "lost": "unsolvable", "unresolved": "unresolved"})
            .to_numpy(),
            "nodes": solver["nodes"].astype("int64").to_numpy(),
        }
    )
    out = out.sort_values(["variant", "deal"], kind="stable").reset_index(drop=True)
    return _with_tags(_with_efforts(out, table))


def _with_efforts(out: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """``out`` with each deal's ``search_effort`` and ``undo_effort`` (Int64, missing
    where the variant has no survey of that dial or no setting won the deal)."""
    import pandas as pd

    from bakers_lab.study.skill import FAMILIES, effort

    players = table["player"].astype(str)
    variants = table["variant"].astype(str)
    for family in FAMILIES:
        column = f"{family}_effort"
        parts = []
        for v in sorted(set(out["variant"])):
            mine = table[(variants == v).to_numpy()]
            if players[(variants == v).to_numpy()].str.fullmatch(rf"{family}-[0-9]+").any():
                parts.append(effort(mine, family).assign(variant=v))
        frame = pd.concat(parts, ignore_index=True) if parts else None
        if frame is None:
            out[column] = pd.array([pd.NA] * len(out), dtype="Int64")
            continue
        frame["deal"] = frame["deal"].astype("int64")
        merged = out[["variant", "deal"]].merge(frame, on=["variant", "deal"], how="left")
        out[column] = merged[column].astype("Int64").to_numpy()
    return out


def rate(
    deals: Iterable[int],
    *,
    variant: str | Rules = "bakers_dozen",
    n_jobs: int = 1,
    progress: bool = False,
) -> pd.DataFrame:
    """Rate game numbers (from the shipped table where they are there, on the
    spot where not), as a table like :func:`ratings` plus a ``source`` column."""
    import pandas as pd
    from joblib import Parallel, delayed

    name = _variant_name(variant)
    if isinstance(deals, str | bytes) or not isinstance(deals, Iterable):
        raise DifficultyError(f"deals must be game numbers or Deals, not {describe(deals)}")
    n_jobs = as_int(n_jobs, "n_jobs")
    progress = as_bool(progress, "progress")
    known = _table()
    numbers: list[int] = []
    todo: list[int] = []
    for d in deals:
        number, _ = _game_of(d, name, "rate")
        numbers.append(number)
        if (name, number) not in known:
            todo.append(number)
            if len(todo) > MAX_ON_THE_SPOT:
                raise DifficultyError(
                    f"more than {MAX_ON_THE_SPOT:,} of these deals are not in the shipped "
                    f"ratings of {name} and would be rated on the spot (about 0.1 s each); "
                    f"give fewer, or survey them (bakers-lab survey) and rate the survey"
                )
    jobs = (delayed(_compute)(d, name) for d in todo)
    if progress:
        from tqdm.auto import tqdm

        jobs = tqdm(jobs, total=len(todo), desc="rating", unit="deal")
    done = {r.deal: r for r in Parallel(n_jobs=n_jobs)(jobs)} if todo else {}
    rows = [done[d] if d in done else difficulty(d, variant=name) for d in numbers]
    t = pd.DataFrame(
        {
            "variant": [r.variant for r in rows],
            "deal": [r.deal for r in rows],
            **{p: [p in r.won_by for r in rows] for p in RATERS},
            "solver": [r.solver for r in rows],
            "nodes": pd.array([r.nodes for r in rows], dtype="int64"),
            "source": [r.source for r in rows],
        }
    )
    return _with_tags(t)


def pick(
    difficulty: str | None = None,
    *,
    variant: str | Rules = "bakers_dozen",
    count: int = 10,
    winnable: bool = False,
    seed: int | None = None,
    deals: Sequence[int] | None = None,
) -> list[int]:
    """PySolFC game numbers of ``variant`` with the given difficulty (any with
    ``None``), ready for PySolFC's "select game" dialog: ``count`` of them,
    drawn at random (``seed`` makes the draw repeatable), in increasing order.

    ``winnable=True`` keeps only deals the solver won.  ``deals`` are the
    numbers to choose from (default: the shipped ratings of the variant);
    numbers outside the shipped table are rated on the spot.

    >>> len(pick("easy", count=5, seed=0))
    5
    """
    tag = None if difficulty is None else parse_tag(difficulty)
    name = _variant_name(variant)
    count = as_int(count, "count", low=1)
    winnable = as_bool(winnable, "winnable")
    if winnable and tag in ("unwinnable", "not settled"):
        raise DifficultyError(f"--winnable and difficulty {tag!r} exclude each other")
    if seed is not None:
        seed = as_int(seed, "seed", low=0)
    if deals is None:
        t = ratings(name)
    else:
        if isinstance(deals, str | bytes) or not isinstance(deals, Iterable):
            raise TypeError(
                f"deals must be a sequence of game numbers or Deals, not {describe(deals)}"
            )
        t = rate(deals, variant=name)
    ok = t["tag"].isin(WINNABLE) if winnable else t["tag"].notna()
    if tag is not None:
        ok &= t["tag"] == tag
    pool = sorted({int(d) for d in t.loc[ok, "deal"]})
    if not pool:
        where = "the given deals" if deals is not None else f"the shipped ratings of {name}"
        raise DifficultyError(f"no {tag or 'winnable'} deal in {where}")
    chosen = random.Random(seed).sample(pool, min(count, len(pool)))
    return sorted(chosen)
