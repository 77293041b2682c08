import json
import subprocess
import sys

import bakers_lab as bl
from bakers_lab.cli import main


def test_deal_text(capsys):
    assert main(["deal", "417"]) == 0
    assert capsys.readouterr().out == bl.deal(417).to_text()


def test_deal_json(capsys):
    assert main(["deal", "86", "--variant", "good_measure", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    d = bl.deal(86, variant="good_measure")
    assert data["deal"] == 86 and data["variant"] == "good_measure"
    assert data["columns"] == [[str(c) for c in col] for col in d.columns]
    assert sum(len(p) for p in data["foundations"].values()) == 2


def test_unknown_variant_is_one_line_exit_2(capsys):
    assert main(["deal", "1", "--variant", "klondike"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bakers-lab: error: unknown variant 'klondike'; known: bakers_dozen")
    assert err.count("\n") == 1


def test_bad_number_exit_2(capsys):
    assert main(["deal", "0"]) == 2
    assert "PySolFC game numbers run from 1" in capsys.readouterr().err


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "bakers_lab.cli", "deal", "1"],
                         capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[0] == "6H JH 5C AD"


def test_argparse_errors_are_one_line():
    proc = subprocess.run([sys.executable, "-m", "bakers_lab.cli", "deal", "x"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "bakers-lab: error: argument N: invalid int value: 'x'"]
