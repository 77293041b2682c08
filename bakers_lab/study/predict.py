"""What predicts a loss, asked two ways: a logistic model on one feature per family of
near-duplicate features, and gradient-boosted trees on all of them, on the same
held-out deals; then which family matters, by how much the held-out AUC falls when
the family's columns are shuffled.  This is the library's one loss model
(``bl.loss_model`` is :func:`loss_predictors` by its older name): the HTML report,
notebook 03 and the README show what it finds.

The deal features come in families that measure nearly the same thing (the four
``f_depth_ace_*`` and their sum; ``f_inversions`` and its low, middle and high
parts): a linear model given all of them splits one effect among collinear
coefficients, whose signs and intervals then mean nothing.  :data:`FEATURE_GROUPS`
names the families; the logistic model takes each family's first feature (its
*representative*), whose variance inflation factors on Baker's Dozen deals 1-32,000
are all below 2 (:func:`variance_inflation`; a test keeps them there).  The trees
need no such care: they take every feature, and permutation importance is measured
per family, all its columns shuffled together.

>>> sorted(FEATURE_GROUPS)[:3]
['Aces buried', 'Queens and Kings above a lower card', 'Twos buried']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import numpy.typing as npt
import pandas as pd

from bakers_lab.study.rows import checked_features, choose, variant_rows
from bakers_lab.study.stats import LossModel, held_out_split, logistic_model, rank_auc
from bakers_lab.study.tablecheck import check_survey
from bakers_lab.utils.present import fixed
from bakers_lab.utils.validate import as_int, describe

__all__ = [
    "FEATURE_GROUPS",
    "LossPredictors",
    "family_of",
    "loss_model",
    "loss_predictors",
    "representatives",
    "variance_inflation",
]

#: Families of deal features that measure nearly the same thing, each named in
#: words, its representative (for the logistic model) first.
FEATURE_GROUPS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "Aces buried": (
            "f_depth_aces",
            "f_depth_ace_c",
            "f_depth_ace_s",
            "f_depth_ace_h",
            "f_depth_ace_d",
            "f_next_depth",  # the lowest card not home is the Ace unless it starts home
            "f_next_depth_c",
            "f_next_depth_s",
            "f_next_depth_h",
            "f_next_depth_d",
        ),
        "Twos buried": (
            "f_depth_twos",
            "f_depth_two_c",
            "f_depth_two_s",
            "f_depth_two_h",
            "f_depth_two_d",
        ),
        "low cards deep in a column": ("f_deep_low_cards",),
        "cards above a lower card of their suit": (
            "f_inversions",
            "f_inversions_low",
            "f_inversions_mid",
            "f_inversions_high",
            "f_max_column_inversions",
            "f_blocked_cards",
        ),
        "Queens and Kings above a lower card": ("f_queens_over_lower", "f_kings_over_lower"),
        "columns with two Kings or more": ("f_multi_king_columns",),
        "cards playable at the start": ("f_legal_moves", "f_top_cards_playable"),
        "cards already built down": ("f_built_pairs",),
    }
)

#: How much of a loss an AUC says the deal explains, in words (upper bounds).
_SHARE = ((0.6, "almost nothing"), (0.7, "a little"), (0.8, "a fair part"), (1.01, "much"))


def family_of(feature: str) -> str:
    """The family of :data:`FEATURE_GROUPS` that ``feature`` belongs to.

    >>> family_of("f_depth_ace_c")
    'Aces buried'
    """
    for name, members in FEATURE_GROUPS.items():
        if feature in members:
            return name
    raise ValueError(
        f"unknown feature {describe(feature)}; every feature of FEATURE_GROUPS has a family"
    )


def representatives(table: pd.DataFrame | None = None) -> list[str]:
    """Each family's representative feature (of those ``table`` has, if given)."""
    reps = [members[0] for members in FEATURE_GROUPS.values()]
    return reps if table is None else [f for f in reps if f in table.columns]


def variance_inflation(table: pd.DataFrame, features: Sequence[str]) -> pd.Series:
    """The variance inflation factor of each of ``features`` over the distinct deals
    of ``table``: 1 / (1 - R²) of the feature regressed on the others (1: unrelated;
    above 5 or 10, a linear model cannot tell it from the others).  Constant
    features are left out."""
    deals = table.drop_duplicates("deal")
    x = deals[list(features)].to_numpy(dtype=np.float64)
    keep = x.std(axis=0) > 0
    x = x[:, keep]
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    vif = []
    for j in range(z.shape[1]):
        others = np.column_stack([np.ones(len(z)), np.delete(z, j, axis=1)])
        fit, *_ = np.linalg.lstsq(others, z[:, j], rcond=None)
        unexplained = float(np.mean((z[:, j] - others @ fit) ** 2))  # 1 - R², z has variance 1
        vif.append(math.inf if unexplained < 1e-12 else 1 / unexplained)
    return pd.Series(vif, index=[f for f, k in zip(features, keep, strict=True) if k])


@dataclass(frozen=True)
class LossPredictors:
    """What predicts ``player``'s losses on ``variant`` (see :func:`loss_predictors`).

    ``logistic_auc``: held-out AUC of the logistic model on the representatives;
    ``trees_auc``: of the gradient-boosted trees on every feature; ``importance``:
    one row per family, columns ``group``, ``features`` (how many), ``auc_drop``
    (mean fall of the trees' held-out AUC when the family is shuffled), ``low``,
    ``high`` (its 95 % interval over the repeats) — sorted, largest first;
    ``line``: the logistic model itself (its odds ratios per standard deviation
    of each representative); :attr:`families` puts the two side by side.
    """

    player: str
    variant: str
    n_train: int
    n_test: int
    logistic_auc: float
    trees_auc: float
    importance: pd.DataFrame = field(repr=False)
    line: LossModel = field(repr=False)
    repeats: int = 10
    seed: int = 0

    @property
    def strongest(self) -> str:
        """The family whose shuffling costs the trees most."""
        return str(self.importance["group"].iloc[0])

    def strongest_feature(self) -> str:
        """The feature that stands for the :attr:`strongest` family in the straight
        line (its representative): the one to chart a player's win rate against."""
        return str(self.families["feature"].iloc[0])

    @property
    def families(self) -> pd.DataFrame:
        """The trees beside the line, one row per family, in the order of
        :attr:`importance`: ``group``, ``feature`` (the family's feature in the
        line; missing where the line dropped it), ``odds_ratio``, ``odds_low``,
        ``odds_high`` (the odds of losing multiply by this per standard deviation
        more of it, 95 % Wald interval), ``p_value_wald`` (the Wald test of odds 1),
        and the trees' ``auc_drop``,
        ``drop_low``, ``drop_high``."""
        odds = self.line.odds_ratios.assign(
            group=[family_of(f) for f in self.line.odds_ratios["feature"]]
        ).set_index("group")
        chosen = {family_of(f): f for f in (*self.line.odds_ratios["feature"], *self.line.dropped)}
        imp = self.importance
        rows = []
        for r in imp.itertuples(index=False):
            g = str(r.group)
            o = odds.loc[g] if g in odds.index else None
            nan = float("nan")
            rows.append(
                {
                    "group": g,
                    "feature": chosen.get(g, FEATURE_GROUPS[g][0]),
                    "odds_ratio": nan if o is None else float(o["odds_ratio"]),
                    "odds_low": nan if o is None else float(o["low"]),
                    "odds_high": nan if o is None else float(o["high"]),
                    "p_value_wald": nan if o is None else float(o["p_value_wald"]),
                    "auc_drop": float(r.auc_drop),
                    "drop_low": float(r.low),
                    "drop_high": float(r.high),
                }
            )
        return pd.DataFrame(rows)

    def summary(self) -> str:
        """How much of a loss the deal explains, in a sentence made of the numbers."""
        best = max(self.logistic_auc, self.trees_auc)
        share = next(words for bound, words in _SHARE if best < bound)
        return (
            f"For {self.player}, the deal explains {share} of a loss: on {self.n_test:,} "
            f"held-out deals a linear model on one feature per family reaches an AUC of "
            f"{self.logistic_auc:.2f} and gradient-boosted trees on all {self._n_features} "
            f"features {self.trees_auc:.2f} (0.5 is guessing, 1 foretells every loss), so "
            f"{self._verdict()}. {self._what_matters()}"
        )

    def what_matters_most(self) -> str | None:
        """The family that measurably matters most, or ``None`` when the intervals
        cannot tell: shuffling it costs the trees AUC (its 95 % interval above 0),
        and more than shuffling any other family (above the runner-up's interval)."""
        imp = self.importance
        top = imp.iloc[0]
        if not top["low"] > 0:
            return None
        if len(imp) > 1 and not top["low"] > imp["high"].iloc[1:].max():
            return None
        return str(top["group"])

    def _what_matters(self) -> str:
        top = self.importance.iloc[0]
        cost = (f"shuffling it costs the trees {fixed(top['auc_drop'], 3)} of AUC, 95 %: "
                f"{fixed(top['low'], 3)} to {fixed(top['high'], 3)}")  # fmt: skip
        if self.what_matters_most() is not None:
            return f"The family that matters most: {top['group']} ({cost})."
        if top["low"] > 0:
            group = str(top["group"])
            return (
                f"{group[:1].upper()}{group[1:]} matters ({cost}), but so much may another "
                f"family: on {self.n_test:,} held-out deals the intervals overlap, so which "
                f"family matters most, these deals cannot tell."
            )
        return (
            f"No family measurably matters on these {self.n_test:,} held-out deals: every "
            f"interval of what shuffling one costs the trees includes 0 (the largest, "
            f"{top['group']}: {cost})."
        )

    @property
    def _n_features(self) -> int:
        return int(self.importance["features"].sum())

    def _verdict(self) -> str:
        gap = self.trees_auc - self.logistic_auc
        if gap > 0.02:
            return "the trees find more than a straight line does: the effects bend or interact"
        return (
            "the trees find little more than the straight line: what these features say of "
            "a deal, the linear model already says, and the rest of a loss is not in them"
        )

    def __str__(self) -> str:
        shown = self.families
        lines = [self.summary(), "", "family (its feature in the line): odds of losing per SD "
                 "more, 95 %; AUC the trees lose when it is shuffled, 95 %"]  # fmt: skip
        for r in shown.itertuples(index=False):
            line = "dropped" if math.isnan(r.odds_ratio) else (
                f"{r.odds_ratio:.2f} ({r.odds_low:.2f}–{r.odds_high:.2f})")  # fmt: skip
            lines.append(f"  {r.group} ({r.feature}): {line}; "
                         f"{r.auc_drop:.3f} ({r.drop_low:.3f}–{r.drop_high:.3f})")  # fmt: skip
        return "\n".join([*lines, *self.line.notes])

    def __repr__(self) -> str:
        return (
            f"LossPredictors(player={self.player!r}, variant={self.variant!r}, "
            f"logistic_auc={self.logistic_auc:.3f}, trees_auc={self.trees_auc:.3f}, "
            f"strongest={self.strongest!r})"
        )


def loss_predictors(
    table: pd.DataFrame,
    player: str,
    *,
    variant: str | None = None,
    features: Sequence[str] | None = None,
    test_size: float = 0.3,
    seed: int = 0,
    repeats: int = 10,
) -> LossPredictors:
    """Ask what predicts ``player``'s losses twice, on one split of the
    player's resolved deals (:func:`~bakers_lab.study.stats.held_out_split`:
    ``test_size``, ``seed``): the logistic model
    (:func:`~bakers_lab.study.stats.logistic_model`) on ``features``, at most one
    feature per family (default: :func:`representatives`), and scikit-learn's
    ``HistGradientBoostingClassifier`` (its defaults, ``random_state=seed``) on
    every feature the table has; then shuffle each family of
    :data:`FEATURE_GROUPS` among the held-out deals ``repeats`` times and
    measure the trees' loss of AUC.  ``bl.loss_model`` is this function.

    >>> from bakers_lab.files.datadir import shipped_table
    >>> from bakers_lab.study.claims import load_surveys
    >>> t = load_surveys(shipped_table())
    >>> few = t[(t["variant"] == "bakers_dozen") & (t["deal"].astype(int) <= 2000)]
    >>> found = loss_predictors(few, "careful", repeats=3)
    >>> found.n_test, found.strongest, round(found.logistic_auc, 2)
    (600, 'Aces buried', 0.62)
    """
    from sklearn.ensemble import HistGradientBoostingClassifier

    groups = check_loss_table(table, "loss_predictors", features)
    every = [f for members in groups.values() for f in members]
    rows, vname = variant_rows(table, variant, None)
    player = choose(rows, "player", player, f" for variant {vname!r}")
    repeats = as_int(repeats, "repeats", low=2, high=1000)
    line_features = _one_per_family(rows, features)
    what = f"player {player!r}, variant {vname!r}"
    mine, train_idx, test_idx, lost = held_out_split(rows, player, what, test_size, seed)
    seed = as_int(seed, "seed", low=0)
    linear = logistic_model(rows, player, features=line_features, test_size=test_size,
                            seed=seed)  # fmt: skip
    x = mine[every].to_numpy(dtype=np.float64)
    trees = HistGradientBoostingClassifier(random_state=seed)
    trees.fit(x[train_idx], lost[train_idx])
    x_test, y_test = x[test_idx], lost[test_idx]
    base = rank_auc(_lost_scores(trees, x_test), y_test)
    rng = np.random.default_rng(seed)
    out = []
    for name, members in groups.items():
        cols = [every.index(f) for f in members]
        drops = []
        for _ in range(repeats):
            shuffled = x_test.copy()
            shuffled[:, cols] = x_test[rng.permutation(len(x_test))][:, cols]
            drops.append(base - rank_auc(_lost_scores(trees, shuffled), y_test))
        mean = float(np.mean(drops))
        half = 1.96 * float(np.std(drops, ddof=1)) / math.sqrt(repeats)
        out.append((name, len(members), mean, mean - half, mean + half))
    importance = pd.DataFrame(out, columns=["group", "features", "auc_drop", "low", "high"])
    importance = importance.sort_values("auc_drop", ascending=False, kind="stable")
    return LossPredictors(
        player, vname, len(train_idx), len(test_idx), float(linear.auc), float(base),
        importance.reset_index(drop=True), linear, repeats, seed,
    )  # fmt: skip


def check_loss_table(
    table: object, who: str, features: Sequence[str] | None
) -> dict[str, list[str]]:
    """``table`` checked for a loss model (:func:`loss_predictors`, ``bl.loss_model``:
    ``who``): a survey table whose ``features`` and every feature of
    :data:`FEATURE_GROUPS` it has are stored as numbers with no gap.  Returns those
    families and their features in the table."""
    if features is not None and (isinstance(features, str) or not isinstance(features, Sequence)):
        check_survey(table, who=who)
        raise ValueError(f"features must be a list of f_* column names, not {describe(features)}")
    columns = set(table.columns) if isinstance(table, pd.DataFrame) else set()
    groups = {
        name: [f for f in members if f in columns] for name, members in FEATURE_GROUPS.items()
    }
    groups = {name: members for name, members in groups.items() if members}
    checked_features(table, who, [*(features or ()), *(f for m in groups.values() for f in m)])
    if not groups:
        raise ValueError(f"{who}: table has none of the f_* features of FEATURE_GROUPS")
    return groups


def _one_per_family(rows: pd.DataFrame, features: Sequence[str] | None) -> list[str]:
    """The line's features: ``features`` checked (names of :data:`FEATURE_GROUPS`,
    at most one of a family), or each family's representative the table has."""
    if features is None:
        return representatives(rows)
    seen: dict[str, str] = {}
    for f in features:
        family = family_of(f)
        if family in seen and seen[family] != f:
            raise ValueError(
                f"features {seen[family]!r} and {f!r} are of one family ({family}); give at "
                "most one feature per family (their effects cannot be told apart)"
            )
        seen[family] = f
    return list(features)


def _lost_scores(model: object, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The model's probability of a loss for each row of ``x``."""
    proba = model.predict_proba(x)  # type: ignore[attr-defined]
    classes = list(model.classes_)  # type: ignore[attr-defined]
    return np.asarray(proba[:, classes.index(True)], dtype=np.float64)


def loss_model(
    table: pd.DataFrame,
    player: str,
    *,
    variant: str | None = None,
    features: Sequence[str] | None = None,
    test_size: float = 0.3,
    seed: int = 0,
    repeats: int = 10,
) -> LossPredictors:
    """What predicts ``player``'s losses: the loss model, the one the report,
    notebook 03 and the README show.  A thin alias, kept by this name, of
    :func:`bakers_lab.study.predict.loss_predictors` (same arguments, same result): a
    logistic model on one feature per family of near-duplicate features
    (``features``; default each family's representative), gradient-boosted
    trees on every feature beside it, both scored on the same held-out deals,
    and each family's importance with its 95 % interval.

    (Earlier versions fitted a logistic regression on every ``f_*`` column at
    once; those features are collinear, so its odds ratios meant nothing.  The
    straight line alone, on features you choose, is :func:`logistic_model`.)

    >>> from bakers_lab.files.datadir import shipped_table
    >>> from bakers_lab.study.claims import load_surveys
    >>> t = load_surveys(shipped_table())
    >>> few = t[(t["variant"] == "bakers_dozen") & (t["deal"].astype(int) <= 2000)]
    >>> loss_model(few, "careful", repeats=3).strongest
    'Aces buried'
    """
    check_loss_table(table, "loss_model", features)
    return loss_predictors(table, player, variant=variant, features=features,
                           test_size=test_size, seed=seed, repeats=repeats)  # fmt: skip
