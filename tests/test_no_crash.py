"""No input may kill the process: random rule shapes and random board texts go to
``bl.solve`` and ``bl.play`` in a child process, which must exit normally every time.

A crash in the compiled core (a segfault, as 52 one-card columns once caused) kills
the interpreter, so the cases run in a subprocess and the test reads its exit code.
Hypothesis draws batches of cases; each batch is one subprocess (importing numba's
cached core costs about a second), so a batch is large and there are few of them.
"""

import json
import random
import subprocess
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bakers_lab as bl

CHILD = r"""
import json, sys
import bakers_lab as bl

report = {"solved": 0, "unsolvable": 0, "unresolved": 0, "refused": 0, "played": 0,
          "other": []}
for case in json.loads(sys.stdin.read()):
    try:
        rules = bl.Rules(**case["rules"])
        if case["kind"] == "deal":
            position = bl.seeded_deal(case["seed"], variant=rules)
        else:
            position = bl.GameState.from_text(case["text"], variant=rules)
        result = bl.solve(position, max_nodes=case["max_nodes"])
        report[result.outcome] += 1
        if result.outcome == "solved" and not result.verified:
            report["other"].append(["unverified", case])
        game = bl.play(position, case["player"], max_moves=200)
        report["played"] += 1
        if not game.verified:
            report["other"].append(["unverified game", case])
    except ValueError:  # a clear refusal (RulesError, DealError, BoardTextError, ...)
        report["refused"] += 1
    except Exception as exc:  # anything else is a hole: report it
        report["other"].append([type(exc).__name__, str(exc)[:200], case])
print(json.dumps(report))
"""


def _shapes() -> list[tuple[int, int, int, int]]:
    """Every (ranks, columns, cards_per_column, aces_at_start) that Rules accepts."""
    out = []
    for ranks in range(2, 14):
        for aces in range(5):
            dealt = 4 * ranks - aces
            for columns in range(1, min(52, dealt) + 1):
                if dealt % columns == 0:
                    out.append((ranks, columns, dealt // columns, aces))
    return out


SHAPES = _shapes()

rules_fields = st.fixed_dictionaries(
    {
        "king_step": st.booleans(),
        "tableau_build": st.sampled_from(["any_suit", "same_suit", "alternate_colour"]),
        "empty_column": st.sampled_from(["none", "king", "any"]),
        "move_unit": st.sampled_from(["card", "sequence"]),
        "foundation_build": st.sampled_from(["same_suit", "alternate_colour"]),
        "foundation_return": st.booleans(),
    }
)


@st.composite
def cases(draw: st.DrawFn) -> dict[str, object]:
    ranks, columns, per_column, aces = draw(st.sampled_from(SHAPES))
    fields = dict(draw(rules_fields), ranks=ranks, columns=columns)
    fields.update(cards_per_column=per_column, aces_at_start=aces)
    max_nodes = draw(st.integers(1, 3_000))
    player = draw(st.sampled_from(["random", "greedy", "careful", "lookahead-2"]))
    if draw(st.booleans()):
        return {"kind": "deal", "rules": fields, "seed": draw(st.integers(0, 2**64 - 1)),
                "max_nodes": max_nodes, "player": player}  # fmt: skip
    # a random position as board text: foundation heights, the rest dealt into columns
    # of random lengths, then sometimes damaged (a card dropped, doubled or garbled)
    rng = random.Random(draw(st.integers(0, 2**32)))
    heights = [draw(st.integers(0, ranks)) for _ in range(4)]
    if fields["foundation_build"] == "alternate_colour":
        heights = [min(h, 1) for h in heights]
    rest = [bl.Card(r, s) for s in bl.Suit for r in range(heights[s] + 1, ranks + 1)]
    rng.shuffle(rest)
    cuts = sorted(rng.randint(0, len(rest)) for _ in range(columns - 1))
    cols = [rest[a:b] for a, b in zip([0, *cuts], [*cuts, len(rest)], strict=True)]
    lines = [" ".join(map(str, c)) if c else ":" for c in cols]
    damage = draw(st.sampled_from(["none", "none", "drop", "double", "garble", "extra column"]))
    if damage == "drop" and rest:
        lines = [line.replace(str(rest[0]), "", 1) for line in lines]
    elif damage == "double" and rest:
        lines[0] += " " + str(rest[0])
    elif damage == "garble":
        lines[rng.randrange(len(lines))] += " " + draw(st.sampled_from(["1X", "ZZ", "10", "♠"]))
    elif damage == "extra column":
        lines.append(":")
    found = " ".join(f"{'HCDS'[k]}-{'0A23456789TJQK'[heights['CSHD'.index('HCDS'[k])]]}"
                     for k in range(4))  # fmt: skip
    text = f"Foundations: {found}\n" + "\n".join(lines) + "\n"
    return {"kind": "text", "rules": fields, "text": text, "max_nodes": max_nodes, "player": player}


def run_batch(batch: list[dict[str, object]]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps(batch),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"child died with code {proc.returncode}: {proc.stderr[-800:]}"
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def test_the_52_one_card_columns_that_crashed_now_solve():
    one_card = {"columns": 52, "cards_per_column": 1}
    report = run_batch(
        [
            {"kind": "deal", "rules": one_card, "seed": s, "max_nodes": 50_000, "player": p}
            for s, p in enumerate(["random", "greedy", "careful", "lookahead-2", "lookahead-3"])
        ]
    )
    assert report["other"] == [] and report["refused"] == 0 and report["played"] == 5
    assert report["solved"] + report["unsolvable"] + report["unresolved"] == 5


@settings(
    max_examples=4,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(cases(), min_size=60, max_size=60))
def test_random_rules_and_boards_never_kill_the_solver(batch):
    report = run_batch(batch)
    assert report["other"] == []
    counts = [report[k] for k in ("solved", "unsolvable", "unresolved", "refused")]
    assert sum(counts) == len(batch), counts
    assert report["played"] == len(batch) - report["refused"]
