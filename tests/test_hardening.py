# mypy: disable-error-code="arg-type, list-item, call-overload, misc, assignment, operator"
# (these tests pass values of the wrong type on purpose)
"""Issue 25, the second hardening audit: the reproducers of its bullets, class by class
(the concurrent writers and kill -9 are in test_hardening_processes.py).  Every message
is asserted whole: one line, the parameter named, the project's words."""

import json
import os
import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import bakers_lab as bl
from bakers_lab.cli import main
from bakers_lab.display.report import build_report, report_text
from bakers_lab.model.deals import GAME_NUMBERS
from bakers_lab.study.rating import ratings
from bakers_lab.study.survey import SurveyError, parse_deals

GAME = f"a game number is {GAME_NUMBERS}, not "


def cli_error(capsys, *argv):
    """The one error line of ``bakers-lab argv`` (exit code 2)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bakers-lab: error: "), err
    return lines[0].removeprefix("bakers-lab: error: ")


def cli_ok(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


# -- a small survey, made once -----------------------------------------------------------

SURVEY = {"deals": "1-12", "players": ("solver", "careful"), "chunk_size": 4, "max_nodes": 5000}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("made") / "s"
    bl.survey(SURVEY["deals"], players=SURVEY["players"], chunk_size=4, max_nodes=5000,
              out=out, progress=False)  # fmt: skip
    return out


@pytest.fixture
def folder(made, tmp_path):
    """A fresh copy of the small survey, to damage."""
    out = tmp_path / "s"
    shutil.copytree(made, out)
    return out


def resume(out):
    return bl.survey(SURVEY["deals"], players=SURVEY["players"], chunk_size=4, max_nodes=5000,
                     out=out, progress=False)  # fmt: skip


def rewrite(out, index, change):
    """Rewrite chunk ``index`` and its recorded checksum too (so the checks behind the
    checksum are what is tested; a chunk changed behind it: test_survey_inputs)."""
    from bakers_lab.files.table import file_digest, record_digest

    file = out / f"chunk-{index:06d}.parquet"
    change(pd.read_parquet(file)).to_parquet(file, index=False)
    record_digest(out / "_survey.json", index, file_digest(file))
    return file


RECOMPUTE = "delete it and run the survey again to recompute that chunk"


def refusal(read, folder):
    """The message of the SurveyError ``read(folder)`` raises."""
    with pytest.raises(SurveyError) as info:
        read(folder)
    return str(info.value)


def refused_alike(folder, message):
    """Reading the survey and resuming it both refuse ``folder`` with exactly ``message``."""
    for read in (bl.read_survey, resume):
        assert refusal(read, folder) == message


# -- 2. chunks checked against the manifest ------------------------------------------------


def test_a_stray_chunk_is_named(folder):
    shutil.copy(folder / "chunk-000000.parquet", folder / "chunk-000007.parquet")
    message = (
        f"{folder / 'chunk-000007.parquet'} is not one of this survey's 3 chunks "
        f"(chunk-000000.parquet to chunk-000002.parquet); it came from elsewhere: delete it"
    )
    refused_alike(folder, message)


def test_an_empty_directory_named_like_a_chunk_is_named(folder):
    (folder / "chunk-000001.parquet").unlink()
    (folder / "chunk-000001.parquet").mkdir()
    message = (
        f"{folder / 'chunk-000001.parquet'} is not a file (a directory named like a chunk?); "
        f"{RECOMPUTE}"
    )
    refused_alike(folder, message)


@pytest.mark.parametrize(
    "index, change, problem",
    [
        (2, lambda t: pd.DataFrame({"a": [1.0], "b": ["x"]}),
         "it lacks the column(s) deal, variant, player, outcome, moves, nodes, seconds, solution"),
        (1, lambda t: t.drop(columns="f_depth_aces"),
         "its columns differ from the other chunks' (f_depth_aces)"),
        (1, lambda t: t.assign(variant=pd.Categorical(["good_measure"] * len(t))),
         "it holds rows of good_measure, not bakers_dozen"),
        (2, lambda t: t.assign(outcome=pd.Categorical(["maybe"] * len(t))),
         "it holds an outcome 'maybe', not won, lost or unresolved"),
        (2, lambda t: t.assign(outcome=[None] * len(t)),
         "it holds an outcome None, not won, lost or unresolved"),
        (0, lambda t: t.assign(player=pd.Categorical(["greedy"] * len(t))),
         "it holds games of greedy, a player this survey does not have"),
    ],
)  # fmt: skip
def test_a_chunk_of_another_survey_is_named(folder, index, change, problem):
    file = rewrite(folder, index, change)
    message = f"{file} is not chunk {index} of this survey: {problem}; {RECOMPUTE}"
    refused_alike(folder, message)


def test_a_chunk_of_other_deals_is_found(folder):
    from bakers_lab.files.table import for_disk, upgrade

    rewrite(
        folder, 0, lambda t: for_disk(upgrade(t).assign(deal=[n + 100 for n in upgrade(t)["deal"]]))
    )
    assert refusal(bl.read_survey, folder) == (
        f"the chunks in {folder} hold other deals than its _survey.json was made for (their "
        f"digest differs); a chunk was replaced: run the survey again in a new directory"
    )
    assert refusal(resume, folder) == (  # a resuming survey knows each chunk's deals
        f"{folder / 'chunk-000000.parquet'} is not chunk 0 of this survey: it holds other deals "
        f"(101, 102, 103, ...) than the survey's (1, 2, 3, ...); {RECOMPUTE}"
    )


def test_a_missing_chunk_or_manifest_is_named(folder):
    (folder / "chunk-000002.parquet").unlink()
    assert refusal(bl.read_survey, folder) == (
        f"{folder / 'chunk-000002.parquet'} is missing: the survey in {folder} is not finished "
        f"(it has 2 of its 3 chunks); run it again to finish it"
    )
    assert len(resume(folder)) == 24  # a resuming survey computes it again
    (folder / "_survey.json").unlink()
    assert refusal(bl.read_survey, folder) == (
        f"{folder} holds chunk files but no _survey.json: not a survey bl.survey wrote "
        f"(pandas.read_parquet reads such files as they are)"
    )


# -- 3. names that lie -------------------------------------------------------------------


LIE = (
    "a Rules record named 'good_measure' that is not the preset good_measure "
    "(it differs in columns, cards_per_column, aces_at_start, pysolfc_id)"
)


def test_a_record_named_like_a_preset_takes_nothing_of_the_preset(tmp_path):
    liar = bl.Rules(name="good_measure")  # Baker's Dozen's 13 × 4 under another name
    for call in (lambda: bl.difficulty(5, variant=liar),
                 lambda: bl.pick(variant=liar, count=2, seed=0),
                 lambda: ratings(liar)):  # fmt: skip
        with pytest.raises(bl.DifficultyError) as info:
            call()
        assert str(info.value) == f"difficulties are rated for the presets only, not for {LIE}"
    with pytest.raises(SurveyError) as info:
        bl.survey("1-2", variant=liar, out=tmp_path / "s", progress=False)
    assert str(info.value) == (
        f"variant must be a preset or a Rules record with a name of its own, not {LIE}; "
        f"rename it (r.replace(name='my_rules', ...))"
    )
    assert not (tmp_path / "s").exists()
    returns = bl.Rules(name="bakers_dozen", foundation_return=True, pysolfc_id=31)
    with pytest.raises(SurveyError, match=r"differs in foundation_return\)"):
        bl.survey("1-2", variant=returns, out=tmp_path / "s", progress=False)
    # the same record under a name of its own is surveyed, and a true preset record too
    own = liar.replace(name="thirteen_by_four")
    assert bl.survey("1", variant=own, out=tmp_path / "o", progress=False)["variant"].tolist() == [
        "thirteen_by_four"
    ]
    assert bl.difficulty(5, variant=bl.rules("good_measure")).variant == "good_measure"


# -- 4. huge values ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda v: bl.deal(v), GAME + "{shown}"),
        (lambda v: bl.solve(5, max_nodes=v), "max_nodes must be an integer from 1 to "
         "1000000000000, not {shown}"),
        (lambda v: bl.survey("1", chunk_size=v, out="unused", progress=False),
         "chunk_size must be an integer from 1 to 1000000, not {shown}"),
        (lambda v: bl.survey("1", max_nodes=v, out="unused", progress=False),
         "max_nodes must be an integer from 1 to 1000000000000, not {shown}"),
        (lambda v: bl.Player("search", dial=v), "search-N takes N, the positions it considers "
         "before each move, from 1 to 1,000,000, not {shown}"),
        (lambda v: parse_deals([v]), GAME + "{shown}"),
    ],
)  # fmt: skip
@pytest.mark.parametrize(
    "value, shown",
    [
        (Decimal("1E+10000000"), "Decimal('1E+10000000') (Decimal)"),
        (10**5000, "an integer of about 5,001 digits"),
        (-(10**5000), "a negative integer of about 5,001 digits"),
        (Fraction(10**5000), "an integer of about 5,001 digits"),
        (10**40, "100000000000... (41 digits)"),
    ],
    ids=["Decimal", "10**5000", "-10**5000", "Fraction", "10**40"],
)
def test_huge_values_are_refused_at_once_and_never_printed_whole(call, message, value, shown):
    with pytest.raises(ValueError) as info:
        call(value)
    assert str(info.value) == message.format(shown=shown)


def test_huge_texts_are_quoted_short(capsys):
    big = "x" * 1_000_000
    for call, start in (
        (lambda: bl.rules(big), "unknown variant 'xxxxx"),
        (lambda: bl.Card.parse(big), "not a card: 'xxxx"),
        (lambda: bl.Move.parse(big), "not a move: 'xxxx"),
        (lambda: parse_deals(big), "bad deal range 'xxxx"),
        (lambda: bl.pick(big), "unknown difficulty 'xxxx"),
        (lambda: bl.Rules(tableau_build=big), "tableau_build must be one of"),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value).startswith(start) and len(str(info.value)) < 400
    assert cli_error(capsys, "solve", "5", "--max-nodes", "9" * 5000) == (
        "argument --max-nodes: must be an integer from 1 to 1000000000000, not "
        "999999999999999999999... (5,000 digits)"
    )
    assert cli_error(capsys, "survey", "--deals", "9" * 5000, "--out", "unused") == (
        GAME + "999999999999999999999... (5,000 digits)"
    )


# -- 5. Player records ---------------------------------------------------------------------


def test_player_records_and_names_are_checked_alike():
    for make, message in (
        (lambda: bl.Player("greedy", 3), "greedy has no look-ahead depth: depth must be 1, not 3 "
         "(only careful looks ahead: lookahead-K is Player('careful', K))"),
        (lambda: bl.Player("careful", off="traps"), "off is a tuple of tip names, not "
         "'traps' (str)"),
        (lambda: bl.Player("bogus"), "a player's policy is one of random, greedy, careful, "
         "search, undo, not 'bogus' (str)"),
        (lambda: bl.Player.parse("search-0300"), "say 'search-300', not 'search-0300': a "
         "player's number has no leading zeros"),
        (lambda: bl.Player.parse("lookahead-02-no_traps"), "say 'lookahead-2-no_traps', not "
         "'lookahead-02-no_traps': a player's number has no leading zeros"),
    ):  # fmt: skip
        with pytest.raises(bl.PlayerError) as info:
            make()
        assert str(info.value) == message
    for name in ("lookahead-٣", "search-²", "undo-\uff13", "careful\n", " careful", "CAREFUL"):
        with pytest.raises(bl.PlayerError, match=r"^unknown player .*; known: random, greedy"):
            bl.Player.parse(name)
    assert bl.Player.parse("undo-0").name == "undo-0"


# -- 6. statistics input -------------------------------------------------------------------


def test_statistics_refuse_what_is_not_a_survey_table(made):
    table = bl.read_survey(made)
    nan_outcome = table.assign(outcome=table["outcome"].astype(object))
    nan_outcome.loc[3, "outcome"] = float("nan")
    unknown = table.assign(outcome=table["outcome"].astype(str))
    unknown.loc[0, "outcome"] = "maybe"
    doubled = pd.concat([table, table], ignore_index=True)
    for bad, message in (
        (None, "table must be a survey DataFrame (bl.survey or bl.read_survey), not None "
         "(NoneType)"),
        (nan_outcome, "table has 1 row with no outcome"),
        (unknown, "table has 1 row with another outcome (the first: 'maybe' (str)); every "
         "outcome is won, lost or unresolved"),
        (doubled, "table repeats 24 (deal, variant, player) rows (the first: deal 1 of solver, "
         "bakers_dozen); a survey table has one row each (drop_duplicates)"),
    ):  # fmt: skip
        for who, call in (
            ("win_rates", bl.win_rates),
            ("ladder", lambda t: bl.ladder(t, ["careful", "solver"])),
        ):
            with pytest.raises(ValueError) as info:
                call(bad)
            assert str(info.value) == f"{who}: {message}"


def test_wilson_interval_takes_counts_and_a_positive_z_only():
    for args, message in (
        ((2.5, 10), "successes must be an integer, not 2.5 (float)"),
        ((True, 10), "successes must be an integer, not True (bool)"),
        ((11, 10), "successes must be an integer from 0 to trials (10), not 11"),
        ((1, float("nan")), "trials must be an integer, not nan (float)"),
        ((1, float("inf")), "trials must be an integer, not inf (float)"),
        ((1, -1), "trials must be an integer at least 0, not -1"),
        ((5, 10, -1.96), "z must be a positive number (1.96 for 95 %), not -1.96 (float)"),
        ((5, 10, 0), "z must be a positive number (1.96 for 95 %), not 0 (int)"),
        ((5, 10, float("nan")), "z must be a positive number (1.96 for 95 %), not nan (float)"),
        ((5, 10, "1.96"), "z must be a positive number (1.96 for 95 %), not '1.96' (str)"),
    ):
        with pytest.raises(ValueError) as info:
            bl.wilson_interval(*args)
        assert str(info.value) == message
    lo, hi = bl.wilson_interval(10**400 // 3, 10**400)
    assert lo == pytest.approx(1 / 3) and hi == pytest.approx(1 / 3) and lo <= 1 / 3 <= hi
    assert bl.wilson_interval(np.int64(3), np.int64(9)) == bl.wilson_interval(3, 9)


# -- 7. input files ------------------------------------------------------------------------


def test_input_files_are_read_with_care(capsys, tmp_path):
    board = bl.deal(5).to_text()
    png = tmp_path / "x.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"AD>F\x00")
    big = tmp_path / "big.txt"
    big.write_text("# x\n" * 300_000)
    for option, command in (("--board", ["solve"]), ("--moves", ["explain", "64"]),
                            ("--moves", ["hint", "5"])):  # fmt: skip
        assert cli_error(capsys, *command, option, "") == (
            f"{option} needs a file name (or - for standard input), not ''"
        )
        assert cli_error(capsys, *command, option, str(png)) == (
            f"{option} {png} is not UTF-8 text (byte 1 is 0x89); a board or a move list is "
            f"plain text"
        )
        assert cli_error(capsys, *command, option, str(nul)) == (
            f"{option} {nul} is not text (it holds NUL bytes); a board or a move list is plain text"
        )
        assert cli_error(capsys, *command, option, str(big)) == (
            f"{option} {big} holds more than 1 MiB; a board or a move list is a few kB of text"
        )
        assert cli_error(capsys, *command, option, str(tmp_path)) == (
            f"{option} {tmp_path}: a folder, not a file"
        )
    bom = tmp_path / "bom.txt"
    bom.write_text("\ufeff" + board, encoding="utf-8")
    assert "bakers_dozen board: solved" in cli_ok(capsys, "solve", "--board", str(bom))
    bom.write_text("\ufeffAD>F", encoding="utf-8")
    assert cli_ok(capsys, "hint", "1", "--moves", str(bom)).startswith("play ")
    assert bl.Deal.from_text("\ufeff" + board) == bl.deal(5)
    assert bl.explain(1, "\ufeffAD>F").deal == 1


def test_dev_zero_is_not_read_forever(tmp_path):
    import resource
    import subprocess
    import sys

    def limit():  # a runaway read fails at 2 GiB instead of eating the machine's memory
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    for args in (["solve", "--board", "/dev/zero"], ["explain", "1", "--moves", "/dev/zero"]):
        proc = subprocess.run([sys.executable, "-m", "bakers_lab.cli", *args],
                              capture_output=True, text=True, timeout=300,
                              preexec_fn=limit)  # fmt: skip
        assert proc.returncode == 2
        assert proc.stderr == f"bakers-lab: error: {args[-2]} /dev/zero: a device, not a file\n"


def test_special_files_are_refused_at_once(tmp_path):
    """A named pipe with no writer used to block open() for good; a socket and a
    device are refused the same way, before a byte is read."""
    import os
    import socket
    import subprocess
    import sys

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    try:
        for path, kind in ((fifo, "a named pipe"), (sock_path, "a socket"),
                           ("/dev/null", "a device")):  # fmt: skip
            for args in (
                ["solve", "--board"],
                ["explain", "4", "--moves"],
                ["hint", "5", "--moves"],
            ):
                proc = subprocess.run([sys.executable, "-m", "bakers_lab.cli", *args, str(path)],
                                      capture_output=True, text=True, timeout=300)  # fmt: skip
                assert (proc.returncode, proc.stderr) == (
                    2,
                    f"bakers-lab: error: {args[-1]} {path}: {kind}, not a file\n",
                )
    finally:
        server.close()


@pytest.mark.timeout(120)  # (a pipe waited on would hang: this ends it, failing)
def test_a_pipe_named_like_a_chunk_is_named_not_waited_on(tmp_path):
    # read_survey and a survey's last read (read_chunks, with a chunk's checksum on record)
    from bakers_lab.files.table import Layout, read_chunks, read_manifest, recorded_digests

    survey = tmp_path / "s"
    shutil.copytree(Path(__file__).parents[1] / "data" / "good_measure_greedy_1-2000", survey)
    chunk = survey / "chunk-000003.parquet"
    chunk.unlink()
    os.mkfifo(chunk)
    manifest = survey / "_survey.json"
    want = (
        f"{chunk} is not a file (a directory named like a chunk?); delete it and run the "
        f"survey again to recompute that chunk"
    )
    assert refusal(bl.read_survey, survey) == want
    recorded = recorded_digests(read_manifest(manifest))
    assert "000003" in recorded
    with pytest.raises(SurveyError) as info:
        read_chunks(survey, Layout.of(manifest), recorded)
    assert str(info.value) == want


# -- 8. digits -----------------------------------------------------------------------------


def test_ascii_digits_only(capsys):
    for spec in ("²", "١٢٣", "1-²", "\uff13", "+5", "1_000"):
        with pytest.raises(SurveyError) as info:
            parse_deals(spec)
        assert str(info.value) == (f"bad deal range {spec!r} (expected like 1-1000,5000-5999,417)")
    with pytest.raises(SurveyError) as info:
        parse_deals(range(1, 10**20))
    assert str(info.value) == (
        "99999999999999999999 deals is more than one survey takes (at most 10000000); "
        "split them into several surveys"
    )
    for text in ("+5", "1_000", " 7", "7 ", "٣", "²", "0x5"):
        for command in ("deal", "play", "difficulty", "hint"):
            assert cli_error(capsys, command, text) == f"argument N: {GAME}{text!r}"
        assert cli_error(capsys, "solve", "5", "--max-nodes", text) == (
            f"argument --max-nodes: must be an integer from 1 to 1000000000000, in digits 0-9, "
            f"not {text!r}"
        )
        assert cli_error(capsys, "pick", "--seed", text) == (
            f"argument --seed: must be an integer (0, 1, 2, ...), in digits 0-9, not {text!r}"
        )
    assert cli_error(capsys, "survey", "--deals", "1", "--jobs", "٣", "--out", "unused") == (
        "argument --jobs: must be an integer (1, 2, ... or -1: every core), in digits 0-9, not '٣'"
    )
    assert cli_error(capsys, "app", "--idle-minutes", "1_0") == (
        "argument --idle-minutes: minutes are a number from 1 to 1440, in digits 0-9, not '1_0'"
    )
    assert cli_error(capsys, "survey", "--deals", "²", "--out", "unused") == (
        "bad deal range '²' (expected like 1-1000,5000-5999,417)"
    )


# -- 9. wrong types deep inside ------------------------------------------------------------


def test_wrong_types_are_refused_at_the_entry():
    d = bl.deal(5)
    g = bl.GameState.from_deal(d)
    ace = bl.Card(1, 0)
    moves = ("moves must be move texts separated by spaces (like 'AD>F 5S>6D') or a list of "
             "Moves or move texts, not None (NoneType)")  # fmt: skip
    for call, error, message in (
        (lambda: bl.parse_moves(None), TypeError, moves),
        (lambda: bl.Deal(None, d.columns), bl.DealError, "a deal's rules must be a Rules "
         "record (like bl.rules('bakers_dozen')), not None (NoneType)"),
        (lambda: bl.Deal(d.rules, "abc"), bl.DealError, "columns must be a sequence of "
         "columns (each a sequence of Cards), not 'abc' (str)"),
        (lambda: bl.Deal(d.rules, d.columns, number="x"), bl.DealError, GAME + "'x' (str)"),
        (lambda: bl.Deal(d.rules, d.columns, number=-5), bl.DealError, GAME + "-5"),
        (lambda: bl.Deal(d.rules, d.columns, king_rule="swap"), bl.DealError,
         "king_rule must be 'pysolfc', 'stable' or None, not 'swap' (str)"),
        (lambda: bl.GameState("bakers_dozen", [list(c) for c in d.columns], [[]] * 4),
         TypeError, "a position's rules must be a Rules record (like bl.rules("
         "'bakers_dozen')), not 'bakers_dozen' (str)"),
        (lambda: g.is_legal(None), TypeError, "is_legal takes a Move or its text, not None "
         "(NoneType)"),
        (lambda: g.copy().play_all(None), TypeError, "play_all takes moves as text (like "
         "'AD>F 5S>6D') or a list of Moves or move texts, not None (NoneType)"),
        (lambda: bl.Move(ace, bl.Dest.FOUNDATION, 3), bl.MoveError, "a move's pile must be a "
         "Suit (like Suit.SPADES) or None, not 3 (int)"),
        (lambda: bl.SolveResult("bogus"), ValueError, "outcome must be one of solved, "
         "unsolvable, unresolved, not 'bogus' (str)"),
        (lambda: bl.SolveResult("solved", nodes=-1), ValueError, "nodes must be an integer at "
         "least 0, not -1"),
        (lambda: bl.Rules(tableau_build=np.array(["any_suit", "same_suit"])), bl.RulesError,
         "tableau_build must be one of any_suit, same_suit, alternate_colour; got "
         "array(['any_suit', 'same_suit'], dtype='<U9') (ndarray)"),
        (lambda: bl.deal_features(None), TypeError, "deal_features takes Deals (a list of "
         "them), not None (NoneType)"),
        (lambda: bl.deal_features([d], rules="x"), TypeError, "rules must be a Rules record "
         "or None, not 'x' (str)"),
    ):  # fmt: skip
        with pytest.raises(error) as info:
            call()
        assert str(info.value) == message
    assert len(bl.deal_features(d)) == 1  # one Deal: its row


# -- 10. reports ---------------------------------------------------------------------------


def test_a_survey_whose_solver_resolved_nothing_is_reported(tmp_path, capsys):
    out = tmp_path / "s"
    bl.survey("1-6", players=("solver", "careful", "greedy"), max_nodes=1, out=out,
              progress=False)  # fmt: skip
    text = report_text(out)
    assert "no comparison with solver in bakers_dozen: it resolved no deal" in text
    rates = build_report(out).rates.set_index("player")
    assert rates.loc["solver", "unresolved"] == 6 and rates.loc["careful", "deals"] == 6
    assert "careful" in cli_ok(capsys, "report", str(out))


def test_a_corrupt_manifest_is_named(folder, capsys):
    manifest = folder / "_survey.json"
    manifest.write_text("{not json", encoding="utf-8")
    message = (
        f"{manifest} is not a survey configuration (Expecting property name enclosed in "
        f"double quotes: line 1 column 2 (char 1)); choose another --out or delete that "
        f"directory"
    )
    for call in (build_report, bl.read_survey):
        with pytest.raises(SurveyError) as info:
            call(folder)
        assert str(info.value) == message
    assert cli_error(capsys, "report", str(folder)) == message
    manifest.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(SurveyError, match="holds list JSON, not a survey configuration"):
        build_report(folder)


# -- 11. one vocabulary --------------------------------------------------------------------


def test_every_function_that_takes_a_game_takes_a_deal():
    assert bl.difficulty(bl.deal(5)) == bl.difficulty(5)
    assert bl.difficulty(bl.deal(86, "good_measure")) == bl.difficulty(86, variant="good_measure")
    assert bl.difficulty(bl.GameState.from_deal(bl.deal(5))) == bl.difficulty(5)
    assert bl.pick(deals=[bl.deal(5), bl.deal(6)], count=2) == bl.pick(deals=[5, 6], count=2)
    for call, message in (
        (lambda: bl.difficulty(bl.deal(5), variant="good_measure"), "variant= is only for "
         "game numbers; this Deal carries its rules (bakers_dozen), not those of "
         "'good_measure'"),
        (lambda: bl.difficulty(bl.seeded_deal(5)), "difficulty rates PySolFC games by their "
         "game number; this Deal has none (seeded_deal(5, variant='bakers_dozen'))"),
        (lambda: bl.difficulty(bl.GameState.from_deal(bl.deal(1)).play_all("AD>F")),
         "difficulty rates a game from its start: this GameState is 1 moves in; give its "
         "Deal or its game number"),
        (lambda: bl.difficulty("5"), "difficulty takes a Deal, a GameState at its start or a "
         "game number, not '5' (str)"),
    ):  # fmt: skip
        with pytest.raises(bl.DifficultyError) as info:
            call()
        assert str(info.value) == message


# -- 12. smaller ---------------------------------------------------------------------------


def test_smaller_holes(capsys, tmp_path, monkeypatch):
    with pytest.raises(bl.DifficultyError) as info:
        bl.pick(deals=range(1, 10**7))
    assert str(info.value) == (
        "more than 2,000 of these deals are not in the shipped ratings of bakers_dozen and "
        "would be rated on the spot (about 0.1 s each); give fewer, or survey them "
        "(bakers-lab survey) and rate the survey"
    )
    with pytest.raises(SurveyError) as info:
        bl.survey("1", out="a\x00b", progress=False)
    assert str(info.value) == (
        "out must be a directory path, which holds no NUL character, not 'a\\x00b' (str)"
    )
    with pytest.raises(TypeError) as info:
        bl.hint("4")
    assert str(info.value) == "hint takes a Deal, a GameState or a game number, not '4' (str)"
    monkeypatch.chdir(tmp_path)
    assert cli_error(capsys, "survey", "--deals", "1", "--out", "a\x00b") == (
        "out must be a directory path, which holds no NUL character, not 'a\\x00b' (str)"
    )
    assert list(Path(tmp_path).iterdir()) == []


def test_every_result_record_checks_its_fields_with_one_checker():
    from bakers_lab.solve.players import GameRecord
    from bakers_lab.solve.shortest import ShortestResult

    game = dict(player="careful", outcome="won", moves=(), nodes=0, seconds=0.0,
                variant="bakers_dozen")  # fmt: skip
    for make in (
        lambda s: bl.SolveResult("unresolved", seconds=s),
        lambda s: ShortestResult("unresolved", seconds=s),
        lambda s: GameRecord(**{**game, "seconds": s}),
    ):
        for bad, shown in ((float("nan"), "nan (float)"), (-1, "-1 (int)"), (True, "True (bool)")):
            with pytest.raises(ValueError) as e:
                make(bad)
            assert str(e.value) == f"seconds must be a number from 0 to 1,000,000,000, not {shown}"
    with pytest.raises(
        ValueError, match=r"^ended must be one of home, stuck, patience, cap, not 'x'"
    ):
        GameRecord(**{**game, "ended": "x"})
    with pytest.raises(ValueError, match=r"^outcome must be one of won, lost, not 'solved' "):
        GameRecord(**{**game, "outcome": "solved"})


def test_the_clis_node_budget_is_the_librarys():
    from bakers_lab import cli
    from bakers_lab.solve.fast import MAX_NODES

    assert cli.MAX_NODES == MAX_NODES


def test_a_survey_rows_solution_is_moves_or_refused_in_one_line():
    row = pd.Series({"deal": 4, "variant": "bakers_dozen", "solution": ["AD>F"]})
    with pytest.raises(bl.ExplainError, match=r"^move 1 of 1, AD>F, is illegal there"):
        bl.explain(row, max_nodes=1000)  # a list of moves is read as the moves, not as none
    for bad, shown in ((5, "5 (int)"), (pd.Series([1, 2]), "a Series of 2 values")):
        with pytest.raises(ValueError) as e:
            bl.explain(pd.Series({**row.to_dict(), "solution": bad}), max_nodes=1000)
        assert str(e.value) == (
            "a survey row's solution is its moves as text ('AD>F 5S>6D ...') or a list of "
            f"moves, not {shown}"
        )
    with pytest.raises(TypeError) as e:  # a message never prints a table
        bl.explain(4, pd.Series(range(100)))
    assert str(e.value).endswith("not a Series of 100 values")


# -- files written for a user: never through a link, whole or not at all (issue 51) ------


@pytest.mark.parametrize("command", ["notebooks", "exercises"])
@pytest.mark.parametrize("dangling", [True, False])
def test_a_notebook_is_never_written_through_a_link(capsys, tmp_path, command, dangling):
    folder = tmp_path / "class"
    folder.mkdir()
    pointee = tmp_path / "secret.txt"
    if not dangling:
        pointee.write_text("keep me")
    name = "05_exercises.ipynb" if command == "exercises" else "01_replay.ipynb"
    (folder / name).symlink_to(pointee)
    argv = [command, str(folder)] if command == "notebooks" else [command, "--out", str(folder)]
    for extra in ([], ["--force"]):
        line = cli_error(capsys, *argv, *extra)
        assert "is a symbolic link" in line or "as a symbolic link" in line, line
        assert (folder / name).is_symlink()
        assert pointee.exists() != dangling and (dangling or pointee.read_text() == "keep me")
    assert sorted(p.name for p in folder.iterdir()) == [name]  # nothing else written


def test_a_full_disk_leaves_the_old_notebook_whole(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "class"
    cli_ok(capsys, "exercises", "--out", str(folder))
    before = (folder / "05_exercises.ipynb").read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        from bakers_lab.teach.exercises import write_exercises

        write_exercises(folder, force=True)
    assert (folder / "05_exercises.ipynb").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["05_exercises.ipynb"]  # no .tmp
