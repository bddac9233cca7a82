"""Small exact solvers the partial players lean on: blocking and chill assignment.

Source: davechurchill/PrismataAI ``BlockIterator`` and ``ChillIterator`` (their search orders
and pruning, re-expressed here).

* :func:`solve_blocks`: branch and bound over blocker assignments, blockers merged into
  classes of identical units, minimising the summed loss of a heuristic.
* :func:`max_chill_used`: how much defense an opponent's chillers can freeze at most, from a
  histogram of chill amounts and one of blocker health (the "enemy chill usage" estimate).
"""

from __future__ import annotations

from collections.abc import Callable

from stratagem.envs.prismata.rules import PrismataState

__all__ = ["iso_key", "max_chill_used", "solve_blocks", "solve_blocks_with_loss"]

LossFn = Callable[[PrismataState, int, int, int], float]


def iso_key(state: PrismataState, player: int, s: int) -> tuple[int, ...]:
    """Units with equal keys are interchangeable (the reference's ``isIsomorphic``)."""
    return state.unit_record(player, s)


def solve_blocks(state: PrismataState, player: int, loss: LossFn) -> list[int]:
    """Blocking order for ``player`` that absorbs the incoming attack at the least loss.

    Returns the slots to assign, in order; the last one absorbs what is left.
    """
    return solve_blocks_with_loss(state, player, loss)[0]


def solve_blocks_with_loss(
    state: PrismataState, player: int, loss: LossFn, attack: int | None = None
) -> tuple[list[int], float]:
    """:func:`solve_blocks` and the least loss it found.

    ``attack`` replaces the incoming attack (the opponent's attack by default).
    """
    if attack is None:
        attack = state.attack(1 - player)
    if attack <= 0:
        return [], 0.0
    classes: list[list[int]] = []  # per class: slots
    keys: dict[tuple[int, ...], int] = {}
    for s in state.live_slots(player):
        if state.can_block(player, s):
            key = state.unit_record(player, s)
            if key in keys:
                classes[keys[key]].append(s)
            else:
                keys[key] = len(classes)
                classes.append([s])
    if not classes:
        return [], 0.0
    n = len(classes)
    health = [state.unit_hp(player, c[0]) for c in classes]
    blocking = [0] * n
    best = {"loss": float("inf"), "counts": None, "last": -1}
    cache: dict[tuple[int, int], float] = {}

    def h(ci: int, damage: int) -> float:
        key = (ci, damage)
        value = cache.get(key)
        if value is None:
            value = cache[key] = loss(state, player, classes[ci][0], damage)
        return value

    last = [-1]

    def recurse(depth: int, remaining: int, total: float) -> None:
        if remaining == 0:
            if total < best["loss"]:
                best["loss"] = total
                best["counts"] = blocking[:]
                best["last"] = last[0]
            return
        if total > best["loss"]:
            return
        for ci in range(n):
            if blocking[ci] < len(classes[ci]) and health[ci] >= remaining:
                value = h(ci, remaining)
                last[0] = ci
                blocking[ci] += 1
                recurse(depth, 0, total + value)
                blocking[ci] -= 1
                last[0] = -1
                if depth == 0 and value == 0:
                    return
        if blocking[depth] < len(classes[depth]):
            take = health[depth] if health[depth] < remaining else remaining
            value = h(depth, remaining)
            blocking[depth] += 1
            recurse(depth, remaining - take, total + value)
            blocking[depth] -= 1
        if depth + 1 < n:
            recurse(depth + 1, remaining, total)

    recurse(0, attack, 0.0)
    counts = best["counts"]
    if counts is None:  # cannot happen when the attack is below the total defense
        return [s for c in classes for s in c], float("inf")
    last_class = best["last"]
    order: list[int] = []
    used = [0] * n
    for ci in range(n):
        k = counts[ci] - (1 if ci == last_class else 0)
        for _ in range(k):
            order.append(classes[ci][used[ci]])
            used[ci] += 1
    if last_class >= 0:
        order.append(classes[last_class][used[last_class]])
    return order, best["loss"]


def max_chill_used(chills: list[int], defenders: list[int], max_nodes: int = 0) -> tuple[int, bool]:
    """Most defender health that chillers of these amounts can freeze.

    Args:
        chills: Chill amount of each available chiller.
        defenders: Health of each blocker.
        max_nodes: Search node cap (0: no cap).

    Returns:
        ``(health frozen, solved)``; ``solved`` is False when the cap stopped the search (the
        value is then the best found, at least the greedy lower bound).
    """
    if not chills or not defenders:
        return 0, True
    total_chill = sum(chills)
    largest_def = max(defenders)
    chill_hist = [0] * (max(chills) + 1)
    for c in chills:
        chill_hist[c] += 1
    def_hist = [0] * (largest_def + 1)
    for d in defenders:
        def_hist[d] += 1
    # a feasible greedy assignment gives the lower bound: largest defenders first, each frozen
    # by the smallest single chiller that suffices, else by the largest chillers left
    lower = 0
    pool = sorted(chills)
    for d in sorted(defenders, reverse=True):
        single = next((c for c in pool if c >= d), None)
        if single is not None:
            pool.remove(single)
            lower += d
            continue
        if sum(pool) < d:
            continue
        got = 0
        while got < d:
            got += pool.pop()
        lower += d
    best = {"used": lower, "wasted": 1 << 30, "nodes": 0}

    class _Stop(Exception):
        pass

    def recurse(used: int, wasted: int, index: int, partial: int) -> None:
        best["nodes"] += 1
        if used > best["used"] or (used == best["used"] and wasted < best["wasted"]):
            best["used"], best["wasted"] = used, wasted
        if total_chill - wasted <= best["used"] or wasted > best["wasted"]:
            return
        if max_nodes and best["nodes"] >= max_nodes:
            raise _Stop
        lo, hi = index, largest_def + 1
        if partial > 0:
            hi = index + 1
        for d in range(lo, hi):
            if def_hist[d] == 0:
                continue
            need = d - partial
            top = len(chill_hist)
            for c in range(max(need, 1), len(chill_hist)):
                if chill_hist[c] > 0:
                    top = c + 1
                    break
            for c in range(1, top):
                if chill_hist[c] == 0:
                    continue
                chill_hist[c] -= 1
                if partial + c >= d:
                    def_hist[d] -= 1
                    recurse(used + d, wasted + partial + c - d, index, 0)
                    def_hist[d] += 1
                else:
                    recurse(used, wasted, d, partial + c)
                chill_hist[c] += 1

    try:
        recurse(0, 0, 0, 0)
    except _Stop:
        return best["used"], False
    return best["used"], True
