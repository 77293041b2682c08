"""A pickle's shape checked before it is unpickled: budgets, not trust.

Python's unpickler allocates what a file asks for before it can see that the file
lies: a memo slot ``2**26`` makes a table of 67 million entries, a frame of
``2**64 - 1`` bytes overflows, a tuple nested 300,000 deep crashes the interpreter
when it is freed, and a list built from N references to a list of N items is
small on disk and N² items to whoever walks it.  :func:`scan` reads the opcodes
(:mod:`pickletools`, which builds nothing) and follows the shape of the objects
they would build, without building them, and refuses a file that is past any of
the :class:`Budget`'s bounds, in one line naming the file and the bound.

>>> import pickle
>>> scan(pickle.dumps([1, (2, 3), {"a": "b"}]), "ok.pso")
Shape(pickles=1, objects=8, depth=2, walked=8)
>>> deep = b"(" * 300 + b")" + b"t" * 300 + b"."
>>> scan(deep, "deep.pso")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bakers_lab.files.picklescan.PickleBudgetError: deep.pso: damaged: objects nested 101 deep, ...
"""

from __future__ import annotations

import io
import pickletools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BUDGET", "TRUNCATED", "Budget", "PickleBudgetError", "Shape", "scan"]

#: What a file that ends in the middle of a pickle is called.
TRUNCATED = "the file is cut short (truncated)"


class PickleBudgetError(ValueError):
    """A pickle past a :class:`Budget`'s bound, or whose opcodes do not make sense."""


@dataclass(frozen=True)
class Budget:
    """The bounds :func:`scan` holds a file to.

    ``depth``: objects inside objects; ``objects``: everything the file would
    build; ``memo``: the memo slots it may name (a slot beyond the ones written so
    far is refused, so the memo never grows past what was built); ``walked``:
    the items met walking every object, a shared one as often as it is referred
    to (what a reader that follows the references does), at most ``walked_per_byte``
    times the file's size plus ``walked``.
    """

    depth: int = 100
    objects: int = 4_000_000
    walked: int = 100_000
    walked_per_byte: int = 4


#: The bounds a PySolFC save or statistics file is held to: its objects nest about
#: eight deep, and a statistics file of 100,000 games builds about a million objects.
BUDGET = Budget()


@dataclass(frozen=True)
class Shape:
    """What :func:`scan` found: the pickles in the file, the objects they build, how
    deep they nest and how many items a walk of them meets."""

    pickles: int
    objects: int
    depth: int
    walked: int


class _Node:
    """One object the pickle would build: the objects it holds."""

    __slots__ = ("kids", "leaves")

    def __init__(self, held: Sequence[_Node] = ()) -> None:
        self.kids: list[_Node] = []
        self.leaves = 0  # the numbers, strings and Nones it holds
        self.hold(held)

    def hold(self, held: Sequence[_Node]) -> None:
        """Add ``held`` (objects, and :data:`_LEAF` for a leaf) to what this one holds."""
        for h in held:
            if h is _LEAF:
                self.leaves += 1
            else:
                self.kids.append(h)


#: Every number, string and None: they hold nothing, so one node stands for them all.
_LEAF = _Node()
_LEAVES = frozenset(
    {"int", "int_or_bool", "bool", "float", "str", "bytes", "bytes_or_str", "None", "bytearray"}
)
#: Opcodes that add what they take from the stack to the object below it.
_INTO = frozenset({"APPEND", "APPENDS", "SETITEM", "SETITEMS", "ADDITEMS", "BUILD"})
_PUT = frozenset({"PUT", "BINPUT", "LONG_BINPUT"})
_GET = frozenset({"GET", "BINGET", "LONG_BINGET"})


def _plan(op: pickletools.OpcodeInfo) -> tuple[bool, int, tuple[bool, ...]]:
    """What ``op`` does to the stack: whether it takes a marked slice, how many values
    it takes (below the mark, if it takes one), and for each value it leaves whether
    it is a leaf (a number, a string, None)."""
    before = [s.name for s in op.stack_before]
    marked = "mark" in before
    below = before.index("mark") if marked else len(before)
    return marked, below, tuple(s.name in _LEAVES for s in op.stack_after)


_PLANS = {op.name: _plan(op) for op in pickletools.opcodes}


def scan(data: bytes, name: str, budget: Budget = BUDGET) -> Shape:
    """Check the pickles in ``data`` (one after another, as PySolFC's files hold
    them) against ``budget``; return their :class:`Shape`, or raise
    :class:`PickleBudgetError` ``"{name}: damaged: ..."`` naming the bound passed."""
    stream = io.BytesIO(data)
    pickles = objects = depth = walked = 0
    limit = budget.walked + budget.walked_per_byte * len(data)
    memo: dict[int, _Node] = {}  # one unpickler reads them all: the memo carries over
    while stream.tell() < len(data):
        with warnings.catch_warnings():  # a damaged text's odd escapes: said below, if at all
            warnings.simplefilter("ignore", DeprecationWarning)
            root, built = _one(stream, data, memo, name, budget, budget.objects - objects)
        objects += built
        d, w = _measure(root, budget.depth, limit - walked, name)
        depth, walked, pickles = max(depth, d), walked + w, pickles + 1
    return Shape(pickles=pickles, objects=objects, depth=depth, walked=walked)


def _fail(name: str, what: str) -> PickleBudgetError:
    return PickleBudgetError(f"{name}: damaged: {what}; a PySolFC file is never like this")


def _one(
    stream: io.BytesIO, data: bytes, memo: dict[int, _Node], name: str, budget: Budget, room: int
) -> tuple[_Node, int]:
    """The object one pickle builds, and how many objects it builds, with ``memo``
    as the pickles before it left it; the stream is left after its STOP."""
    stack: list[_Node] = []
    marks: list[int] = []  # where each open mark is on the stack
    built = 0
    frame_end = -1  # where the frame being read ends (-1: none)
    try:
        for op, arg, at in pickletools.genops(stream):
            code, pos = op.name, at or 0  # a stream always has a position
            if stream.tell() > frame_end > pos:
                raise _fail(name, f"{code} at byte {pos} runs past the end of its frame")
            if code == "FRAME":
                if not isinstance(arg, int) or arg > len(data) - stream.tell():
                    raise PickleBudgetError(f"{name}: {TRUNCATED}")  # a frame runs past the end
                if pos < frame_end:
                    raise _fail(name, f"a frame begins at byte {pos} inside another")
                frame_end = stream.tell() + arg
            elif code in _PUT or code == "MEMOIZE":
                slot = len(memo) if code == "MEMOIZE" else arg
                if not isinstance(slot, int) or slot > len(memo):
                    raise _fail(name, f"memo slot {slot} written at byte {pos} before the slots "
                                      f"below it")  # fmt: skip
                if len(stack) <= (marks[-1] if marks else 0):
                    raise _fail(name, f"nothing to keep in the memo at byte {pos}")
                memo[slot] = stack[-1]
            elif code in _GET:
                if arg not in memo:
                    raise _fail(name, f"memo slot {arg} read at byte {pos} before it is written")
                stack.append(memo[arg])
            elif code == "MARK":
                marks.append(len(stack))
            elif code == "STOP":
                if len(stack) != 1 or marks:
                    raise _fail(name, f"{len(stack)} values left at its end (byte {pos})")
                if frame_end > stream.tell():
                    raise _fail(name, f"a pickle ends at byte {pos}, inside its frame")
                return stack[0], built
            else:
                marked, below, after = _PLANS[code]
                taken = _take(stack, marks, marked, below, f"{code} at byte {pos}", name)
                if code == "DUP":
                    stack += taken * 2
                elif code in _INTO:
                    into = taken[0]
                    if into is _LEAF:
                        raise _fail(
                            name, f"{code} at byte {pos} adds to a value that holds nothing"
                        )
                    into.hold(taken[1:])
                    stack.append(into)
                else:
                    for leaf in after:
                        built += 1
                        if built > room:
                            raise _fail(name, f"more than {budget.objects:,} objects")
                        stack.append(_LEAF if leaf and not taken else _Node(taken))
    except ValueError as exc:  # pickletools: an unknown opcode, a string cut short
        if isinstance(exc, PickleBudgetError):
            raise
        if "remain" in str(exc) or "exhausted" in str(exc):
            raise PickleBudgetError(f"{name}: {TRUNCATED}") from None
        raise _fail(name, f"not a pickle ({str(exc)[:120]})") from None
    raise PickleBudgetError(f"{name}: {TRUNCATED}")


def _take(
    stack: list[_Node], marks: list[int], marked: bool, below: int, where: str, name: str
) -> list[_Node]:
    """Take an opcode's values off ``stack``, oldest first: with ``marked``, those
    above the last mark (which ends), and ``below`` values under it."""
    if marked:
        if not marks:
            raise _fail(name, f"{where} finds no mark")
        top = marks.pop()
    else:
        top = len(stack)
    start = top - below
    if start < (marks[-1] if marks else 0):
        raise _fail(name, f"{where} finds too few values")
    taken = stack[start:]
    del stack[start:]
    return taken


def _measure(root: _Node, max_depth: int, room: int, name: str) -> tuple[int, int]:
    """How deep ``root`` nests and how many items a walk of it meets (a shared
    object each time it is referred to), without recursion; past ``max_depth`` or
    ``room`` items, :class:`PickleBudgetError`."""
    depth: dict[int, int] = {}
    walked: dict[int, int] = {}
    open_: set[int] = set()
    todo: list[tuple[_Node, bool]] = [(root, False)]
    while todo:
        node, done = todo.pop()
        key = id(node)
        if done:
            kids = [k for k in node.kids if id(k) in depth]  # a kid on a cycle is not counted
            d = 1 + max((depth[id(k)] for k in kids), default=0)
            w = 1 + node.leaves + sum(walked[id(k)] for k in kids)
            if d > max_depth:
                raise _fail(name, f"objects nested {d} deep, more than {max_depth}")
            if w > room:
                raise _fail(name, f"its objects refer to each other so often that reading "
                                  f"them means more than {room:,} steps")  # fmt: skip
            depth[key], walked[key] = d, w
            open_.discard(key)
        elif key not in depth and key not in open_:
            open_.add(key)
            todo.append((node, True))
            todo += [(k, False) for k in node.kids if id(k) not in depth and id(k) not in open_]
    return depth[id(root)], walked[id(root)]
