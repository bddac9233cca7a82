"""Many seeds' board picks at once: ``np.random.default_rng(seed).integers(count)``, vectorised.

A scalar game picks the board of a new game from its seed with one draw of a fresh NumPy
generator. Building that generator costs about 5 µs (a ``SeedSequence`` and a ``PCG64``), and a
batch that resets a few dozen finished games every few steps spent more time there than in the
rules. This module computes the same draw for a whole array of seeds with array operations:

1. ``SeedSequence(seed)``'s pool (4 words of 32 bits) from the seed's one 32-bit word, and its
   ``generate_state(4, uint64)``: the hash-and-mix of NumPy's ``bit_generator.pyx`` in uint32
   arithmetic (which wraps, as the C code's does);
2. ``PCG64`` seeded from those words (``pcg_setseq_128_srandom_r``: two steps of the 128-bit
   LCG) and stepped once more for its first output (XSL-RR), with 128-bit numbers held as four
   32-bit limbs in uint64 arrays;
3. ``integers(count)``: Lemire's bounded draw on the low 32 bits of that output.

Seeds outside ``[0, 2^32)`` and the rare draws that Lemire's method rejects (probability below
``count / 2^32``) are computed with NumPy itself, so the result is always exactly NumPy's; a
test compares the two over many seeds and counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["BoardPicker", "board_picks"]

_M32 = np.uint64(0xFFFFFFFF)
# SeedSequence's hash constants (numpy/random/bit_generator.pyx)
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = np.uint32(16)
_POOL = 4
# PCG64's multiplier (PCG_DEFAULT_MULTIPLIER_128) as four 32-bit limbs, least significant first
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_MULT_LIMBS = [np.uint64((_PCG_MULT >> (32 * i)) & 0xFFFFFFFF) for i in range(4)]


def board_picks(seeds: Sequence[int], count: int) -> np.ndarray:
    """``[np.random.default_rng(s).integers(count) for s in seeds]`` as an int64 array.

    Args:
        seeds: Non-negative integer seeds.
        count: The number of boards (at least 1).
    """
    if count <= 1:
        return np.zeros(len(seeds), dtype=np.int64)
    raw = [int(s) for s in seeds]
    small = np.array([0 <= s < 2**32 for s in raw], dtype=bool)
    words = np.array([s if ok else 0 for s, ok in zip(raw, small, strict=True)], dtype=np.uint32)
    low = _first_output_low32(words)
    product = low * np.uint64(count)
    picks = (product >> np.uint64(32)).astype(np.int64)
    # Lemire rejects a draw when the low half of the product is below 2^32 mod count (a subset
    # of "below count"); NumPy then draws again, so those seeds go to NumPy itself
    redo = ~small | ((product & _M32) < np.uint64(count))
    for i in np.flatnonzero(redo):
        picks[i] = int(np.random.default_rng(raw[i]).integers(count))
    return picks


class BoardPicker:
    """:func:`board_picks` for one board count, memoised per block of consecutive seeds.

    The vectorised draw has a fixed cost of about 200 array operations, so it pays from a few
    hundred seeds on (0.35 µs a seed at 1,024 against NumPy's 6–7 µs) and not for the few dozen
    games a batch resets at a time. Batches are mostly restarted from consecutive seeds (a
    counter), so a request computes the whole block of :attr:`BLOCK` seeds around its seeds
    when at least :attr:`MIN_HITS` of them fall in it, and keeps the last :attr:`KEEP` blocks;
    other seeds (scattered, or beyond 2^32) are drawn one by one with NumPy.

    Args:
        count: The number of boards.
    """

    BLOCK = 1024
    MIN_HITS = 8
    KEEP = 4

    def __init__(self, count: int) -> None:
        self.count = count
        self._blocks: dict[int, np.ndarray] = {}

    def __call__(self, seeds: Sequence[int]) -> np.ndarray:
        """The board of each seed, as ``np.random.default_rng(seed).integers(count)``."""
        raw = [int(s) for s in seeds]
        if self.count <= 1:
            return np.zeros(len(raw), dtype=np.int64)
        block_of = [s // self.BLOCK if 0 <= s < 2**32 else -1 for s in raw]
        wanted: dict[int, int] = {}
        for b in block_of:
            wanted[b] = wanted.get(b, 0) + 1
        for b, hits in wanted.items():
            if b >= 0 and b not in self._blocks and hits >= self.MIN_HITS:
                if len(self._blocks) >= self.KEEP:
                    del self._blocks[next(iter(self._blocks))]
                first = b * self.BLOCK
                self._blocks[b] = board_picks(range(first, first + self.BLOCK), self.count)
        out = np.empty(len(raw), dtype=np.int64)
        for i, (s, b) in enumerate(zip(raw, block_of, strict=True)):
            block = self._blocks.get(b)
            if block is not None:
                out[i] = block[s - b * self.BLOCK]
            else:
                out[i] = int(np.random.default_rng(s).integers(self.count))
        return out


def _hashmix(value: np.ndarray, const: list[int], mult: int) -> np.ndarray:
    """SeedSequence's ``hashmix``: ``const`` (a one-element list) is advanced in place."""
    value = value ^ np.uint32(const[0])
    const[0] = (const[0] * mult) & 0xFFFFFFFF
    value = value * np.uint32(const[0])
    return value ^ (value >> _XSHIFT)


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    result = np.uint32(_MIX_MULT_L) * x - np.uint32(_MIX_MULT_R) * y
    return result ^ (result >> _XSHIFT)


def _seed_state(words: np.ndarray) -> list[np.ndarray]:
    """``SeedSequence(w).generate_state(8, uint32)`` for one-word entropies ``w``."""
    const = [_INIT_A]
    zero = np.zeros_like(words)
    pool = [_hashmix(words if i == 0 else zero, const, _MULT_A) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], const, _MULT_A))
    const = [_INIT_B]
    return [_hashmix(pool[i % _POOL], const, _MULT_B) for i in range(8)]


def _mul128(a: list[np.ndarray], b: list[np.uint64]) -> list[np.ndarray]:
    """``a · b mod 2^128`` on four 32-bit limbs (least significant first) in uint64 arrays."""
    out = [np.zeros_like(a[0]) for _ in range(4)]
    for i in range(4):
        carry = np.zeros_like(a[0])
        for j in range(4 - i):
            t = out[i + j] + a[i] * b[j] + carry  # < 2^32 + (2^32 - 1)^2 + 2^32: no overflow
            out[i + j] = t & _M32
            carry = t >> np.uint64(32)
    return out


def _add128(a: list[np.ndarray], b: list[np.ndarray]) -> list[np.ndarray]:
    out = []
    carry = np.zeros_like(a[0])
    for x, y in zip(a, b, strict=True):
        t = x + y + carry
        out.append(t & _M32)
        carry = t >> np.uint64(32)
    return out


def _first_output_low32(words: np.ndarray) -> np.ndarray:
    """The low 32 bits of ``PCG64(SeedSequence(w)).random_raw()`` per one-word seed ``w``."""
    state32 = [w.astype(np.uint64) for w in _seed_state(words)]
    # generate_state(4, uint64) views the uint32 words in pairs (little endian): uint64 k is
    # words 2k (low half) and 2k + 1; the seed is (u0 << 64) | u1, the stream (u2 << 64) | u3
    seed = [state32[2], state32[3], state32[0], state32[1]]
    stream = [state32[6], state32[7], state32[4], state32[5]]
    # inc = (stream << 1) | 1, on four limbs
    inc = []
    carry = np.zeros_like(words, dtype=np.uint64)
    for limb in stream:
        inc.append(((limb << np.uint64(1)) | carry) & _M32)
        carry = limb >> np.uint64(31)
    inc[0] = inc[0] | np.uint64(1)
    # srandom: state = 0; step; state += seed; step; then the first output's step
    state = inc  # 0 · mult + inc
    state = _add128(state, seed)
    for _ in range(2):
        state = _add128(_mul128(state, _MULT_LIMBS), inc)
    # XSL-RR: rotate (high ^ low) right by the top 6 bits of the state
    high = (state[3] << np.uint64(32)) | state[2]
    low = (state[1] << np.uint64(32)) | state[0]
    x = high ^ low
    rot = state[3] >> np.uint64(26)
    out = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    return out & _M32
