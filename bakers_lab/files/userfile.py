"""Reading a file a user names: only a regular file, only so many bytes, never a hang.

A named pipe with no writer blocks ``open`` for good, a device such as
/dev/zero never ends, and a socket cannot be read at all: :func:`read_user_file`
opens without blocking, asks the open file what it is, and refuses anything but
a regular file in one line, before reading a byte.  A file larger than the
limit is refused unread.

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
...     _ = f.write(b"AD>F 7C>8H")
>>> read_user_file(f.name, "--moves", limit=1024)
b'AD>F 7C>8H'
>>> read_user_file(os.path.dirname(f.name), "--moves", limit=1024)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: --moves ...: a folder, not a file
>>> os.remove(f.name)
"""

from __future__ import annotations

import os
import stat

from bakers_lab.utils.validate import shown

__all__ = ["read_user_file", "write_user_file"]


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _size(n: int) -> str:
    """A size limit in words: ``1 MiB``, ``64 kB``, ``100 bytes``."""
    if n >= 2**20:
        return f"{n // 2**20:,} MiB"
    return f"{n // 2**10:,} kB" if n >= 2**10 else f"{n:,} bytes"


def read_user_file(
    path: str | os.PathLike[str], what: str, *, limit: int, expected: str = ""
) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit`` of them).

    ``what`` names the file in every message (an option such as ``--moves``, or
    "the statistics file"); ``expected`` follows the size refusal (what such a
    file usually holds).  A missing or unreadable file raises ``OSError``; a
    folder, pipe, socket or device, a file over ``limit`` bytes or a name with a
    NUL character raises ``ValueError``, each in one line naming the file.
    """
    name = os.fspath(path)
    where = f"{what} {shown(name, 200)}"
    tail = f"; {expected}" if expected else ""
    if "\x00" in name:
        raise ValueError(f"{what} is a file name, which cannot hold a NUL character")
    try:  # what it is first: a socket cannot even be opened, a pipe would block
        mode = os.stat(name).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{where}: {_kind(mode)}, not a file")
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise OSError(f"{where}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{where}: {_kind(info.st_mode)}, not a file")
        if info.st_size > limit:
            raise ValueError(f"{where} holds more than {_size(limit)}{tail}")
        with os.fdopen(fd, "rb", closefd=True) as f:
            fd = -1
            data = f.read(limit + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:  # grown since it was looked at
        raise ValueError(f"{where} holds more than {_size(limit)}{tail}")
    return data


def write_user_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a temporary file beside it,
    then renamed over it (a full disk leaves the old file as it was, never an empty or
    cut one).  A ``path`` that is a symbolic link (one that points nowhere too) is
    refused with :class:`ValueError`: a file is never written through a link.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> write_user_file(os.path.join(d, "a.txt"), b"hello")
    >>> os.symlink(os.path.join(d, "nowhere"), os.path.join(d, "link.txt"))
    >>> write_user_file(os.path.join(d, "link.txt"), b"x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../link.txt is a symbolic link: no file is written through one; ...
    """
    import tempfile

    name = os.fspath(path)
    if os.path.islink(name):
        raise ValueError(
            f"{shown(name, 300)} is a symbolic link: no file is written through one; remove "
            f"it or choose another folder"
        )
    folder = os.path.dirname(os.path.abspath(name))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(name)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, name)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
