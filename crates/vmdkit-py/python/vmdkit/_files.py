"""What a path is when it is not a file to read: shared by `vmdkit.batch` and
`vmdkit.capture`, which both take paths from folders and command lines they do not control."""

from __future__ import annotations

import errno
import os
import stat
from typing import Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


def not_a_file(path: PathLike, wanted: str) -> Optional[OSError]:
    """None when ``path`` is a regular file (or a link to one), else the OSError that says
    what it is instead of ``wanted`` ("a motion file", ...): missing, a dangling link, a
    folder, a FIFO, a socket or a device. Nothing is opened: opening a FIFO blocks until
    something writes to it."""
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        if os.path.islink(name):
            target = os.readlink(name)
            text = f"a symbolic link to {target}, which does not exist"
            return FileNotFoundError(errno.ENOENT, text, name)
        return FileNotFoundError(errno.ENOENT, "no such file", name)
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, f"a folder, not {wanted}", name)
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return OSError(errno.EINVAL, f"{kind}, not {wanted}", name)
