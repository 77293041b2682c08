"""The claims table and the survey report: verdicts follow the numbers, the command prints
the library's table (the manual's claims page is made from it: tests/docs), the report
reads a survey and stands alone as HTML."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from inprocess import run_cli

import bakers_lab as bl
from bakers_lab.display.report import build_report, report_html, report_text
from bakers_lab.files.datadir import shipped_table
from bakers_lab.study.claims import CLAIMS, claims_table, format_claims

ROOT = Path(__file__).resolve().parent.parent


def synthetic(rates: dict[tuple[str, str], float], deals: int = 1000) -> pd.DataFrame:
    """A survey table where each (variant, player) wins exactly ``rate`` of the deals;
    wins are nested (a stronger player wins every deal a weaker one wins), so paired
    comparisons have discordant pairs in one direction only."""
    rows = []
    order = np.random.default_rng(0).permutation(deals) + 1
    for (variant, player), rate in rates.items():
        won = set(order[: round(rate * deals)].tolist())
        for n in range(1, deals + 1):
            rows.append((n, variant, player, "won" if n in won else "lost"))
    table = pd.DataFrame(rows, columns=["deal", "variant", "player", "outcome"])
    table["outcome"] = pd.Categorical(table["outcome"], categories=["won", "lost", "unresolved"])
    return table


RATES = {
    ("bakers_dozen", "solver"): 0.998,
    ("bakers_dozen", "random"): 0.01,
    ("bakers_dozen", "greedy"): 0.05,
    ("bakers_dozen", "careful"): 0.45,
    ("bakers_dozen", "lookahead-2"): 0.50,
    ("bakers_dozen", "lookahead-3"): 0.62,
    ("bakers_dozen", "careful-no_low_cards"): 0.449,
    ("bakers_dozen", "careful-no_space"): 0.33,
    ("bakers_dozen", "careful-no_traps"): 0.10,
    ("bakers_dozen_return", "careful"): 0.50,
    ("bakers_dozen_return", "solver"): 0.99,
    ("spanish_patience", "careful"): 0.05,
    ("spanish_patience", "lookahead-2"): 0.06,
    ("house_empty_any", "careful"): 0.47,
    ("house_empty_any", "lookahead-2"): 0.52,
    ("house_sequences", "careful"): 0.70,
    ("house_sequences", "lookahead-2"): 0.75,
}


@pytest.fixture(scope="module")
def claims() -> pd.DataFrame:
    return claims_table(synthetic(RATES)).set_index("claim")


def verdict(claims: pd.DataFrame, key: str) -> str:
    claim = next(c for c in CLAIMS if c.key == key)
    return str(claims.loc[claim.claim, "verdict"])


def test_rate_claims_place_the_claim_on_the_ladder(claims):
    assert verdict(claims, "careful_75_80") == (
        "75–80 % is above every player of the ladder (the best, lookahead-3, wins 62.0 %); "
        "not about solvability: 99.8 % of deals can be won"
    )
    assert verdict(claims, "return_50") == (
        "48–52 % fits careful on the ladder; not about solvability: 99.0 % of deals can be won"
    )
    # the solver is the ceiling, never the player a claim about players fits
    assert verdict(claims, "good_nearly_always") == (
        "95–100 % is above every player of the ladder (the best, lookahead-3, wins 62.0 %); "
        "perfect play (the solver, 99.8 %) is the ceiling, not a player"
    )


def test_variant_claims_follow_the_paired_tests(claims):
    assert verdict(claims, "spanish_harder") == (
        "Supported for careful, lookahead-2 (p < 0.01, at least 10 points)"
    )
    # 2 and 2 points more: real (p < 0.01 with 1000 nested pairs) but not "considerably"
    assert verdict(claims, "house_empty_any_easier").startswith("Partly: the difference is real")
    assert verdict(claims, "house_sequences_easier") == (
        "Supported for careful, lookahead-2 (p < 0.01, at least 10 points)"
    )


def test_weaker_players_that_disagree_are_a_note_not_the_verdict():
    rates = {**RATES, ("spanish_patience", "greedy"): 0.30}  # greedy: 5 % on bakers_dozen
    table = claims_table(synthetic(rates)).set_index("claim")
    assert verdict(table, "spanish_harder") == (
        "Supported for careful, lookahead-2 (p < 0.01, at least 10 points). Note: greedy, "
        "weaker than a person plays, did the opposite (judged on careful and stronger players "
        "only)"
    )


def test_an_effect_whose_interval_excludes_zero_is_named():
    # careful wins deals 1-450; without the tip 1-420 and 451-464: 30 against 14 discordant
    rows = [(n, "bakers_dozen", p, "won" if won else "lost")
            for n in range(1, 1001)
            for p, won in (("careful", n <= 450),
                           ("careful-no_low_cards", n <= 420 or 450 < n <= 464))]  # fmt: skip
    table = claims_table(pd.DataFrame(rows, columns=["deal", "variant", "player", "outcome"]))
    assert table.set_index("claim")["verdict"][CLAIMS[10].claim] == (
        "A small effect, short of the 1 % level used for every claim: without it careful wins "
        "1.6 points less (-2.9 to -0.3; p = 0.023)"
    )


def test_tip_claims_follow_the_ablation(claims):
    assert verdict(claims, "tip_low_cards") == (
        "No measurable effect for careful (p = 1.00; the 95 % interval -0.4 to +0.2 points "
        "includes no change)"
    )
    assert verdict(claims, "tip_space") == "Helps: without it careful wins 12.0 points less"
    assert verdict(claims, "tip_traps") == "Helps: without it careful wins 35.0 points less"
    assert verdict(claims, "tip_plan_ahead") == (
        "Supported: every deeper look-ahead wins more (p < 0.01)"
    )


def test_missing_surveys_are_said_not_guessed():
    table = claims_table(synthetic({("bakers_dozen", "solver"): 0.99}))
    untested = table[table["verdict"] == "not tested"]
    assert len(table) == len(CLAIMS) == 13
    assert set(untested["evidence"]) >= {"no survey of this variant", "no careful-no_space survey"}


def test_every_listed_claim_is_covered():
    keys = {c.key for c in CLAIMS}
    assert keys >= {"careful_75_80", "return_50", "spanish_harder", "house_empty_any_easier",
                    "house_sequences_easier", "tip_plan_ahead", "tip_low_cards", "tip_space",
                    "tip_traps"}  # fmt: skip
    assert {c.source for c in CLAIMS} >= {"seeds 000, 004", "seed 003"}


@pytest.fixture(scope="module")
def shipped_claims() -> str:
    """The claims table of the shipped data, as ``bakers-lab claims --markdown`` prints it
    (worked out once for the tests below), from the compact table: the claims of the full
    data/ are the same (tests/test_packaging.py), and read in a second instead of ten."""
    return format_claims(claims_table(shipped_table()), markdown=True)


def test_cli_claims_matches_the_library(tmp_path, shipped_claims):
    # from the compact table, read in a second (the same claims as data/ gives:
    # tests/test_packaging.py; which data the command finds: find_data's tests there)
    proc = run_cli("claims", "--markdown", "--data", shipped_table())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shipped_claims
    bad = run_cli("claims", "--data", tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        f"bakers-lab: error: no surveys in {tmp_path}: no subdirectory holds a _survey.json"
    ]


@pytest.fixture(scope="module")
def small_survey(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "s"
    bl.survey("1-60", players="solver,greedy,careful,lookahead-2", out=out, progress=False)
    return out


def test_report_text(small_survey):
    text = report_text(small_survey)
    lines = text.splitlines()
    assert lines[0] == (
        "Survey s: Baker's Dozen; players greedy, careful, lookahead-2, solver; 60 deals"
    )
    rates = bl.win_rates(bl.read_survey(small_survey)).set_index("player")
    for player in ("solver", "greedy", "careful", "lookahead-2"):
        row = next(line for line in lines if line.split()[:1] == [player])
        assert f"{100 * rates.loc[player, 'rate']:.1f} %" in row
    assert "Adjacent players on the same deals" in text
    for a, b in (("greedy", "careful"), ("careful", "lookahead-2"), ("lookahead-2", "solver")):
        assert re.search(rf"^\s*{a}\s+{b}\s+60 ", text, re.M), (a, b)
    # the header printed a dict of every chunk's SHA-256 (issue 52): the program's, not words
    assert "sha256" not in text and "{'" not in text
    assert "sha256" not in report_html(build_report(small_survey))


def test_report_html_stands_alone(small_survey, tmp_path):
    rep = build_report(small_survey)
    page = report_html(rep)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    images = re.findall(r'<img alt="chart" src="data:image/png;base64,', page)
    # win rates, look-ahead, solver effort; per loss model its importance chart, and the
    # win rate by each strongest family's feature
    # a family is charted only where its interval says it matters most
    charted = {(m.variant, m.strongest_feature()) for m in rep.models if m.what_matters_most()}
    assert len(images) == 3 + len(rep.models) + len(charted)
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing fetched from a network
    assert page.count("<svg") >= 1  # the hardest deals' boards


def test_cli_report(small_survey, tmp_path):
    out = tmp_path / "r.html"
    proc = run_cli("report", small_survey, "--html", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1] == f"report written to {out}"
    assert out.read_text().startswith("<!DOCTYPE html>")
    for target in (tmp_path / "none", tmp_path):
        bad = run_cli("report", target)
        assert bad.returncode == 2
        [line] = bad.stderr.strip().splitlines()
        assert line.startswith(f"bakers-lab: error: no survey in {target}: it ")


def test_contents_says_what_the_surveys_hold_in_a_narrow_table():
    from bakers_lab.study.claims import contents

    t = pd.DataFrame(
        {
            "variant": ["bakers_dozen"] * 5 + ["good_measure"],
            "deal": [1, 2, 1, 2, 1, 1],
            "player": ["solver", "solver", "careful", "careful", "undo-3", "solver"],
        }
    )
    assert contents(t).to_dict("records") == [
        {"variant": "bakers_dozen", "deals": 2, "players": "solver, careful"},
        {"variant": "bakers_dozen", "deals": 1, "players": "undo-3"},
        {"variant": "good_measure", "deals": 1, "players": "solver"},
    ]
    with pytest.raises(
        ValueError, match=r"^contents takes a table of surveys, not None \(NoneType\)$"
    ):
        contents(None)
    words = r"with variant and player columns, not one with columns x$"
    with pytest.raises(ValueError, match=words):
        contents(pd.DataFrame({"x": [1]}))


def test_par_is_a_column_never_a_player():
    from bakers_lab.study.claims import load_surveys

    surveys = load_surveys(shipped_table())
    assert "shortest" not in set(surveys["player"])
    bd = surveys[surveys["variant"] == "bakers_dozen"]
    assert "shortest" not in set(bl.win_rates(bd)["player"])
    # par stays: deal 1's par (67, proven) beside every player's game of it
    one = bd[bd["deal"] == 1]
    assert set(one["par"]) == {67} and set(one["par_bound"]) == {67}
    assert len(one) == one["player"].nunique() > 5
    # the par chart reads par from the column
    from bakers_lab.study.par import pars

    assert len(pars(bd)) == 998  # deals 1-1000 but the two unsolvable: no par, no bound


def test_claims_take_a_table_or_a_folder_and_a_player_that_resolved_nothing_has_no_rate():
    with pytest.raises(ValueError) as info:
        claims_table(5)
    assert str(info.value) == (
        "claims_table: data must be a survey DataFrame (bl.survey or bl.read_survey) or a data "
        "folder's path, not 5 (int)"
    )
    deals = list(range(1, 41))
    t = pd.DataFrame({
        "deal": deals * 2, "variant": "bakers_dozen",
        "player": ["careful"] * 40 + ["greedy"] * 40,
        "outcome": ["unresolved"] * 40 + ["won" if d % 10 else "lost" for d in deals],
    })  # fmt: skip
    row = claims_table(t).set_index("claim").loc["won about 75–80 % of the time with careful play"]
    assert (
        row["evidence"]
        == "greedy 90.0 % (76.9–96.0 %, n = 40); careful resolved none of its 40 games"
    )
    assert "careful" not in row["verdict"] and "nan" not in row["verdict"]


def test_claims_refuse_a_dial_name_that_is_no_setting_rather_than_leave_it_off():
    deals = list(range(1, 41))
    t = pd.DataFrame({
        "deal": deals * 2, "variant": "bakers_dozen",
        "player": ["careful"] * 40 + ["search-0100"] * 40,
        "outcome": ["won" if d % 2 else "lost" for d in deals] * 2,
    })  # fmt: skip
    with pytest.raises(ValueError) as info:
        claims_table(t)
    assert str(info.value) == (
        "claims_table: the player search-0100 is not a setting of the search dial; a "
        "search-N player has N from 1 to 1,000,000 (positions it considers before each "
        "move), written without leading zeros, like search-300"
    )
