"""Small PySolFC files that crashed, stalled or flooded the reader (issue 51, the fourth
audit): each is built here from its recipe, and each is refused in one line naming the
file, before the unpickler builds anything, with the process alive and its memory
small.  Each budget of :mod:`bakers_lab.files.picklescan` is tried at its limit and one
past it."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bakers_lab as bl
from bakers_lab.files.picklescan import Budget, PickleBudgetError, scan
from bakers_lab.files.pysolfile import PysolFileError

P2 = b"\x80\x02"  # protocol 2, as PySolFC writes


def nested_key(depth: int) -> bytes:
    """A dict whose key is a tuple nested ``depth`` deep (300,000: 300 kB, and the
    interpreter died freeing it)."""
    return P2 + b"}" + b")" + b"\x85" * depth + b"N" + b"s" + b"."


def memo_square(n: int) -> bytes:
    """A list of ``n`` references to one list of ``n`` numbers: 4 n bytes, n² items to
    walk (52 kB took the reader 12-18 s)."""
    inner = b"]q\x00(" + b"K\x01" * n + b"e0"
    return P2 + inner + b"](" + b"h\x00" * n + b"e."


def memo_slot(slot: int) -> bytes:
    """A value kept in memo slot ``slot`` (2**26 in 9 bytes: a table of 1.2 GB)."""
    return P2 + b"N" + b"r" + slot.to_bytes(4, "little") + b"."


def frame(length: int, body: bytes = b"N.") -> bytes:
    """A protocol-4 frame that says ``length`` bytes follow (2**64 - 1 in 12 bytes)."""
    return b"\x80\x04\x95" + length.to_bytes(8, "little") + body


#: The audit's files: (file name, contents, the words of the refusal).
AUDIT = [
    ("deep.pso", nested_key(300_000), "damaged: objects nested 101 deep, more than 100"),
    ("square52k.pso", memo_square(13_000), "refer to each other so often"),
    ("square202k.pso", memo_square(50_000), "refer to each other so often"),
    ("slot.pso", memo_slot(2**26), "memo slot 67108864 written at byte 3 before the slots"),
    ("frame.pso", frame(2**64 - 1), "the file is cut short (truncated)"),
]


@pytest.mark.parametrize(("name", "data", "words"), AUDIT, ids=[a[0] for a in AUDIT])
def test_an_audit_file_is_refused_in_one_line_naming_it(tmp_path, name, data, words):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(PysolFileError) as info:
        bl.read_pysol_game(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and words in message
    assert "\n" not in message and len(message) < 300


#: A child process that reads each file under a 1 GiB address-space cap and prints the
#: reader's line for each, then its peak resident memory in kB (Linux).
CHILD = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    import bakers_lab as bl
    for path in sys.argv[1:]:
        try:
            bl.read_pysol_game(path)
        except bl.PysolFileError as exc:
            print(str(exc).splitlines()[0])
    # VmHWM: this program's own peak (ru_maxrss would keep the forking parent's, which
    # Linux carries across exec)
    with open("/proc/self/status") as status:
        print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
    """
)


def test_the_audit_files_are_read_alive_in_a_small_memory(tmp_path):
    paths = []
    for name, data, _ in AUDIT:
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    done = subprocess.run([sys.executable, "-c", CHILD, *paths], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    *lines, peak = done.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == paths
    print("peak resident memory of the reader:", int(peak) // 1024, "MiB")
    assert int(peak) < 400 * 1024  # kB: the toolkit's own imports take about 250 MiB


def test_depth_at_its_limit_and_one_past_it():
    assert scan(nested_key(98), "ok").depth == 100  # the dict, 98 tuples and () in them
    with pytest.raises(PickleBudgetError, match=r"^x: damaged: objects nested 101 deep, more"):
        scan(nested_key(99), "x")


def test_memo_slots_follow_each_other():
    ok = P2 + b"Nq\x000Nq\x010h\x00h\x01\x86."  # slots 0 and 1 written, then read
    assert scan(ok, "ok").pickles == 1
    assert scan(memo_slot(0), "ok").objects == 1
    with pytest.raises(PickleBudgetError, match=r"^x: damaged: memo slot 1 written at byte 3 "):
        scan(memo_slot(1), "x")
    with pytest.raises(PickleBudgetError, match=r"^x: damaged: memo slot 5 read at byte 2 "):
        scan(P2 + b"h\x05.", "x")


def test_a_frame_at_the_end_of_the_file_and_one_byte_past_it():
    assert scan(frame(2), "ok").pickles == 1  # "N." is the frame's two bytes
    with pytest.raises(PickleBudgetError, match=r"^x: the file is cut short \(truncated\)$"):
        scan(frame(3), "x")


def test_objects_at_the_budget_and_one_past_it():
    ten = pickle.dumps(list(range(9)), protocol=2)  # the list and its nine numbers
    assert scan(ten, "ok", Budget(objects=10)).objects == 10
    with pytest.raises(PickleBudgetError, match=r"^x: damaged: more than 9 objects"):
        scan(ten, "x", Budget(objects=9))


def test_walked_items_at_the_budget_and_one_past_it():
    data = memo_square(10)  # 10 references to 10 numbers: 1 + 10 * (1 + 10) = 111 items
    assert scan(data, "ok", Budget(walked=111, walked_per_byte=0)).walked == 111
    with pytest.raises(PickleBudgetError, match=r"more than 110 steps"):
        scan(data, "x", Budget(walked=110, walked_per_byte=0))


def test_every_shipped_save_is_well_inside_the_budget():
    for path in sorted(Path(__file__).parent.glob("data/pysolfc/*.pso")):
        data = path.read_bytes()
        shape = scan(data, path.name)
        assert shape.depth <= 12 and shape.walked <= len(data), (path.name, shape)


def test_a_cycle_is_walked_once():
    box: list[object] = []
    box.append(box)
    assert scan(pickle.dumps(box, protocol=2), "ok").walked == 1
