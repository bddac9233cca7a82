"""The compiled Prismata engine is the readable rules, decision for decision (issue 18).

``stratagem.envs.prismata.compiled`` is a second implementation of the rules in numba. These
tests hold it to the Python rules, the one definition:

* step level: random games (actions drawn in Python) over the base set, random card sets that
  cover the whole pool, small unit limits and hand-made positions; at every decision the compiled
  legal action list equals ``legal_action_list()``, the compiled buffer equals ``encode`` of the
  Python state, ``decode`` of the buffer equals the state, and the terminal flag and returns
  agree;
* bot: the compiled Random bot records its draws; the Python ``prismata_random`` agent, fed the
  same draws, takes exactly the compiled bot's actions and ends in the same position;
* the Python boundary refuses bad input (illegal actions, foreign or corrupt buffers) with a
  clear error and leaves the buffer untouched.

The default run plays a few hundred games; ``-m slow`` plays thousands.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numba")

from stratagem.baselines import make_agent
from stratagem.envs.core import IllegalActionError
from stratagem.envs.prismata import BASE_SET, CARDS, POOL, PrismataGame
from stratagem.envs.prismata import compiled as C
from stratagem.envs.prismata.compiled import layout as L
from stratagem.envs.prismata.rules import PrismataState

BASE = PrismataGame(cards="base", max_rounds=40)


def _positions() -> list[PrismataState]:
    """Hand-made positions reaching rules that random openings reach rarely."""
    chill = PrismataGame(cards="Shiver Yeti,Tatsu Nullifier,Thunderhead", max_rounds=40)
    snipe = PrismataGame(cards="Apollo,Kinetic Driver,Deadeye Operative,Xaetron", max_rounds=40)
    made = PrismataGame(cards="Corpus,Cluster Bolt,Amporilla,Savior,Odin", max_rounds=40)
    clicks = "The Wincer,Odin,Tia Thurnax,Arka Sodara,Venge Cannon,Cauterizer,Drake,Vai Mauronax"
    clicks += ",Zemora Voidbringer,Lucina Spinos,Plasmafier,Tatsu Nullifier,Deadeye Operative"
    dear = PrismataGame(cards=clicks, max_rounds=40)
    return [
        BASE.position([["Drone", "Wall", "Tarsier:build=1", "Forcefield"], ["Drone"]]),
        BASE.position([["Drone"], ["Wall", "Drone*3", "Steelsplitter"]], resources=["4A", ""]),
        BASE.position([["Drone"], ["Forcefield", "Drone*3"]], resources=["1A", ""]),
        BASE.position(
            [["Drone*3", "Wall"], ["Gauss Cannon:hp=2", "Drone*2"]],
            resources=["", "3A"],
            phase="defense",
        ),
        BASE.position(
            [["Drone*2"], ["Tarsier:build=2", "Blastforge:build=1"]], resources=["3A", ""]
        ),
        chill.position(
            [["Shiver Yeti*2", "Tatsu Nullifier", "Drone"], ["Wall", "Thunderhead", "Drone*3"]],
            resources=["12A 4g", ""],
        ),
        chill.position(
            [["Drone"], ["Wall:chill=3", "Drone:chill=1", "Engineer"]],
            resources=["2A", ""],
            phase="breach",
        ),
        snipe.position(
            [
                ["Apollo", "Kinetic Driver", "Deadeye Operative*2", "Drone*2", "Xaetron:hp=9"],
                [
                    "Drone*2:used",
                    "Drone:delay=1",
                    "Drone:life=2",
                    "Drone:chill=1",
                    "Conduit",
                    "Animus",
                ],
            ],
            resources=["10g 6A", ""],
        ),
        made.position(
            [["Corpus", "Amporilla", "Tarsier*3", "Savior:build=1", "Drone*12"], ["Drone*2"]],
            resources=["40g 6R 10G 4B 3E", ""],
        ),
        dear.position(
            [
                [*clicks.split(",")[:-1], "Steelsplitter:used", "Blastforge", "Drone*8:used"],
                ["Wall", "Drone*4:used", "Steelsplitter", "Deadeye Operative"],
            ],
            resources=["20g 8E 8R 12G 6A", ""],
        ),
    ]


RICH = "150g 30E 30B 30R 40G 10A"


def _step_games(n: int, seed0: int) -> list[tuple[PrismataState, int, bool]]:
    """``n`` starting positions.

    The base set, random sets of 8 and 20 cards, a small unit limit, and rich starts: 12 cards
    of the pool in turn (the whole pool every 8 of them), the usual units with 8 more Drones
    clicked already (to sacrifice) and the resources for the dear cards, which random play
    from the usual start rarely affords. The flag asks for eager play (see :func:`_play_both`).
    """
    configs = [
        PrismataGame(cards="base", max_rounds=40),
        PrismataGame(cards="random:8", max_rounds=40),
        PrismataGame(cards="random:20", max_rounds=40),
        PrismataGame(cards="random:12", max_rounds=40, max_units=16),
        PrismataGame(cards="random:12", max_rounds=40),
    ]
    out = []
    for k in range(n):
        seed = seed0 + k
        game = configs[k % len(configs)]
        if k % len(configs) < len(configs) - 1:
            out.append((game.new_initial_state(seed), seed, seed % 2 == 1))
            continue
        first = 12 * (k // len(configs)) % len(POOL)
        extra = [CARDS[POOL[(first + i) % len(POOL)]].name for i in range(12)]
        start = [
            ["Drone*6", "Engineer*2", "Drone*8:used"],
            ["Drone*7", "Engineer*2", "Drone*8:used"],
        ]
        out.append((game.position(start, resources=[RICH, RICH], cards=extra), seed, True))
    return out


def _play_both(
    state: PrismataState, seed: int, eager: bool = False, seen: set | None = None
) -> int:
    """Play a random game through both engines, comparing everything at every decision.

    An ``eager`` player rarely ends its action phase while it can do something else, and
    prefers the pool's cards when it buys: richer positions. ``seen`` collects what was played:
    ``("buy", card)``, ``("use", card)`` and the action kinds.
    """
    rng = random.Random(seed)
    shop = set(state.cards) - set(BASE_SET) if state.resources(0)[0] >= 100 else set()
    buf = C.encode(state)
    end = state.game.end_turn_action
    decisions = 0
    while True:
        legal = state.legal_action_list()
        assert C.legal_actions(buf).tolist() == legal, (seed, decisions)
        assert C.is_terminal(buf) == state.is_terminal()
        assert C.returns(buf).tolist() == state.returns().tolist()
        assert C.decode(buf, state.game) == state, (seed, decisions)
        if not legal:
            return decisions
        busy = [a for a in legal if a != end]
        pool = busy if eager and busy and rng.random() < 0.9 else legal
        rare = [a for a in busy if a < len(CARDS) and a not in BASE_SET]
        if eager and rare and rng.random() < 0.5:
            pool = rare  # the pool's cards, dear ones included
        if shop & set(rare):  # a rich start buys one of each of its pool cards first
            pool = [min(shop & set(rare))]
            shop.discard(pool[0])
        action = pool[rng.randrange(len(pool))]
        if seen is not None:
            kind, arg = state.game.layout.decode(action)
            seen.add(kind)
            if kind == "buy":
                seen.add(("buy", arg))
            elif kind == "use":
                seen.add(("use", state.unit_card(state.current_player, arg)))
        state.apply(action)
        C.apply(buf, action)
        assert np.array_equal(buf, C.encode(state)), (seed, decisions, action)
        decisions += 1


def test_encode_decode_round_trip() -> None:
    for state in _positions():
        buf = C.encode(state)
        assert C.decode(buf, state.game) == state
        assert np.array_equal(C.encode(C.decode(buf, state.game)), buf)


def test_games_play_identically() -> None:
    """Identical games, and every card of the pool bought and every clickable card clicked."""
    seen: set = set()
    for i, state in enumerate(_positions()):
        for seed in range(6):
            _play_both(state.clone(), 1000 * i + seed, seed % 2 == 1, seen)
    for state, seed, eager in _step_games(150, 0):
        _play_both(state, seed, eager, seen)
    assert {"buy", "use", "block", "target", "frontline", "breach", "end_phase"} <= seen
    assert [CARDS[t].name for t in POOL if ("buy", t) not in seen] == []
    assert [c.name for c in CARDS if c.clickable and ("use", c.index) not in seen] == []


@pytest.mark.slow
def test_thousands_of_random_games_play_identically() -> None:
    for state, seed, eager in _step_games(2400, 10_000):
        _play_both(state, seed, eager)


# ---------------------------------------------------------------------------------------------
# the Random bot


class _ReplayedDraws:
    """A stand-in for the agent's ``numpy`` generator that returns the compiled bot's draws."""

    def __init__(self, draws: list[tuple[int, int]]) -> None:
        self.draws = draws
        self.used = 0

    def integers(self, n: int) -> int:
        assert self.used < len(self.draws), "the Python bot draws more often than the compiled"
        options, index = self.draws[self.used]
        assert int(n) == options, f"draw {self.used}: {n} options, compiled had {options}"
        self.used += 1
        return index


def _bot_game_matches(state: PrismataState, seed: int) -> int:
    final, record = C.record_game(state, seed)
    draws = [(int(a), int(b)) for a, b in record if b >= 0]
    actions = [int(a) for a, b in record if b < 0]
    rng = _ReplayedDraws(draws)
    agents = [make_agent("prismata_random", state.game) for _ in range(2)]
    for i, expected in enumerate(actions):
        assert not state.is_terminal()
        action = agents[state.current_player].act(state, rng=rng)
        assert action == expected, (seed, i, state.game.action_to_string(action))
        state.apply(action)
    assert state.is_terminal()
    assert rng.used == len(draws)
    assert C.decode(final, state.game) == state
    return len(actions)


def test_random_bot_takes_the_python_agents_actions() -> None:
    games = [PrismataGame(cards="base"), PrismataGame(cards="random:8")]
    for seed in range(100):
        game = games[seed % 2]
        _bot_game_matches(game.new_initial_state(seed), seed)


@pytest.mark.slow
def test_random_bot_matches_over_many_games() -> None:
    games = [
        PrismataGame(cards="base"),
        PrismataGame(cards="random:8"),
        PrismataGame(cards="random:20"),
    ]
    for seed in range(100, 2100):
        game = games[seed % 3]
        _bot_game_matches(game.new_initial_state(seed), seed)


def test_batches_replay_from_their_seeds() -> None:
    for game, bot in ((PrismataGame(cards="base"), "random"), (PrismataGame(), "uniform")):
        results = C.play_random_games(game, 6, seed=40, bot=bot)
        again = C.play_random_games(game, 6, seed=40, bot=bot)
        assert np.array_equal(results.winners, again.winners)
        for k in range(6):
            final, record = C.record_game(game.new_initial_state(40 + k), 40 + k, bot=bot)
            assert results.winners[k] == final[L.H_WINNER]
            assert results.turns[k] == final[L.H_TURN]
            assert results.decisions[k] == int((record[:, 1] < 0).sum())
        assert set(results.winners.tolist()) <= {-1, 0, 1}
        assert (results.returns.sum(axis=1) == 0).all()


# ---------------------------------------------------------------------------------------------
# the Python boundary


def test_illegal_actions_raise_and_change_nothing() -> None:
    state = BASE.new_initial_state(0)
    buf = C.encode(state)
    before = buf.copy()
    for action in (state.game.layout.size, -1, state.game.layout.target0, 7, 10**12):
        with pytest.raises(IllegalActionError, match="illegal action"):
            C.apply(buf, action)
    for action in (True, 1.0, "0", None):
        with pytest.raises(IllegalActionError, match="integer"):
            C.apply(buf, action)  # type: ignore[arg-type]
    assert np.array_equal(buf, before)
    done = C.encode(state)
    done[L.H_WINNER] = 0
    with pytest.raises(IllegalActionError, match="game is over"):
        C.apply(done, state.game.end_turn_action)


def test_bad_buffers_are_refused() -> None:
    buf = C.encode(BASE.new_initial_state(0))
    with pytest.raises(TypeError):
        C.legal_actions(buf.astype(np.int32))
    with pytest.raises(TypeError):
        C.legal_actions(list(buf))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="magic"):
        C.legal_actions(np.zeros_like(buf))
    with pytest.raises(ValueError, match="max_units"):
        C.legal_actions(buf[:-1].copy())
    readonly = buf.copy()
    readonly.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        C.apply(readonly, BASE.end_turn_action)
    at = L.live_offset(BASE.max_units, 0)
    for index, value, words in (
        (at, 999, "live list"),
        (L.H_NLIVE, 50, "slot counts"),
        (L.H_NLIVE, 5, "occupied"),
        (L.H_NSLOTS, 5000, "slot counts"),
        (L.units_offset(BASE.max_units, 0), 104, "card index"),
        (L.H_PENDING, 3, "pending"),
        (L.H_PLAYER, 2, "header"),
        (L.RES, -1, "negative"),
    ):
        bad = buf.copy()
        bad[index] = value
        with pytest.raises(ValueError, match=words):
            C.apply(bad, BASE.end_turn_action)
        with pytest.raises(ValueError, match=words):
            C.decode(bad, BASE)


def test_buffers_of_another_game_are_refused() -> None:
    buf = C.encode(BASE.new_initial_state(0))
    with pytest.raises(ValueError, match="another game"):
        C.decode(buf, PrismataGame(cards="base", max_rounds=41))
    with pytest.raises(ValueError, match="max_units"):
        C.decode(buf, PrismataGame(cards="base", max_units=64))
    with pytest.raises(ValueError, match="bot"):
        C.play_random_games(BASE, 2, bot="greedy")  # type: ignore[arg-type]


def test_numba_is_imported_only_by_the_compiled_package() -> None:
    code = (
        "import sys\n"
        "import stratagem.envs.prismata, stratagem.envs\n"
        "assert 'numba' not in sys.modules, 'stratagem.envs.prismata imported numba'\n"
        "sys.modules['numba'] = None\n"
        "try:\n"
        "    import stratagem.envs.prismata.compiled\n"
        "except ImportError as exc:\n"
        "    assert 'pip install \"stratagem[fast]\"' in str(exc), exc\n"
        "else:\n"
        "    raise AssertionError('no ImportError without numba')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
