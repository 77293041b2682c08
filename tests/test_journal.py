"""The app's journal of games (bakers_lab.files.journal): kept exactly, written atomically, read
with an allow-list, and nothing written when it is switched off."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]
import pytest

from bakers_lab.files.journal import (
    JOURNAL_ENV,
    SCHEMA,
    Entry,
    Journal,
    JournalError,
    counts,
    default_path,
)

BIG = 12345678901234567890  # a 20-digit PySolFC game number: more than an int64 holds


def entries() -> list[Entry]:
    start = pd.Timestamp("2026-12-01 10:00:00", tz="UTC")
    return [
        Entry.finished(1, "bakers_dozen", "AD>F 2D>F", "won", started=start),
        Entry.finished(BIG, "good_measure", ["AH>F"], "lost", source="pysolfc"),
        Entry.finished(4, "bakers_dozen", "", "given_up"),
    ]


def test_round_trip_keeps_every_value(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.parquet")
    assert len(j.read()) == 0 and list(j.read().columns) == [*SCHEMA.names, "won", "n_moves"]
    for e in entries():
        j.add(e)
    t = j.read()
    assert t["deal"].tolist() == [1, BIG, 4] and type(t.loc[1, "deal"]) is int
    assert t["variant"].tolist() == ["bakers_dozen", "good_measure", "bakers_dozen"]
    assert t["result"].tolist() == ["won", "lost", "given_up"]
    assert t["won"].tolist() == [True, False, False]
    assert t["n_moves"].tolist() == [2, 1, 0]
    assert t["moves"].tolist() == ["AD>F 2D>F", "AH>F", ""]
    assert t["source"].tolist() == ["app", "pysolfc", "app"]
    assert t.loc[0, "started"] == pd.Timestamp("2026-12-01 10:00:00", tz="UTC")
    assert len(set(t["id"])) == 3  # each game its own key
    assert counts(t) == {"won": 1, "lost": 1, "stuck": 0, "given_up": 1}
    assert j.games().to_dict("records")[1] == {
        "deal": BIG, "variant": "good_measure", "won": False, "moves": "AH>F"
    }  # fmt: skip


def test_a_game_that_ends_again_replaces_its_entry(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.parquet")
    lost = Entry.finished(4, "bakers_dozen", "AH>F", "lost")
    j.add(lost)
    j.add(Entry.finished(4, "bakers_dozen", "AH>F AC>F", "won", id=lost.id))
    t = j.read()
    assert t["result"].tolist() == ["won"] and t["moves"].tolist() == ["AH>F AC>F"]


def test_the_file_is_written_whole_then_renamed(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "j.parquet"
    j = Journal(path)
    j.add(entries()[0])
    before = path.read_bytes()
    inode = path.stat().st_ino
    j.add(entries()[1])
    assert path.stat().st_ino != inode  # a new file renamed over the old, not rewritten in place
    before = path.read_bytes()

    def fails(table, where, **kw):  # the disk fills up halfway through the write
        where.write(b"PAR1 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq, "write_table", fails)
    with pytest.raises(JournalError, match=r"cannot write there .*No space left on device"):
        j.add(entries()[2])
    assert path.read_bytes() == before  # the old journal, whole
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["j.parquet", "j.parquet.lock"]  # no temporary file left
    monkeypatch.undo()
    assert len(j.read()) == 2


def test_a_damaged_journal_is_named_in_one_line_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "j.parquet"
    path.write_bytes(b"this is not a journal\n" * 10)
    j = Journal(path)
    with pytest.raises(JournalError) as err:
        j.read()
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith(f"the journal {path} is damaged (not a Parquet file")
    assert text.endswith(
        "move it away, or set BAKERS_LAB_JOURNAL to another file, to start a new one"
    )
    with pytest.raises(JournalError, match="is damaged"):
        j.add(entries()[0])
    assert path.read_bytes() == b"this is not a journal\n" * 10


def _written(path: Path, table: pa.Table) -> Journal:
    pq.write_table(table, path)
    return Journal(path)


def _good() -> pa.Table:
    rows = [
        {"id": "a", "deal": "7", "variant": "bakers_dozen",
         "started": pd.Timestamp("2026-12-01", tz="UTC"),
         "ended": pd.Timestamp("2026-12-01", tz="UTC"), "result": "lost", "moves": "AH>F",
         "source": "app"}
    ]  # fmt: skip
    return pa.Table.from_pylist(rows, schema=SCHEMA)


def test_the_allow_list_refuses_extra_and_odd_columns(tmp_path: Path) -> None:
    path = tmp_path / "j.parquet"
    assert _written(path, _good()).read()["deal"].tolist() == [7]
    cases = {
        "a column it may not hold: evil": _good().append_column("evil", pa.array(["x"])),
        "no source column": _good().drop_columns(["source"]),
        "its deal column holds int64, not string": _good().set_column(
            1, "deal", pa.array([7], pa.int64())
        ),
        "its moves column holds binary, not string": _good().set_column(
            6, "moves", pa.array([b"AH>F"], pa.binary())
        ),
        "game 1: result must be one of won, lost, stuck, given_up, not 'exec' (str)": (
            _good().set_column(5, "result", pa.array(["exec"]))
        ),
        "game 1: variant must be one of": _good().set_column(2, "variant", pa.array(["klondike"])),
        "game 1: deal must be a PySolFC game number": _good().set_column(
            1, "deal", pa.array(["0x1f"])
        ),
        "a game with an empty value": _good().set_column(6, "moves", pa.array([None], pa.string())),
    }
    for why, table in cases.items():
        j = _written(path, table)
        data = path.read_bytes()
        with pytest.raises(JournalError) as err:
            j.read()
        assert f"is damaged ({why}" in str(err.value), (why, str(err.value))
        with pytest.raises(JournalError):
            j.add(entries()[0])
        assert path.read_bytes() == data


def test_switched_off_writes_nothing(tmp_path: Path) -> None:
    j = Journal(tmp_path / "sub" / "j.parquet", enabled=False)
    for e in entries():
        j.add(e)
    assert not (tmp_path / "sub").exists()  # not even the folder, nor a lock file
    assert len(j.read()) == 0
    on = Journal(tmp_path / "j.parquet")
    on.add(entries()[0])
    data = (tmp_path / "j.parquet").read_bytes()
    on.enabled = False  # the page's switch
    on.add(entries()[1])
    assert (tmp_path / "j.parquet").read_bytes() == data


def test_the_environment_variable_names_the_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(JOURNAL_ENV, str(tmp_path / "mine.parquet"))
    assert default_path() == tmp_path / "mine.parquet"
    assert Journal().path == tmp_path / "mine.parquet"
    monkeypatch.setenv(JOURNAL_ENV, "")
    assert default_path().name == "journal.parquet" and default_path() != tmp_path


def test_bad_values_are_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(
        JournalError, match=r"^deal must be a PySolFC game number .* not 0 \(int\)$"
    ):
        Entry.finished(0, "bakers_dozen", "", "won")
    with pytest.raises(JournalError, match=r"^variant must be one of bakers_dozen, "):
        Entry.finished(1, "klondike", "", "won")
    with pytest.raises(JournalError, match=r"^entry must be a journal Entry, not "):
        Journal(tmp_path / "j.parquet").add("game 1")  # type: ignore[arg-type]
    with pytest.raises(JournalError, match=r"^enabled must be True or False"):
        Journal(tmp_path / "j.parquet", enabled="no")  # type: ignore[arg-type]
    os.mkdir(tmp_path / "folder.parquet")
    with pytest.raises(JournalError, match="a folder, not a file"):
        Journal(tmp_path / "folder.parquet").read()


def test_two_writers_at_once_keep_every_game(tmp_path: Path) -> None:
    """Two pages of the app (two kernels: two processes) ending games at the same time."""
    import multiprocessing

    path = tmp_path / "j.parquet"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_write_games, args=(str(path), k)) for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    t = Journal(path).read()
    assert sorted(t["deal"]) == sorted([*range(100, 110), *range(200, 210)])


def _write_games(path: str, k: int) -> None:
    j = Journal(path)
    for d in range(10):
        j.add(Entry.finished(100 * (k + 1) + d, "bakers_dozen", "AD>F", "lost"))


def three_games(path: Path) -> Journal:
    """A journal of three games at ``path``: lost, won and given up (one with a
    15-digit game number)."""
    j = Journal(path)
    start = pd.Timestamp("2026-12-01 10:00", tz="UTC")
    for k, (deal, result, moves) in enumerate(
        [
            (1, "lost", "AD>F KC>F"),
            (4, "won", "AH>F AC>F 2C>F"),
            (123456789012345, "given_up", "AS>F"),
        ]
    ):
        ended = start + pd.Timedelta(minutes=k + 1)
        j.add(Entry(id=f"g{k}", deal=deal, variant="bakers_dozen", started=start, ended=ended,
                    result=result, moves=moves))  # fmt: skip
    return j


def read_flipped(data: bytes, good: pd.DataFrame, flipped: Journal, bit: int) -> str:
    """``data`` with ``bit`` flipped, written to ``flipped`` and read back: ``"same"``
    (read back exactly) or ``"refused"`` (in one line naming the file); an
    AssertionError for anything else.  Shared with tests/hostile_audit.py."""
    changed = bytearray(data)
    changed[bit // 8] ^= 1 << (bit % 8)
    flipped.path.write_bytes(bytes(changed))
    try:
        got = flipped.read()
    except JournalError as exc:
        text = str(exc)
        assert text.startswith(f"the journal {flipped.path} is damaged (") and "\n" not in text
        return "refused"
    assert got.equals(good), bit  # never a changed game
    return "same"


def test_a_changed_bit_is_read_back_exactly_or_refused_never_a_changed_game(
    tmp_path: Path,
) -> None:
    """Of 19,856 single-bit flips of a 3-game journal, 899 were read as changed games with
    no word and 173 raised UnicodeDecodeError (issue 51).  Each game now has a checksum in
    the file: every 19th bit here (every bit with BAKERS_LAB_FULL_FLIPS=1: 20,880 of
    them, all read back or refused, in about three minutes)."""
    path = tmp_path / "j.parquet"
    j = three_games(path)
    data, good = path.read_bytes(), j.read()
    flipped = Journal(tmp_path / "flipped.parquet")
    stride = 1 if os.environ.get("BAKERS_LAB_FULL_FLIPS") == "1" else 19
    read = Counter(
        read_flipped(data, good, flipped, bit) for bit in range(0, 8 * len(data), stride)
    )
    same, refused = read["same"], read["refused"]
    assert same > 0 and refused > 0
    # a game changed by hand (deal 1 made 3, as a flipped bit of its digit does) is named
    table = pq.read_table(path)
    deals = table.column("deal").to_pylist()
    changed_table = table.set_column(1, "deal", pa.array(["3", *deals[1:]]))
    pq.write_table(changed_table, flipped.path)
    with pytest.raises(JournalError, match=r"\(game 1 is not the game that was written: it was"):
        flipped.read()


def test_a_symlinked_journal_stays_a_link_and_a_killed_writers_file_is_cleared(
    tmp_path: Path,
) -> None:
    # a journal path that is a symlink was replaced by a plain file, and SIGKILL while a
    # game was saved left .tmp files behind for good (issue 51)
    real = tmp_path / "elsewhere" / "games.parquet"
    real.parent.mkdir()
    link = tmp_path / "journal.parquet"
    link.symlink_to(real)
    stale = real.parent / ".games.parquet.abc123.tmp"
    stale.write_bytes(b"half a journal")
    j = Journal(link)
    j.add(entries()[0])
    assert link.is_symlink() and real.is_file()
    assert len(Journal(real).read()) == 1
    assert not stale.exists() and not list(real.parent.glob("*.tmp"))
