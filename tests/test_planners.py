"""Search planners: known answers on scenarios and a solved game, budgets, seeds and options."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from typing import Any

import numpy as np
import pytest

from stratagem.baselines import make_agent
from stratagem.baselines.bench import agent_throughput
from stratagem.baselines.evaluators import TerminalEvaluator, default_evaluator, make_evaluator
from stratagem.baselines.search import (
    PACKAGED_PRESETS,
    MCAgent,
    MCTSAgent,
    MCTSUnitAgent,
    OSLAAgent,
    RHEAAgent,
    end_turn_action,
    load_agent_file,
)
from stratagem.envs.core import Game, GameSpec, SpatialActionLayout, State
from stratagem.envs.kill_the_king import KillTheKingGame
from stratagem.envs.registry import list_games, make_game

# ------------------------------------------------------------------------------ a solved game


class NimGame(Game):
    """Multi-action Nim: a turn takes one stone per action, one or two per turn, then END_TURN.

    Whoever takes the last stone wins at once. A player starting a turn with a multiple of 3
    stones loses against best play. Actions: 0 = take, 1 = end_turn.
    """

    def __init__(self, *, stones: int = 10, players: int = 2, groups: bool = False) -> None:
        self.stones = stones
        self.groups = groups
        self.spec = GameSpec(
            name="turn_nim",
            version=1,
            num_players=players,
            action_size=2,
            observation_shape=(1, 1, 1),
            max_game_length=3 * stones,
            action_layout=SpatialActionLayout(1, 1, ("take",), ("end_turn",)),
            config={"stones": stones, "players": players},
        )

    def new_initial_state(self, seed: int | None = None) -> NimState:
        return NimState(self, self.stones, 0, 0, None)

    def action_to_string(self, action: int) -> str:
        return ("take", "end_turn")[action]

    def string_to_action(self, text: str) -> int:
        return ("take", "end_turn").index(text)

    def _state_from_dict(self, data: Any) -> NimState:
        return NimState(self, data["stones"], data["taken"], data["player"], data["winner"])


class NimState(State):
    def __init__(
        self, game: NimGame, stones: int, taken: int, player: int, winner: int | None
    ) -> None:
        self.game = game
        self.stones, self.taken, self.current_player, self.winner = stones, taken, player, winner

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(2, dtype=bool)
        if self.winner is None:
            mask[0] = self.stones > 0 and self.taken < 2
            mask[1] = self.taken >= 1
        return mask

    def apply(self, action: int) -> None:
        if not self.legal_action_mask()[action]:
            raise self.illegal(action, "not legal")
        if action == 0:
            self.stones -= 1
            self.taken += 1
            if self.stones == 0:
                self.winner = self.current_player
        else:
            self.current_player = (self.current_player + 1) % self.game.spec.num_players
            self.taken = 0

    def clone(self) -> NimState:
        return NimState(self.game, self.stones, self.taken, self.current_player, self.winner)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> np.ndarray:
        n = self.game.spec.num_players
        out = np.zeros(n)
        if self.winner is not None:
            out[:] = -1.0 / (n - 1)
            out[self.winner] = 1.0
        return out

    def observation(self, player: int) -> np.ndarray:
        return np.zeros((1, 1, 1), dtype=np.float32)

    def _to_dict(self) -> dict[str, Any]:
        return {
            "stones": self.stones,
            "taken": self.taken,
            "player": self.current_player,
            "winner": self.winner,
        }

    def action_group(self, action: int) -> str:
        if not self.game.groups:
            raise AttributeError("action_group")
        return "take" if action == 0 else "turn"


def nim_state(stones: int, taken: int, player: int = 0, players: int = 2) -> NimState:
    return NimState(NimGame(players=players), stones, taken, player, None)


# ------------------------------------------------------------------------------ a counting wrapper


class CountingState(State):
    """Wraps a state and counts every ``apply`` made on it or on any of its clones."""

    calls = 0

    def __init__(self, inner: State) -> None:
        self.inner = inner
        self.game = inner.game

    @property
    def current_player(self) -> int:  # type: ignore[override]
        return self.inner.current_player

    def apply(self, action: int) -> None:
        CountingState.calls += 1
        self.inner.apply(action)

    def clone(self) -> CountingState:
        return CountingState(self.inner.clone())

    def legal_action_mask(self) -> np.ndarray:
        return self.inner.legal_action_mask()

    def legal_action_list(self) -> list[int]:
        return self.inner.legal_action_list()

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> np.ndarray:
        return self.inner.returns()

    def observation(self, player: int) -> np.ndarray:
        return self.inner.observation(player)

    def _to_dict(self) -> dict[str, Any]:
        return self.inner._to_dict()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


# ------------------------------------------------------------------------- Kill The King scenarios


def ktk_state(layout: str, health: dict[int, int] | None = None) -> Any:
    """A Kill The King state on an inline board, with some units' health changed."""
    game = KillTheKingGame(map=layout)
    state = game.new_initial_state()
    if health:
        data = json.loads(state.to_json())
        for uid, hp in health.items():
            data["state"]["hp"][uid] = hp
        state = game.state_from_json(json.dumps(data))
    return state


# Player 0's Warrior (unit 1) stands next to the wounded enemy King (unit 2): attacking wins.
WIN_BOARD = """
M M M M M M M
M k0 . . . . M
M . . w0 k1 . M
M M M M M M M
"""
WIN_HEALTH = {2: 60}
WIN_ACTION = "attack (3,2)->(4,2)"

# Player 0's King (unit 0, 40 health) is walled in; the enemy Warrior (unit 1) on its diagonal
# kills it next turn unless player 0's Archer (unit 2) kills the Warrior (50 health) first. The
# King cannot hit a diagonal. Removing the threat is also what a one-step look-ahead prefers.
THREAT_BOARD = """
M M M M M M M M M
M k0 M . . . . . M
M M w1 . . . . . M
M . a0 . . . . k1 M
M M M M M M M M M
"""
THREAT_HEALTH = {0: 40, 1: 50}

# A corridor: the enemy Warrior (unit 1) two tiles from player 0's King (unit 0, 40 health) can
# step next to it and kill it next turn. Only stepping back (to x=1) escapes; it moves the King
# away from the enemy King, so the heuristic alone prefers anything else: only look-ahead over
# the opponent's turn saves the King.
ESCAPE_BOARD = """
M M M M M M M M M M M
M . . k0 . w1 . . . k1 M
M M M M M M M M M M M
"""
ESCAPE_HEALTH = {0: 40}

PLANNERS = {
    "osla": "osla",
    "mc": "mc:budget=2000",
    "mcts": "mcts:budget=2000",
    "mcts_u": "mcts_u:budget=2000",
    "rhea": "rhea:budget=4000",
    "scsa_ktk_mcts": "scsa_ktk_mcts:budget=3000",
    "scsa_ktk_mcts_u": "scsa_ktk_mcts_u:budget=3000",
}
# OSLA looks one action ahead; the SCSA presets are closed-loop like Stratega's agents, so a node
# keeps the one random opponent reply drawn when it was expanded (see test_closed_loop_...).
LOOKAHEAD = {k: v for k, v in PLANNERS.items() if k in ("mc", "mcts", "mcts_u", "rhea")}


def play_turn(agent: Any, state: Any, seed: int) -> Any:
    """Let ``agent`` play the rest of the current player's turn; returns the state after it."""
    state = state.clone()
    player = state.current_player
    rng = np.random.default_rng(seed)
    for _ in range(50):
        if state.is_terminal() or state.current_player != player:
            return state
        state.apply(agent.act(state.clone(), rng=rng))
    raise AssertionError("the turn did not end")


def opponent_can_win(state: Any) -> bool:
    """Whether the player to move can kill the enemy King within its turn (exhaustive)."""
    player = state.current_player
    if state.is_terminal():
        return state.winner == player
    for action in state.legal_action_list():
        child = state.clone()
        child.apply(action)
        if child.is_terminal() and child.winner == player:
            return True
        if not child.is_terminal() and child.current_player == player and opponent_can_win(child):
            return True
    return False


@pytest.mark.parametrize("spec", PLANNERS.values(), ids=PLANNERS.keys())
def test_finds_one_move_win(spec: str) -> None:
    state = ktk_state(WIN_BOARD, WIN_HEALTH)
    game = state.game
    agent = make_agent(spec, game)
    for seed in range(3):
        agent.reset()
        after = play_turn(agent, state, seed)
        assert after.is_terminal() and after.winner == 0, f"seed {seed}"
    if spec.startswith(("mcts_u", "scsa_ktk_mcts_u", "rhea")):
        # Unit ordering lets the King decide first; a RHEA plan may schedule the kill later in
        # the same turn (it scores the same, the tie-break only separates wins in the turn from
        # wins after it). Either way the win comes within the turn, checked above.
        return
    first = agent.act(state.clone(), rng=np.random.default_rng(7))
    assert game.action_to_string(first) == WIN_ACTION


@pytest.mark.parametrize("spec", PLANNERS.values(), ids=PLANNERS.keys())
def test_removes_a_deadly_threat(spec: str) -> None:
    state = ktk_state(THREAT_BOARD, THREAT_HEALTH)
    assert not opponent_can_win(state)  # it is player 0's turn; sanity of the helper
    after_nothing = state.clone()
    after_nothing.apply(state.game.end_turn_action)
    assert opponent_can_win(after_nothing)
    agent = make_agent(spec, state.game)
    for seed in range(2):
        agent.reset()
        after = play_turn(agent, state, seed)
        assert not after.is_terminal()
        assert not opponent_can_win(after), f"seed {seed}"


#: Seeds (of 10) in which each planner must escape. The tree searches always do; MC and RHEA
#: judge a plan by sampled replies and miss the escape in some seeds (measured over 40 seeds,
#: 2026-11-24: mc 36, rhea 15 before issue 18's sampler and 21 with it), so a fixed pair of
#: seeds would test the random stream rather than the planner.
ESCAPES = {"mc": 7, "mcts": 10, "mcts_u": 10, "rhea": 2}


@pytest.mark.parametrize("name", LOOKAHEAD.keys())
def test_escapes_a_one_move_loss(name: str) -> None:
    state = ktk_state(ESCAPE_BOARD, ESCAPE_HEALTH)
    after_nothing = state.clone()
    after_nothing.apply(state.game.end_turn_action)
    assert opponent_can_win(after_nothing)
    agent = make_agent(LOOKAHEAD[name], state.game)
    escaped = []
    for seed in range(10):
        agent.reset()
        after = play_turn(agent, state, seed)
        assert not after.is_terminal()
        escaped.append(not opponent_can_win(after))
    assert sum(escaped) >= ESCAPES[name], f"escaped in seeds {escaped}"


def test_closed_loop_keeps_one_sampled_reply_and_open_loop_resamples() -> None:
    """With random opponents, a closed-loop tree judges a branch by the single opponent reply
    drawn at its expansion; open loop (the default then) redraws it on every visit."""
    state = ktk_state(ESCAPE_BOARD, ESCAPE_HEALTH)
    game = state.game
    closed = MCTSUnitAgent(game, budget=3000, open_loop=False)
    opened = MCTSUnitAgent(game, budget=3000)
    assert opened.open_loop and not closed.open_loop
    rng = np.random.default_rng(0)
    closed.act(state.clone(), rng=rng)
    assert closed.last_stats.extra["nodes"] > opened.last_stats.extra.get("nodes", 0)
    after = play_turn(opened, state, 1)
    assert not opponent_can_win(after)


def test_osla_is_greedy_and_does_not_see_the_escape() -> None:
    """OSLA's horizon is one action: the escape, which the heuristic dislikes, is not found."""
    state = ktk_state(ESCAPE_BOARD, ESCAPE_HEALTH)
    after = play_turn(make_agent("osla", state.game), state, 0)
    assert opponent_can_win(after)


# ------------------------------------------------------------------------------ solved game


def test_mcts_values_converge_on_nim() -> None:
    # Player 0 has taken one of 10 stones. Ending the turn leaves 9 (a loss for player 1);
    # taking again leaves 8 after the turn (a win for player 1).
    state = nim_state(stones=9, taken=1)
    agent = MCTSAgent(
        state.game, budget=None, iterations=4000, evaluator="terminal", rollout_length=100
    )
    action = agent.act(state, rng=np.random.default_rng(0))
    root = agent.last_stats.extra["root"]
    assert action == 1
    visits_end, values_end = root[1]
    visits_take, values_take = root[0]
    assert visits_end > 5 * visits_take
    assert values_end[0] > 0.9 and values_end[1] < -0.9  # per player, no sign flip
    assert values_take[0] < 0.0 < values_take[1]


@pytest.mark.parametrize("cls", [MCAgent, MCTSAgent, RHEAAgent])
def test_planners_play_nim_correctly_from_every_position(cls: type) -> None:
    game = NimGame()
    kwargs: dict[str, Any] = {"budget": 3000, "evaluator": "terminal"}
    if cls is MCAgent:
        kwargs["rollout_length"] = 40
    elif cls is MCTSAgent:
        kwargs.update(rollout_length=40, rollouts=True)
    agent = cls(game, **kwargs)
    for stones in (4, 5):
        # At the start of a turn with stones % 3 != 0 the winning plan leaves a multiple of 3.
        state = nim_state(stones, 0)
        after = play_turn(agent, state, seed=stones)
        assert after.is_terminal() or after.stones % 3 == 0, (cls.__name__, stones)


def test_three_players_back_up_per_player() -> None:
    state = nim_state(stones=1, taken=1, player=1, players=3)
    agent = MCTSAgent(
        state.game, budget=None, iterations=300, evaluator="terminal", rollout_length=20
    )
    assert agent.act(state, rng=np.random.default_rng(0)) == 0  # take the last stone
    means = agent.last_stats.extra["root"][0][1]
    assert means[1] > 0.9 and means[0] < 0 and means[2] < 0


# ------------------------------------------------------------------------------ budgets


def midgame_state() -> Any:
    game = KillTheKingGame(map="kwah:7")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(25):
        legal = state.legal_action_list()
        state.apply(legal[rng.randrange(len(legal))])
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize(
    "spec",
    [
        "mc:budget=777",
        "mcts:budget=777",
        "mcts_u:budget=777",
        "rhea:budget=777",
        "rhea:budget=777,population=6",
        "scsa_ktk_mcts:budget=777",
        "mcts:budget=777,opponent=random",
        "mc:budget=777,force_end_turn=3",
    ],
)
def test_budget_is_spent_exactly(spec: str) -> None:
    state = midgame_state()
    agent = make_agent(spec, state.game)
    for k in range(3):
        CountingState.calls = 0
        wrapped = CountingState(state.clone())
        action = agent.act(wrapped, rng=np.random.default_rng(k))
        assert action in state.legal_action_list()
        assert agent.last_stats.searched
        assert CountingState.calls == agent.last_stats.fm_calls == 777


def test_osla_spends_one_call_per_action_and_never_more_than_the_budget() -> None:
    state = midgame_state()
    n = len([a for a in state.legal_action_list() if a != state.game.end_turn_action])
    for budget, expected in ((1000, n), (3, 3)):
        CountingState.calls = 0
        agent = OSLAAgent(state.game, budget=budget)
        agent.act(CountingState(state.clone()), rng=np.random.default_rng(0))
        assert CountingState.calls == agent.last_stats.fm_calls == expected


def test_time_limit_stops_the_search() -> None:
    state = midgame_state()
    agent = MCTSAgent(state.game, budget=None, time_limit=0.05)
    agent.act(state.clone(), rng=np.random.default_rng(0))
    assert agent.last_stats.seconds < 1.0 and agent.last_stats.iterations > 0


def test_single_legal_action_is_returned_without_search() -> None:
    state = nim_state(stones=5, taken=2)  # only END_TURN
    agent = MCTSAgent(state.game, budget=100, evaluator="terminal")
    assert agent.act(state, rng=np.random.default_rng(0)) == 1
    assert not agent.last_stats.searched and agent.last_stats.fm_calls == 0


# ------------------------------------------------------------------------------ reproducibility


@pytest.mark.parametrize(
    "spec",
    [
        "osla",
        "mc:budget=500",
        "mcts:budget=500",
        "mcts_u:budget=500",
        "rhea:budget=500,population=4",
        "mcts_u:budget=500,order=random",
    ],
)
def test_same_seed_same_decisions(spec: str) -> None:
    state = midgame_state()

    def run() -> list[tuple[int, int, int]]:
        agent = make_agent(spec, state.game)
        rng = np.random.default_rng(42)
        out, s = [], state.clone()
        for _ in range(4):
            a = agent.act(s.clone(), rng=rng)
            out.append((a, agent.last_stats.iterations, agent.last_stats.fm_calls))
            s.apply(a)
        return out

    assert run() == run()


# ------------------------------------------------------------------------------ specs and options


def test_make_agent_from_spec_and_presets() -> None:
    game = KillTheKingGame(map="kwah:1")
    agent = make_agent("mcts:budget=2000,c=1.414", game)
    assert isinstance(agent, MCTSAgent) and agent.budget == 2000 and agent.c == 1.414
    assert math.isclose(MCTSAgent(game).c, math.sqrt(2)) and MCTSAgent(game).budget == 2000
    preset = make_agent("scsa_ktk_mcts_u", game)
    assert isinstance(preset, MCTSUnitAgent) and preset.budget == 10000 and preset.c == 1.0
    assert make_agent("scsa_ktk_mcts_u:budget=50", game).budget == 50
    assert set(PACKAGED_PRESETS) >= {"tribes_mcts", "tribes_rhea", "scsa_ktk_mcts"}
    with pytest.raises(ValueError, match="unexpected keyword|got an unexpected"):
        make_agent("mcts:budgte=5", game)
    with pytest.raises(ValueError, match="budget"):
        make_agent("mcts:budget=0", game)
    with pytest.raises(ValueError, match="opponent"):
        make_agent("mcts:opponent=smart", game)


def test_agent_spec_with_a_key_given_twice_is_refused() -> None:
    """``budget=100,budget=200`` used to keep the last value without a word."""
    game = KillTheKingGame(map="kwah:1")
    with pytest.raises(ValueError, match="parameter 'budget' is given twice"):
        make_agent("mcts:budget=100,budget=200", game)


def test_game_specific_agents_are_refused_and_unlisted_on_other_games() -> None:
    """A paper's preset or a game's own agent is refused at construction on another game.

    ``tribes_mcts`` on Push Them All used to fail inside its first decision ("prioritize_root
    needs state.action_group"); the unknown-agent error of Kill The King listed every game's
    agents (cotg_*, prismata_*, tribes_*).
    """
    pta = make_game("push_them_all")
    with pytest.raises(
        ValueError, match="'tribes_mcts' is made for tribes only, not push_them_all"
    ):
        make_agent("tribes_mcts", pta)
    ktk = KillTheKingGame(map="kwah:1")
    with pytest.raises(ValueError, match="'prismata_master' is made for prismata only"):
        make_agent("prismata_master", ktk)
    with pytest.raises(
        ValueError, match="unknown agent 'nobody'; agents for kill_the_king:"
    ) as err:
        make_agent("nobody", ktk)
    listed = str(err.value).split(": ", 1)[1].split(", ")
    assert {"mcts", "rule_based", "scsa_ktk_mcts"} <= set(listed)
    assert not [n for n in listed if n.startswith(("tribes_", "cotg_", "prismata_"))], listed
    assert make_agent("tribes_mcts:budget=10", make_game("tribes")).budget == 10


def test_agent_file(tmp_path: Any) -> None:
    path = tmp_path / "agents.toml"
    path.write_text(
        '[fast]\nagent = "mcts"\nbudget = 100\nrollouts = true\nexclude_kinds = "heal|empty"\n',
        encoding="utf-8",
    )
    assert load_agent_file(path) == {
        "fast": "mcts:budget=100,rollouts=true,exclude_kinds=heal|empty"
    }
    path.write_text("[bad]\nbudget = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="needs agent"):
        load_agent_file(path)
    # a file's presets become plain specs, which cannot keep a game restriction: not ignored
    path.write_text('[mine]\nagent = "mcts"\ngames = ["tribes"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[mine\]: games is for the packaged presets only"):
        load_agent_file(path)


def test_mcts_u_needs_units_and_names_the_game() -> None:
    agent = MCTSUnitAgent(NimGame(), budget=50, evaluator="terminal")
    with pytest.raises(ValueError, match="turn_nim.*action_unit|action_unit.*turn_nim"):
        agent.act(nim_state(5, 1), rng=np.random.default_rng(0))


def test_root_prioritisation_needs_groups_and_uses_one_group() -> None:
    game = KillTheKingGame(map="kwah:1")
    agent = MCTSAgent(game, budget=50, prioritize_root=True)
    with pytest.raises(ValueError, match="kill_the_king"):
        agent.act(game.new_initial_state(), rng=np.random.default_rng(0))
    grouped = NimGame(groups=True)
    agent = MCAgent(grouped, budget=50, evaluator="terminal", prioritize_root=True)
    state = NimState(grouped, 5, 1, 0, None)
    agent._bind(state)
    seen = {tuple(agent._root_actions(state, [0, 1], random.Random(s))) for s in range(20)}
    assert seen == {(0,), (1,)}


def test_excluded_kinds_are_never_played() -> None:
    state = midgame_state()
    agent = make_agent("mcts:budget=200,exclude_kinds=empty|end_turn|move", state.game)
    s = state.clone()
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = agent.act(s.clone(), rng=rng)
        kind = state.game.action_to_string(a).split()[0]
        legal_kinds = {state.game.action_to_string(x).split()[0] for x in s.legal_action_list()}
        assert kind not in {"empty", "end_turn", "move"} or legal_kinds <= {
            "empty",
            "end_turn",
            "move",
        }
        s.apply(a)


def test_forced_end_turn_in_rollouts() -> None:
    state = midgame_state()
    game = state.game
    agent = MCAgent(game, budget=100, force_end_turn=3)
    agent._bind(state)
    agent._limit, agent._calls = 100, 0
    played: list[int] = []

    class Recorder(CountingState):
        def apply(self, action: int) -> None:
            played.append(action)
            self.inner.apply(action)

    agent._bind(Recorder(state))
    agent._rollout(Recorder(state.clone()), 7, random.Random(0), depth=1)
    ends = {1 + i for i, a in enumerate(played) if a == game.end_turn_action}
    assert len(played) == 7 and {3, 6} <= ends
    with pytest.raises(ValueError, match="end-turn"):
        MCAgent(_NoEndTurnGame(), budget=10, force_end_turn=2, evaluator="terminal")


class _NoEndTurnGame(NimGame):
    def __init__(self) -> None:
        super().__init__()
        self.spec = dataclasses.replace(self.spec, action_layout=None)


def test_evaluators() -> None:
    game = KillTheKingGame(map="kwah:1")
    assert type(default_evaluator(game)).__name__ == "KillTheKingEvaluator"
    assert isinstance(default_evaluator(NimGame()), TerminalEvaluator)
    assert isinstance(make_evaluator("terminal", game), TerminalEvaluator)
    with pytest.raises(ValueError, match="unknown evaluator"):
        make_evaluator("heuristic", game)
    with pytest.raises(ValueError, match="cannot load"):
        make_evaluator("no.such.module:X", game)
    done = nim_state(1, 0)
    done.apply(0)
    assert TerminalEvaluator().evaluate(done).tolist() == [1.0, -1.0]
    assert end_turn_action(game) == game.end_turn_action
    assert end_turn_action(NimGame()) == 1


def test_agent_throughput() -> None:
    result = agent_throughput(
        "kill_the_king", "mcts:budget=200", seconds=0.2, config={"map": "kwah:3"}
    )
    assert result["decisions"] >= 1
    assert result["fm_calls_per_decision"] == pytest.approx(200)
    assert result["fm_calls_per_s"] > 0 and result["iterations_per_s"] > 0


# ------------------------------------------------------------------------------ every game


@pytest.mark.parametrize("name", list_games())
def test_every_planner_plays_every_registered_game(name: str) -> None:
    """The planners need nothing but the contract.

    MCTS_u also needs ``state.action_unit`` and an end-turn action; a game without them gets an
    error that names it.
    """
    game = make_game(name)
    for spec in (
        "osla:budget=30",
        "mc:budget=30",
        "mcts:budget=30",
        "rhea:budget=30",
        "mcts:budget=30,opponent=random",
        "mcts_u:budget=30",
    ):
        if spec.startswith("mcts_u") and end_turn_action(game) is None:
            with pytest.raises(ValueError, match=name):
                make_agent(spec, game)
            continue
        agent = make_agent(spec, game)
        state = game.new_initial_state(seed=1)
        rng = np.random.default_rng(0)
        if spec.startswith("mcts_u") and not hasattr(state, "action_unit"):
            with pytest.raises(ValueError, match=name):
                agent.act(state.clone(), rng=rng)
            continue
        for _ in range(3):
            if state.is_terminal():
                break
            action = agent.act(state.clone(), rng=rng)
            assert state.legal_action_mask()[action], (spec, action)
            assert agent.last_stats.fm_calls <= 30
            state.apply(action)


def test_make_agent_refuses_a_python_keyword_with_type_error_and_a_spec_key_with_value_error():
    game = KillTheKingGame(map="kwah:1")
    for spec in ("mcts", "random", "rule_based", "scsa_ktk_mcts"):
        with pytest.raises(TypeError, match="unexpected keyword argument 'budgett'"):
            make_agent(spec, game, budgett=10)
        with pytest.raises(ValueError, match="budgett"):
            make_agent(f"{spec}:budgett=10", game)
    assert make_agent("mcts", game, budget=10).budget == 10
    with pytest.raises(TypeError, match="agent spec string or an agent, got 42"):
        make_agent(42, game)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a Game"):
        make_agent("mcts", "kill_the_king")  # type: ignore[arg-type]
