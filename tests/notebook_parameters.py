"""The notebooks' small parameters: what tests/test_notebooks.py runs them with, and what
the manual (docs/_ext/generate.py) runs them with when it is built.  No test imports here,
so the manual's build can read it too."""

from __future__ import annotations


def small_parameters() -> dict[str, str]:
    """Source of each notebook's ``parameters`` cell, by file name.  The win-rate and loss
    notebooks read the compact outcome table the package ships (what a pip install reads:
    they give the same answers from it, read in a second, not ten), named by the function
    that finds it, not by a path of this machine (the manual shows the cell)."""
    data = "shipped_table()  # the compact outcome table the package ships"
    find = "from bakers_lab.files.datadir import shipped_table\n\n"
    return {
        "01_replay.ipynb": "GAME = 5\nVARIANT = 'bakers_dozen'\nPLAYER = 'careful'",
        "02_win_rates.ipynb": (
            f"{find}DATA = {data}\nVARIANT = 'bakers_dozen'\nFRESH_DEALS = '1-10'\n"
            "FRESH_PLAYERS = 'solver,greedy,careful'"
        ),
        "03_loss_predictors.ipynb": (  # one player's two models instead of two players'
            f"{find}DATA = {data}\nVARIANT = 'bakers_dozen'\nPLAYER = 'careful'\n"
            "COMPARE = ['careful']\nSHUFFLES = 3\nHARDEST = 1\nFIND_LOSS = False"
        ),
        "04_search_algorithms.ipynb": (
            "DECK = 'tiny'\nDEALS = 10\nSEED = 0\nMAX_NODES = 20_000\nFULL_GAME = 1"
        ),
    }
