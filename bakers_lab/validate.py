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

import operator
from decimal import Decimal
from fractions import Fraction

__all__ = ["as_bool", "as_int", "describe", "is_bool"]


def describe(value: object) -> str:
    """A value as an error message shows it: its repr (shortened) and its type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


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
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            allowed = f"from {low} to {high}"
        elif low is not None:
            allowed = f"at least {low}"
        else:
            allowed = f"at most {high}"
        raise error(f"{name} must be an integer {allowed}, not {number}")
    return number


def as_bool(value: object, name: str, *, error: type[Exception] = ValueError) -> bool:
    """``value`` if it is ``True`` or ``False`` (numpy's bools too); never a truthy stand-in."""
    if is_bool(value):
        return bool(value)
    raise error(f"{name} must be True or False, not {describe(value)}")
