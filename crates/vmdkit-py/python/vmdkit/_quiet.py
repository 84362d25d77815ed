"""Holding back what native libraries print: MediaPipe's and TensorFlow Lite's C++ logs go
straight to file descriptor 2, past Python's ``sys.stderr`` and past ``GLOG_minloglevel`` and
``TF_CPP_MIN_LOG_LEVEL`` (absl logging, set up by the library itself), so the only way to keep
them from a user is to point descriptor 2 elsewhere while that code runs."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def native_stderr_held(hold: bool = True) -> Iterator[None]:
    """While active (and ``hold``), writes to file descriptor 2 from native code are dropped,
    while Python's ``sys.stderr`` (warnings, a progress bar, tracebacks) still reaches the real
    stderr through a copy of the descriptor. Descriptor 2 is the process's: another thread's
    native writes are held back too for that time."""
    if not hold:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    python_stderr = sys.stderr
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        encoding = getattr(python_stderr, "encoding", None) or "utf-8"
        with open(saved, "w", encoding=encoding, errors="backslashreplace", buffering=1,
                  closefd=False) as real:
            sys.stderr = real
            try:
                yield
            finally:
                sys.stderr = python_stderr
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
