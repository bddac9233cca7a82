"""The card library compiled to one integer table for the compiled engine.

Row ``t`` of :func:`card_table` holds every fact of library card ``t`` that the rules read, as
plain integers at the column offsets below: the per-card constants of
:mod:`stratagem.envs.prismata.data` and the card's three scripts (start, ability, on-buy), each a
fixed-width block. The values are read from ``data.py``'s own compiled constants (``C_HP``,
``C_START``, ...), never retyped, so the table cannot drift from the readable rules; the widths of
the variable-length parts (sacrifices, creations, destructions) are checked against the library
when the table is built.

This module imports no numba: the numbers are plain numpy, and the column constants are module
globals that the engine's compiled functions freeze at compile time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stratagem.envs import compiled_common
from stratagem.envs.prismata import cards as _cards
from stratagem.envs.prismata import data as _data
from stratagem.envs.prismata.cards import CARDS, NUM_CARDS
from stratagem.envs.prismata.data import (
    C_ABILITY,
    C_BLOCK,
    C_BLOCK_USED,
    C_BUILD,
    C_BUY_SAC,
    C_CHARGES,
    C_CLICK,
    C_COST,
    C_FRAGILE,
    C_FRESH_STATUS,
    C_FRONT,
    C_HAS_ABILITY,
    C_HP,
    C_HP_CAP,
    C_HP_GAIN,
    C_LIFE,
    C_ON_BUY,
    C_SPELL,
    C_START,
    C_SUPPLY,
    C_TARGET,
    C_TECH,
)

__all__ = ["NCOLS", "SOURCE_DIGEST", "card_table"]

# Fixed widths of the variable-length parts (the library needs 1, 1, 2 and 1).
MAX_BUY_SAC = 1
MAX_SAC = 1
MAX_CREATE = 2
MAX_DESTROY = 1

# ---- per-card constants
HP, BUILD, LIFE, CHARGES = 0, 1, 2, 3
BLOCK, BLOCK_USED, FRONT, FRAGILE, CLICK, FRESH = 4, 5, 6, 7, 8, 9
HAS_ABILITY, HP_GAIN, HP_CAP, SUPPLY, SPELL, TECH, ECON = 10, 11, 12, 13, 14, 15, 16
COST = 17  # six resources
BUY_SAC_N = 23
BUY_SAC = 24  # (card, count) pairs
# targeted click: has one, snipe (else chill), chill amount, snipe's health limit (-1: none),
# snipe needs a tech target
TGT, TGT_SNIPE, TGT_AMOUNT, TGT_HP_MAX, TGT_TECH = (BUY_SAC + 2 * MAX_BUY_SAC + i for i in range(5))
SCRIPTS = TGT_TECH + 1

# ---- one script block, at SCRIPTS + kind * SW (kind: START, ABILITY, ON_BUY)
S_HAS, S_PLAIN, S_HP_COST, S_SELFSAC, S_DELAY = 0, 1, 2, 3, 4
S_COST, S_GAIN, S_GIVE = 5, 11, 17  # six resources each
S_RES_CARD = 23  # resonate: card (-1: none), then six resources per active unit of it
S_RES_GAIN = 24
S_SAC_N = 30
S_SAC = 31  # (card, count) pairs
S_CREATE_N = S_SAC + 2 * MAX_SAC
S_CREATE = S_CREATE_N + 1  # (card, count, delay, lifespan, enemy)
S_DESTROY_N = S_CREATE + 5 * MAX_CREATE
S_DESTROY = S_DESTROY_N + 1  # (card, count, not_blocking)
SW = S_DESTROY + 3 * MAX_DESTROY
START, ABILITY, ON_BUY = SCRIPTS, SCRIPTS + SW, SCRIPTS + 2 * SW
NCOLS = SCRIPTS + 3 * SW


def _script(row: np.ndarray, base: int, script: object) -> None:
    """Write one compiled ``_Script`` (or ``None``) into the block at ``base``."""
    if script is None:
        row[base + S_RES_CARD] = -1
        return
    row[base + S_HAS] = 1
    row[base + S_PLAIN] = int(script.plain)
    row[base + S_HP_COST] = script.hp_cost
    row[base + S_SELFSAC] = int(script.selfsac)
    row[base + S_DELAY] = script.delay
    for offset, amounts in ((S_COST, script.cost), (S_GAIN, script.gain), (S_GIVE, script.give)):
        if amounts is not None:
            row[base + offset : base + offset + 6] = amounts
    if script.resonate is None:
        row[base + S_RES_CARD] = -1
    else:
        row[base + S_RES_CARD] = script.resonate[0]
        row[base + S_RES_GAIN : base + S_RES_GAIN + 6] = script.resonate[1]
    parts = (
        (S_SAC_N, S_SAC, 2, MAX_SAC, script.sac),
        (S_CREATE_N, S_CREATE, 5, MAX_CREATE, script.create),
        (S_DESTROY_N, S_DESTROY, 3, MAX_DESTROY, script.destroy),
    )
    for count_col, first, width, most, items in parts:
        if len(items) > most:  # pragma: no cover - guards a library change
            raise ValueError(f"compiled Prismata table: a script has {len(items)} > {most} items")
        row[base + count_col] = len(items)
        for i, item in enumerate(items):
            at = base + first + width * i
            row[at : at + width] = [int(x) for x in item]


def card_table() -> np.ndarray:
    """The ``NUM_CARDS × NCOLS`` int64 table of every card (C-contiguous, read-only).

    Raises:
        ValueError: If a card needs more sacrifices, creations or destructions than the fixed
            widths hold (the compiled engine would otherwise mis-simulate it).
    """
    table = np.zeros((NUM_CARDS, NCOLS), dtype=np.int64)
    for t, card in enumerate(CARDS):
        row = table[t]
        for col, values in (
            (HP, C_HP),
            (BUILD, C_BUILD),
            (LIFE, C_LIFE),
            (CHARGES, C_CHARGES),
            (BLOCK, C_BLOCK),
            (BLOCK_USED, C_BLOCK_USED),
            (FRONT, C_FRONT),
            (FRAGILE, C_FRAGILE),
            (CLICK, C_CLICK),
            (FRESH, C_FRESH_STATUS),
            (HAS_ABILITY, C_HAS_ABILITY),
            (HP_GAIN, C_HP_GAIN),
            (HP_CAP, C_HP_CAP),
            (SUPPLY, C_SUPPLY),
            (SPELL, C_SPELL),
            (TECH, C_TECH),
        ):
            row[col] = int(values[t])
        row[ECON] = int(card.econ)
        row[COST : COST + 6] = C_COST[t]
        if len(C_BUY_SAC[t]) > MAX_BUY_SAC:  # pragma: no cover - guards a library change
            raise ValueError(f"compiled Prismata table: {card.name} has too many buy sacrifices")
        row[BUY_SAC_N] = len(C_BUY_SAC[t])
        for i, (sac_card, n) in enumerate(C_BUY_SAC[t]):
            row[BUY_SAC + 2 * i : BUY_SAC + 2 * i + 2] = (sac_card, n)
        target = C_TARGET[t]
        if target is not None:
            snipe, amount, hp_at_most, tech = target
            row[TGT : TGT_TECH + 1] = (1, int(snipe), amount, hp_at_most, int(tech))
        _script(row, START, C_START[t])
        _script(row, ABILITY, C_ABILITY[t])
        _script(row, ON_BUY, C_ON_BUY[t])
    table.setflags(write=False)
    return table


def _source_digest() -> int:
    """CRC-32 of every source the compiled code freezes (see ``engine.baked_digest``).

    numba keys its on-disk cache on a function's own file only, so machine code compiled from
    one module keeps the constants and inlined callees of the others as they were; comparing
    this number with the one frozen in each compiled module finds such stale code.
    """
    here = Path(__file__).resolve().parent
    names = ("tables", "layout", "engine", "phases", "actions", "bot")
    files = [here / f"{name}.py" for name in names]
    files += [Path(_data.__file__), Path(_cards.__file__)]
    return compiled_common.source_digest(files)


#: The digest of the current sources.
SOURCE_DIGEST = _source_digest()
