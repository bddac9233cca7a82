"""Prismata's agents use the State's public queries, never its packed storage or rule internals.

Issue 16: the scripted players once indexed the state's packed unit list (``state.u[p][s * K +
HP]``) and called its rule internals (``state._targets_for``), so the rules' storage could not
change without breaking them. The state now answers their questions
(:class:`~stratagem.envs.prismata.queries.StateQueries`); this test keeps it that way.

What counts as reaching into the state, read from the source with :mod:`ast`, in every module of
``stratagem.baselines.prismata`` and in any module of ``baselines``, ``wrappers`` or
``training`` that imports ``stratagem.envs.prismata``:

* the attribute ``u``, ``live``, ``res`` or ``supply`` (the state's packed storage: unit records,
  living slots, resources, supply) on any object: no agent object has attributes of those
  names, so every such access is one of the state's;
* an attribute whose name starts with one underscore (``x._cs``, ``x._targets_for(...)``) on
  any object but ``self``/``cls``, or an object the same function made with ``Cls.__new__``
  (the fast-copy idiom: a class filling in its own fresh instance). Dunder names are public.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The state's packed storage: attribute names agents must not touch on any object.
PACKED = frozenset({"u", "live", "res", "supply"})


def _modules() -> list[Path]:
    """The Prismata agents, and any module of the upper layers that imports the game's rules."""
    found = sorted((ROOT / "baselines" / "prismata").rglob("*.py"))
    for folder in ("baselines", "wrappers", "training"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path not in found and "stratagem.envs.prismata" in path.read_text():
                found.append(path)
    return found


def _fresh_instances(func: ast.AST) -> set[str]:
    """Names a function binds to ``Cls.__new__(...)``: its own new objects, like ``self``."""
    names = set()
    for node in ast.walk(func):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "__new__"
        ):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def violations(source: str) -> list[str]:
    """``line: expression`` of every access to the state's storage or private members."""
    tree = ast.parse(source)
    own: dict[int, set[str]] = {}  # id of an Attribute node -> names that count as self there
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            fresh = _fresh_instances(func) | {"self", "cls"}
            for node in ast.walk(func):
                if isinstance(node, ast.Attribute):
                    own.setdefault(id(node), set()).update(fresh)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if name in PACKED:
            out.append(f"{node.lineno}: {ast.unparse(node)} (packed state storage)")
            continue
        if not name.startswith("_") or name.startswith("__"):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in own.get(id(node), {"self", "cls"}):
            continue
        out.append(f"{node.lineno}: {ast.unparse(node)} (private member of another object)")
    return out


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_agents_use_public_state_queries(path: Path) -> None:
    """No agent module reads the packed unit list or calls a private member of the state."""
    found = violations(path.read_text())
    assert not found, (
        f"{path.relative_to(ROOT)} reaches into the Prismata state; use (or add) a public query "
        f"of PrismataState (envs/prismata/queries.py) instead:\n  " + "\n  ".join(found)
    )


def test_the_check_sees_what_it_forbids() -> None:
    """The checker flags packed-array indexing and private calls, and allows the copy idiom."""
    bad = """
def f(state, p, s):
    hp = state.u[p][s * 8 + 1]
    for x in state.live[p]:
        state._targets_for(x, p)
    return turn.state.res[5], other._cache
"""
    found = violations(bad)
    assert len(found) == 5, found
    good = """
class Turn:
    def copy(self):
        t = Turn.__new__(Turn)
        t._snaps = self._snaps[:]
        return t

    def f(self, state, p, s):
        return state.unit_hp(p, s), state.live_slots(p), state.__class__, self._x
"""
    assert violations(good) == []


def test_queries_agree_with_the_unit_snapshots() -> None:
    """Along random games, every per-unit query says what :meth:`PrismataState.unit` says."""
    from stratagem.envs.prismata import PrismataGame
    from stratagem.envs.prismata.data import ACTION, C_TARGET, STATUS_NAMES

    game = PrismataGame(cards="random:8", max_rounds=12)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        keys = {state.position_key()}
        while not state.is_terminal():
            for p in (0, 1):
                views = state.units(p)
                assert [v.slot for v in views] == state.live_slots(p)
                assert state.num_units(p) == len(views)
                assert state.total_health(p) == sum(v.hp for v in views)
                for v in views:
                    s = v.slot
                    record = (v.card, v.hp, v.chill, v.build, v.delay, v.lifespan, v.charges)
                    assert state.unit_record(p, s)[:7] == record
                    assert STATUS_NAMES[state.unit_record(p, s)[7]] == v.status
                    assert (
                        state.unit_card(p, s),
                        state.unit_hp(p, s),
                        state.unit_chill(p, s),
                        state.unit_build(p, s),
                        state.unit_delay(p, s),
                        state.unit_lifespan(p, s),
                        state.unit_charges(p, s),
                    ) == record
                    assert state.unit_clicked(p, s) == (v.status == "used")
                    assert state.unit_active(p, s) == (v.build == 0 and v.delay == 0)
                for card in state.cards_present:
                    assert state.card_in_game(card)
                    assert state.count_built_within(p, card, 0) == sum(
                        1 for v in views if v.card == card and v.build == 0
                    )
            p = state.current_player
            legal = state.legal_action_list()
            if state.phase == ACTION and state.pending < 0:
                for s in state.live_slots(1 - p):
                    can = game.layout.front0 + s in legal
                    assert state.can_attack_frontline(p, s) == can
                for s in state.live_slots(p):
                    if state.can_use(p, s) and C_TARGET[state.unit_card(p, s)] is not None:
                        assert state.click_targets(p, s)
            state.apply(legal[int(rng.integers(len(legal)))])
            keys.add(state.position_key())
            assert state.position_key() == state.clone().position_key()
        assert len(keys) > 10


def test_take_back_click_restores_the_position() -> None:
    """Taking back a Drone's click gives back the position from before it."""
    from stratagem.envs.prismata import PrismataGame

    state = PrismataGame(cards="base").new_initial_state(0)
    drone = state.live_slots(0)[0]
    before = state.position_key()
    assert not state.unit_clicked(0, drone)
    state.apply(state.game.layout.use0 + drone)
    assert state.unit_clicked(0, drone) and state.position_key() != before
    state.take_back_click(0, drone)
    assert state.position_key() == before
    with pytest.raises(ValueError):
        state.take_back_click(0, drone)
