"""numpy's default generator (PCG64) in numba, over six ints of the position buffer.

The Python rules draw from ``numpy.random.default_rng(seed)`` (``TribesState.randint``:
``integers(k)``; ``TribesState.shuffled``: ``permutation(n)``). The compiled engine must draw
the same numbers to stay in the same game, so this module carries numpy's own algorithms:
PCG64 (XSL-RR 128/64), ``next_uint32`` with its buffered half word, Lemire's bounded
integers (``random_bounded_uint64`` for ranges below 2**32) and the Fisher-Yates shuffle of
``Generator.permutation`` (masked ``random_interval`` draws).
``tests/test_tribes_compiled.py`` checks the draws against numpy's.

State at ``off``: state high and low words, increment high and low words, ``has_uint32``,
``uinteger`` (numpy's ``bit_generator.state``), stored as int64 bit patterns.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

__all__ = ["RNG_INTS", "from_numpy", "randint", "shuffle"]

RNG_INTS = 6
_MASK64 = (1 << 64) - 1
_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_MULT_HI = uint64(_MULT >> 64)
_MULT_LO = uint64(_MULT & _MASK64)
_M32 = uint64(0xFFFFFFFF)


def _signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


def from_numpy(rng: np.random.Generator) -> list[int]:
    """The six ints of a numpy PCG64 generator's state (raises for another bit generator)."""
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"tribes compiled: the state's generator is {st['bit_generator']}")
    s, inc = st["state"]["state"], st["state"]["inc"]
    return [
        _signed(s >> 64),
        _signed(s & _MASK64),
        _signed(inc >> 64),
        _signed(inc & _MASK64),
        int(st["has_uint32"]),
        int(st["uinteger"]),
    ]


def to_numpy(words: list[int]) -> np.random.Generator:
    """A numpy generator in the state of six ints (the inverse of :func:`from_numpy`)."""
    w = [x & _MASK64 for x in words]
    bg = np.random.PCG64()
    bg.state = {
        "bit_generator": "PCG64",
        "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
        "has_uint32": int(words[4]),
        "uinteger": int(words[5]),
    }
    return np.random.Generator(bg)


@njit(cache=True, inline="always")
def _mulhi(a, b):
    a_lo = a & _M32
    a_hi = a >> uint64(32)
    b_lo = b & _M32
    b_hi = b >> uint64(32)
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    p3 = a_hi * b_hi
    mid = (p0 >> uint64(32)) + (p1 & _M32) + (p2 & _M32)
    return p3 + (p1 >> uint64(32)) + (p2 >> uint64(32)) + (mid >> uint64(32))


@njit(cache=True)
def next64(buf, off):
    """One PCG64 output: step the 128-bit state, then XSL-RR of the new state."""
    hi = uint64(buf[off])
    lo = uint64(buf[off + 1])
    ihi = uint64(buf[off + 2])
    ilo = uint64(buf[off + 3])
    new_lo = lo * _MULT_LO
    new_hi = _mulhi(lo, _MULT_LO) + lo * _MULT_HI + hi * _MULT_LO
    s_lo = new_lo + ilo
    carry = uint64(1) if s_lo < new_lo else uint64(0)
    s_hi = new_hi + ihi + carry
    buf[off] = np.int64(s_hi)
    buf[off + 1] = np.int64(s_lo)
    x = s_hi ^ s_lo
    rot = s_hi >> uint64(58)
    return (x >> rot) | (x << ((uint64(64) - rot) & uint64(63)))


@njit(cache=True)
def next32(buf, off):
    """Numpy's ``next_uint32`` of PCG64: the low half now, the high half kept for next time."""
    if buf[off + 4]:
        buf[off + 4] = 0
        return uint64(buf[off + 5])
    v = next64(buf, off)
    buf[off + 4] = 1
    buf[off + 5] = np.int64(v >> uint64(32))
    return v & _M32


@njit(cache=True)
def bounded(buf, off, rng):
    """Numpy's ``random_bounded_uint64(state, 0, rng, 0, use_masked=False)``, ``rng < 2**32``."""
    if rng == 0:
        return 0
    r = uint64(rng)
    if r == _M32:
        return np.int64(next32(buf, off))
    rng_excl = r + uint64(1)
    m = next32(buf, off) * rng_excl
    leftover = m & _M32
    if leftover < rng_excl:
        threshold = (_M32 - r) % rng_excl
        while leftover < threshold:
            m = next32(buf, off) * rng_excl
            leftover = m & _M32
    return np.int64(m >> uint64(32))


@njit(cache=True)
def randint(buf, off, k):
    """``Generator.integers(k)``: uniform in ``[0, k)`` (``TribesState.randint``)."""
    return bounded(buf, off, k - 1)


@njit(cache=True)
def interval(buf, off, mx):
    """Numpy's ``random_interval`` for ``mx < 2**32``: masked rejection on 32-bit draws."""
    if mx == 0:
        return 0
    mask = uint64(mx)
    mask |= mask >> uint64(1)
    mask |= mask >> uint64(2)
    mask |= mask >> uint64(4)
    mask |= mask >> uint64(8)
    mask |= mask >> uint64(16)
    while True:
        v = next32(buf, off) & mask
        if v <= uint64(mx):
            return np.int64(v)


@njit(cache=True)
def shuffle(buf, off, arr, n):
    """``arr[:n]`` permuted as ``Generator.permutation`` permutes ``arange(n)`` (n > 1 draws)."""
    for i in range(n - 1, 0, -1):
        j = interval(buf, off, i)
        tmp = arr[j]
        arr[j] = arr[i]
        arr[i] = tmp
