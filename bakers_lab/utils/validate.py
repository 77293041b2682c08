"""Checking arguments at the public edge: every integer type in, plain ``int`` out.

Where an integer is meant, any integer type is accepted (Python ``int``, numpy's
integer scalars, a :class:`~decimal.Decimal` or :class:`~fractions.Fraction` with no
fractional part) and turned into a plain ``int``.  Nothing else is coerced: a float
(even ``5.0``), a string, a bool or ``None`` is refused with a message that names the
parameter, the value received and what is allowed.

>>> import numpy as np
>>> as_int(np.int64(5), "max_nodes", low=1)
5
>>> as_int(1.9, "max_nodes", low=1)
Traceback (most recent call last):
...
ValueError: max_nodes must be an integer, not 1.9 (float)
>>> as_int(0, "max_nodes", low=1, high=10**12)
Traceback (most recent call last):
...
ValueError: max_nodes must be an integer from 1 to 1000000000000, not 0
>>> as_bool("False", "foundation_return")
Traceback (most recent call last):
...
ValueError: foundation_return must be True or False, not 'False' (str)
"""

from __future__ import annotations

import math
import numbers
import operator
from decimal import Decimal
from fractions import Fraction

__all__ = [
    "MAX_DIGITS",
    "as_bool",
    "as_int",
    "as_number",
    "describe",
    "is_bool",
    "shown",
    "shown_int",
]

#: Most digits an integer argument may have: anything longer is refused before it is
#: converted or printed (Python refuses to print more than 4,300 digits, and turning
#: ``Decimal("1E+10000000")`` into an int takes minutes).
MAX_DIGITS = 1_000


def shown(text: str, limit: int = 60) -> str:
    """``text`` (words from a user or a file) as a message may show it on a terminal:
    each character that is not printable (a line break, a tab, the escape that starts
    a terminal's control sequence, a right-to-left mark) written as its escape, and cut
    to about ``limit`` characters (``...`` marks the cut).

    >>> print(shown("Ann\\x1b]0;owned\\x07"))
    Ann\\x1b]0;owned\\x07
    >>> shown("x" * 100, 10)
    'xxxxxxx...'
    """
    if not text.isprintable():
        text = "".join(
            c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
        )
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown_int(number: int) -> str:
    """An integer as an error message quotes it: in full up to 30 digits, else its first
    digits and how many there are (a huge number is never printed whole)."""
    size = abs(number)
    if size < 10**30:
        return str(number)
    if size.bit_length() > 4 * MAX_DIGITS:  # too long to print: say how long
        digits = int(size.bit_length() * 0.30103) + 1
        return f"{'a negative' if number < 0 else 'an'} integer of about {digits:,} digits"
    text = str(size)
    return f"{'-' if number < 0 else ''}{text[:12]}... ({len(text):,} digits)"


#: pandas' tables, whose repr is a printout of their contents over many lines: a
#: message names their kind and size instead (never the table itself).
_TABLES = {"DataFrame": "rows", "Series": "values"}


def describe(value: object) -> str:
    """A value as an error message shows it: its repr (shortened, on one line) and
    its type; a pandas table (a DataFrame, a Series) by its kind and size.

    >>> describe("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (str)"
    >>> import pandas as pd
    >>> describe(pd.Series([1, 2, 3]))
    'a Series of 3 values'
    """
    name = type(value).__name__
    if name in _TABLES:
        return f"a {name} of {len(value):,} {_TABLES[name]}"  # type: ignore[arg-type]
    if isinstance(value, int) and not is_bool(value):
        text = shown_int(value)
    else:
        try:
            text = repr(value)
        except Exception:  # a repr that fails (a huge int inside, a broken object)
            text = f"<a {type(value).__name__}>"
        text = " ".join(text.split()) if "\n" in text else text  # one line
    return f"{shown(text)} ({type(value).__name__})"


def is_bool(value: object) -> bool:
    """True for ``True``/``False`` and numpy's bool scalars (never integers here)."""
    return isinstance(value, bool) or type(value).__name__ == "bool"  # numpy's bool scalar


def as_int(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[Exception] = ValueError,
) -> int:
    """``value`` as a plain ``int`` in ``low … high`` (inclusive, either may be open).

    Raises ``error`` naming ``name`` when ``value`` is not an integer or out of range.
    """
    number: int | None = None
    if type(value) is int:  # the common case first: most calls are plain ints
        number = value
    elif is_bool(value):
        number = None
    elif isinstance(value, Decimal):
        if value.is_finite() and value == value.to_integral_value():
            if value and value.adjusted() >= MAX_DIGITS:  # never converted: say it as given
                allowed = _allowed(low, high)
                raise error(f"{name} must be an integer {allowed}, not {describe(value)}")
            number = int(value)
    elif isinstance(value, Fraction):
        if value.denominator == 1:
            number = value.numerator
    else:
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            number = None
    if number is None:
        raise error(f"{name} must be an integer, not {describe(value)}")
    if (
        (low is not None and number < low)
        or (high is not None and number > high)
        or number.bit_length() > 3.33 * MAX_DIGITS
    ):
        raise error(f"{name} must be an integer {_allowed(low, high)}, not {shown_int(number)}")
    return number


def _allowed(low: int | None, high: int | None) -> str:
    """The range of an integer argument, in words."""
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return f"of at most {MAX_DIGITS:,} digits"


def as_number(
    value: object,
    name: str,
    *,
    low: float,
    high: float,
    low_open: bool = False,
    unit: str = "",
    error: type[Exception] = ValueError,
) -> float:
    """``value`` (any real number type but bool, finite) as a ``float`` in ``low …
    high`` (``low`` itself excluded when ``low_open``); ``unit`` says what it
    measures, in the message of ``error``.

    >>> as_number(0, "relax", low=0, high=10**6, unit=" (CP-SAT's deterministic time)")
    0.0
    >>> as_number(0, "limit", low=0, high=10**6, low_open=True)
    Traceback (most recent call last):
    ...
    ValueError: limit must be a number above 0 and at most 1,000,000, not 0 (int)
    """
    x = math.nan
    if (
        not is_bool(value)
        and isinstance(value, numbers.Real)
        and not isinstance(value, Decimal)  # a Decimal is Real's cousin, not its subclass
    ):
        try:
            x = float(value)
        except OverflowError:  # an int too large for a float is out of range anyway
            x = math.inf
    if not (math.isfinite(x) and (low < x if low_open else low <= x) and x <= high):
        edge = f"above {_num(low)} and at most" if low_open else f"from {_num(low)} to"
        raise error(f"{name} must be a number {edge} {_num(high)}{unit}, not {describe(value)}")
    return x


def _num(x: float) -> str:
    """A range's edge in words: ``1,000,000``, ``0.5``."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def as_bool(value: object, name: str, *, error: type[Exception] = ValueError) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy's bools too); never a truthy stand-in."""
    if is_bool(value):
        return bool(value)
    raise error(f"{name} must be True or False, not {describe(value)}")
