"""What the compiled (numba) engines share: a position array's check and the stale-cache guard.

The guard (issue 18): numba's disk cache is keyed on each function's own file, so a module
whose file did not change keeps the inlined callees and constants of the others as they were
when it was compiled. A compiled package therefore gives every module a ``baked_digest()``
returning the sources' digest frozen at compile time, and calls :func:`drop_stale_code` on
import. This module imports no numba itself (the caller passes its modules), so importing it
costs nothing.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import numpy as np

__all__ = ["check_position_array", "drop_stale_code", "source_digest"]


def check_position_array(buf: object, prefix: str, *, writable: bool) -> np.ndarray:
    """``buf`` if it is an array compiled code may index as a position; the game checks the rest.

    Args:
        buf: The object to check.
        prefix: The start of every message (``"tribes compiled"``).
        writable: The caller will write the buffer.

    Raises:
        TypeError: If ``buf`` is not a 1-D C-contiguous int64 array.
        ValueError: If ``writable`` and the array is read-only.
    """
    if (
        not isinstance(buf, np.ndarray)
        or buf.dtype != np.int64
        or buf.ndim != 1
        or not buf.flags.c_contiguous
    ):
        raise TypeError(f"{prefix}: a position is a 1-D C-contiguous int64 numpy array")
    if writable and not buf.flags.writeable:
        raise ValueError(f"{prefix}: the buffer is read-only")
    return buf


def source_digest(files: Sequence[Path]) -> int:
    """CRC-32 of the files' bytes in order (0 when one is not on disk: nothing to compare)."""
    crc = 0
    for path in files:
        try:
            crc = zlib.crc32(Path(path).read_bytes(), crc)
        except OSError:  # pragma: no cover - sources not on disk
            return 0
    return crc


def drop_stale_code(modules: Sequence[ModuleType], digest: int, package: str) -> None:
    """Forget machine code that numba cached from older sources.

    Args:
        modules: The compiled modules, each with a ``baked_digest`` dispatcher.
        digest: The current sources' digest.
        package: The package's dotted name, for the error message.

    Raises:
        ImportError: If recompiling did not bring every module to ``digest``.
    """
    from numba.core.dispatcher import Dispatcher

    if all(m.baked_digest() == digest for m in modules):
        return
    for m in modules:  # pragma: no cover - only after an edit of the sources
        for value in vars(m).values():
            cache = getattr(value, "_cache", None) if isinstance(value, Dispatcher) else None
            if cache is not None:
                cache.flush()
        m.baked_digest.recompile()
    if any(m.baked_digest() != digest for m in modules):  # pragma: no cover
        folder = package.removeprefix("stratagem.").replace(".", "/")
        raise ImportError(
            f"{package}: stale numba cache; delete {folder}/__pycache__ (or NUMBA_CACHE_DIR)"
        )
