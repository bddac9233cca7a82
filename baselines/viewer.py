"""Replay recorded games, and watch them: ``stratagem replay`` and ``stratagem view``.

A *game record* is a JSON object with the game's registry name (``game``), its configuration
(``config``), the initial state's seed (``seed``) and every action in order (``actions``); a
tournament's JSON Lines file (:func:`stratagem.baselines.tournament.play_task`) holds one record
a line, and a lone record may also be a ``.json`` file. Since the forward model is deterministic
given the seed, these four fields are the whole game: any agent's game, a trained network's
included, replays exactly without the agent.

* :func:`replay_record` plays a record's actions again, checking every action is legal and that
  the outcome is the recorded one; ``stratagem replay <game> <file>`` does it for every record
  of a file (and still replays Terra Mystica's online ledgers, see
  :mod:`stratagem.envs.terra_mystica.replay`).
* :func:`write_viewer` writes one self-contained HTML file to step through a game: the picture
  of the position at every decision, the player to move, the number of legal actions, the action
  taken and its name, and the returns at the end, with buttons, a slider and the arrow keys.
  It loads nothing from the network (no scripts, fonts or images from elsewhere).

Pictures are stored compactly so that a 1,000-decision game stays well under 10 MB: a full
PNG every :data:`KEYFRAME_EVERY` decisions (and whenever the picture's size changes), and in
between only the :data:`TILE`-pixel squares that changed since the previous decision, packed
into one small PNG per decision. The page's script paints a keyframe and the changes after it.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import json
import logging
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.baselines.viewer_page import PAGE_TEMPLATE
from stratagem.envs.core import Game, IllegalActionError, State
from stratagem.envs.registry import make_game

__all__ = [
    "KEYFRAME_EVERY",
    "TILE",
    "ReplayError",
    "Step",
    "ViewerStats",
    "load_records",
    "play_record",
    "register",
    "replay_record",
    "replay_steps",
    "select_record",
    "write_viewer",
]

_log = logging.getLogger(__name__)

#: A full picture is stored at least this often (decisions), bounding the work of a seek.
KEYFRAME_EVERY = 40
#: Side of the squares in which changes between consecutive pictures are stored.
TILE = 32


class ReplayError(ValueError):
    """A record cannot be replayed: fields missing, an illegal action, or another outcome."""


# ----------------------------------------------------------------------------- records
def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Every game record of a file: JSON Lines (a tournament's results) or one JSON object.

    A torn last line (a killed run) is skipped, as the tournament's reader does.

    Raises:
        OSError: If the file cannot be read.
        ReplayError: If the file holds no JSON object.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    stripped = text.strip()
    if not stripped:
        raise ReplayError(f"{path}: the file is empty")
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    if isinstance(whole, list) and all(isinstance(r, dict) for r in whole):
        return list(whole)
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(text.splitlines()):
                continue  # a torn last line
            raise ReplayError(f"{path}:{number}: not a JSON record: {exc}") from exc
        if isinstance(record, dict):
            records.append(record)
    if not records:
        raise ReplayError(f"{path}: no game record (JSON object) in the file")
    return records


def select_record(
    records: Sequence[Mapping[str, Any]], game: str | None = None, index: int = 0
) -> dict[str, Any]:
    """The ``index``-th record (0-based) among those of ``game`` (all when ``None``).

    Raises:
        ReplayError: If there is no such record.
    """
    mine = [r for r in records if game is None or r.get("game") == game]
    if not mine:
        found = sorted({str(r.get("game")) for r in records})
        raise ReplayError(f"no record of game {game!r} in the file (it has: {', '.join(found)})")
    if not -len(mine) <= index < len(mine):
        raise ReplayError(
            f"--game-index {index} is out of range: the file has {len(mine)} {game or ''} "
            f"record{'s' * (len(mine) != 1)} (0..{len(mine) - 1})"
        )
    return dict(mine[index])


def _check_record(record: Mapping[str, Any]) -> None:
    missing = [k for k in ("game", "seed", "actions") if k not in record]
    if missing:
        hint = (
            "; it was written before records kept their actions: rerun the tournament"
            if missing == ["actions"]
            else ""
        )
        raise ReplayError(f"record lacks {', '.join(missing)}, so it cannot be replayed{hint}")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise ReplayError("record's 'actions' must be a list of integers")


def record_game(record: Mapping[str, Any]) -> Game:
    """The configured game a record was played with.

    Raises:
        ReplayError: If the record lacks the fields a replay needs.
    """
    _check_record(record)
    config = record.get("config") or {}
    if not isinstance(config, Mapping):
        raise ReplayError("record's 'config' must be an object")
    return make_game(str(record["game"]), **dict(config))


@dataclass(frozen=True)
class Step:
    """One position of a replay.

    Attributes:
        index: Decision number (0-based); equals the number of actions once the game is over.
        state: The position before the decision (the final position for the last step). It is
            the replay's own state: copy it before keeping it past the next step.
        player: Player to move (``-1`` at the end).
        legal: Number of legal actions.
        action: The action taken here (``None`` at the end).
        name: Its readable name (``""`` at the end).
    """

    index: int
    state: State
    player: int
    legal: int
    action: int | None
    name: str


def replay_steps(record: Mapping[str, Any]) -> Iterator[Step]:
    """Every position of a recorded game, from the initial state to the last action's result.

    Raises:
        ReplayError: If the record cannot be replayed or one of its actions is illegal.
    """
    game = record_game(record)
    recorded = record.get("rules_version")
    if recorded is not None and recorded != game.spec.version:
        _log.warning(
            "the record was played with %s rules version %s, this is version %s; the replay "
            "may differ",
            game.spec.name,
            recorded,
            game.spec.version,
        )
    state = game.new_initial_state(seed=record["seed"])
    actions = record["actions"]
    for i, action in enumerate(actions):
        if state.is_terminal():
            raise ReplayError(f"the game is over after {i} actions, the record has {len(actions)}")
        legal = state.legal_action_list()
        if action not in legal:
            try:
                name = game.action_to_string(action)
            except ValueError:
                name = "outside the action space"
            raise ReplayError(
                f"action {i} of the record is illegal: {action} ({name}) for player "
                f"{state.current_player}"
            )
        yield Step(
            i, state, state.current_player, len(legal), action, game.action_to_string(action)
        )
        try:
            state.apply(action)
        except IllegalActionError as exc:  # the mask said legal: a rules bug, say so clearly
            raise ReplayError(f"action {i} of the record is illegal: {exc}") from exc
    terminal = state.is_terminal()
    yield Step(
        len(actions),
        state,
        -1 if terminal else state.current_player,
        0 if terminal else len(state.legal_action_list()),
        None,
        "",
    )


def replay_record(record: Mapping[str, Any]) -> State:
    """Replay a record and check its outcome; returns the final state.

    The returns must be the recorded ones for a finished game; a record marked ``truncated``
    (stopped at the game's length limit) must end unfinished.

    Raises:
        ReplayError: If an action is illegal or the outcome differs from the record's.
    """
    final: State | None = None
    for step in replay_steps(record):
        final = step.state
    assert final is not None
    if record.get("truncated"):
        if final.is_terminal():
            raise ReplayError("the record says the game was cut, but the replay ends the game")
        return final
    if not final.is_terminal():
        raise ReplayError(
            f"the replay is not over after the record's {len(record['actions'])} actions"
        )
    if "returns" in record:
        got = [float(r) for r in final.returns()]
        want = [float(r) for r in record["returns"]]
        if len(got) != len(want) or any(abs(a - b) > 1e-9 for a, b in zip(got, want, strict=False)):
            raise ReplayError(f"the replay ends with returns {got}, the record says {want}")
    return final


def play_record(
    game: str | Game,
    agents: Sequence[str],
    *,
    seed: int = 0,
    config: Mapping[str, Any] | None = None,
    max_decisions: int | None = None,
) -> dict[str, Any]:
    """Play one game between agents (specs, one per seat) and return its record.

    The record has the fields :func:`replay_record` needs, plus the returns and the agents'
    names; a game stopped by ``max_decisions`` is marked ``truncated``. Handy to make a record
    to view without running a tournament.

    Args:
        game: A registry name (built with ``config``) or a game object of a registered game;
            the record keeps the game's name and full configuration, which is how a replay
            builds it again.
        agents: One agent spec string per seat (``"random"``, ``"mcts:budget=500"``): the
            record stores them, so agent objects, which a record cannot hold, are refused.
        seed: Seed of the initial state and of the agents' generators.
        config: Game options when ``game`` is a name.
        max_decisions: Stop after this many decisions (default: the game's maximum length).

    Raises:
        TypeError: For a ``game`` that is neither a name nor a game object, agents given as a
            single string or not as spec strings, or ``config`` given with a game object.
        ValueError: For an unknown game, a game object whose game is not registered, a bad
            option or agent spec, or a number of agents other than the game's seats.
    """
    from stratagem.baselines.agent import make_agent
    from stratagem.baselines.match import play_game
    from stratagem.envs.registry import game_entry

    if isinstance(game, Game):
        if config:
            raise TypeError(
                "play_record: config is for a game given by name; a game object has its "
                "configuration already"
            )
        game_entry(game.spec.name)  # a replay rebuilds it by name: it must be registered
        g = game
    elif isinstance(game, str):
        g = make_game(game, **dict(config or {}))
    else:
        raise TypeError(
            f"play_record: game must be a registry name or a Game, got {type(game).__name__}"
        )
    if isinstance(agents, str) or not all(isinstance(a, str) for a in agents):
        raise TypeError(
            "play_record: agents must be a list of agent spec strings, one per seat "
            f"(the record stores them), got {agents!r}"
        )
    name = g.spec.name
    if len(agents) != g.spec.num_players:
        raise ValueError(f"{name} needs {g.spec.num_players} agents, got {len(agents)}")
    players = [make_agent(spec, g) for spec in agents]
    actions: list[int] = []
    state = play_game(
        g,
        players,
        seed=seed,
        verbose=False,
        actions=actions,
        rngs=[np.random.default_rng([seed, k]) for k in range(len(players))],
        max_decisions=g.spec.max_game_length if max_decisions is None else max_decisions,
    )
    finished = state.is_terminal()
    return {
        "game": name,
        "config": dict(g.spec.config),
        "seed": seed,
        "rules_version": g.spec.version,
        "names": list(agents),
        "specs": list(agents),
        "returns": [float(r) for r in state.returns()] if finished else [0.0] * len(players),
        "truncated": not finished,
        "actions": actions,
    }


# ----------------------------------------------------------------------------- pictures
def _png(image: np.ndarray) -> bytes:
    """Lossless PNG bytes of an RGB array; paletted when it has at most 256 colours."""
    from PIL import Image

    flat = image.reshape(-1, 3)
    packed = (flat[:, 0].astype(np.uint32) << 16) | (flat[:, 1].astype(np.uint32) << 8) | flat[:, 2]
    colours, index = np.unique(packed, return_inverse=True)
    if len(colours) <= 256:
        img = Image.fromarray(index.reshape(image.shape[:2]).astype(np.uint8), mode="P")
        palette = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
        img.putpalette(palette.astype(np.uint8).ravel().tolist())
    else:
        img = Image.fromarray(image)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=9)
    return buf.getvalue()


def _changed_tiles(prev: np.ndarray, cur: np.ndarray) -> list[tuple[int, int]]:
    """Top-left corners ``(x, y)`` of the ``TILE``-squares that differ between two pictures."""
    h, w = cur.shape[:2]
    th, tw = math.ceil(h / TILE), math.ceil(w / TILE)
    diff = np.zeros((th * TILE, tw * TILE), dtype=bool)
    diff[:h, :w] = np.any(prev != cur, axis=2)
    grid = diff.reshape(th, TILE, tw, TILE).any(axis=(1, 3))
    ys, xs = np.nonzero(grid)
    return [(int(x) * TILE, int(y) * TILE) for y, x in zip(ys, xs, strict=True)]


def _atlas(cur: np.ndarray, tiles: Sequence[tuple[int, int]]) -> tuple[np.ndarray, int]:
    """The changed squares packed into one picture, ``cols`` squares a row."""
    cols = max(1, math.ceil(math.sqrt(len(tiles))))
    rows = math.ceil(len(tiles) / cols)
    h, w = cur.shape[:2]
    atlas = np.zeros((rows * TILE, cols * TILE, 3), dtype=np.uint8)
    for k, (x, y) in enumerate(tiles):
        r, c = divmod(k, cols)
        patch = cur[y : y + TILE, x : x + TILE]
        atlas[r * TILE : r * TILE + patch.shape[0], c * TILE : c * TILE + patch.shape[1]] = patch
    del h, w
    return atlas, cols


class _FrameEncoder:
    """Turns consecutive pictures into keyframes and changed squares, in 256 colours.

    A keyframe picks a palette of 256 colours for its picture (anti-aliased text has more;
    the difference is invisible), and the pictures up to the next keyframe are mapped to the
    same palette, so that an unchanged pixel stays exactly the same and the changed squares are
    small paletted PNGs. A picture with a colour the palette lacks (a new unit, a new card),
    a new size, more than half of its squares changed, or :data:`KEYFRAME_EVERY` pictures since
    the last keyframe starts a new keyframe.
    """

    def __init__(self) -> None:
        self.keyframes = 0
        self._since = 0
        self._prev: np.ndarray | None = None
        self._palette: Any = None

    def add(self, img: np.ndarray) -> dict[str, Any]:
        """The stored form of the next picture: ``{"k": 1, "png": ...}`` or its changes."""
        from PIL import Image

        shown = tiles = None
        prev = self._prev
        if prev is not None and prev.shape == img.shape and self._since < KEYFRAME_EVERY - 1:
            mapped = Image.fromarray(img).quantize(palette=self._palette, dither=Image.Dither.NONE)
            shown = np.asarray(mapped.convert("RGB"))
            if np.abs(shown.astype(np.int16) - img).max() <= 80:
                tiles = _changed_tiles(prev, shown)
                total = math.ceil(img.shape[0] / TILE) * math.ceil(img.shape[1] / TILE)
                if len(tiles) > 0.5 * total:
                    tiles = None
        if tiles is None:
            self._palette = Image.fromarray(img).quantize(
                256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
            # map the keyframe the way the next pictures will be mapped (nearest colour), so
            # that what did not change maps to the very same colours
            mapped = Image.fromarray(img).quantize(palette=self._palette, dither=Image.Dither.NONE)
            self._prev = np.asarray(mapped.convert("RGB"))
            self._since = 0
            self.keyframes += 1
            return {"k": 1, "png": base64.b64encode(_png(self._prev)).decode("ascii")}
        assert shown is not None
        self._prev = shown
        self._since += 1
        if not tiles:
            return {}
        atlas, cols = _atlas(shown, tiles)
        return {
            "png": base64.b64encode(_png(atlas)).decode("ascii"),
            "cols": cols,
            "tiles": [c for xy in tiles for c in xy],
        }


@dataclass(frozen=True)
class ViewerStats:
    """What :func:`write_viewer` wrote.

    Attributes:
        path: The HTML file.
        decisions: Decisions in the game (pictures are one more).
        keyframes: Full pictures stored.
        bytes: Size of the file.
        seconds: Time taken.
    """

    path: Path
    decisions: int
    keyframes: int
    bytes: int
    seconds: float


def write_viewer(
    record: Mapping[str, Any],
    out: str | Path,
    *,
    observer: int | None = None,
    title: str | None = None,
) -> ViewerStats:
    """Write the self-contained HTML viewer of a recorded game (see the module docstring).

    Args:
        record: The game record.
        out: The HTML file to write.
        observer: Draw every position as this seat sees it (fog of war, hidden cards), or
            everything when ``None``.
        title: Heading of the page (default: the game, the agents and the seed).

    Raises:
        ReplayError: If the record cannot be replayed.
    """
    start = time.perf_counter()
    encoder = _FrameEncoder()
    frames: list[dict[str, Any]] = []
    steps: list[list[Any]] = []
    final: State | None = None
    num_players = 0
    for step in replay_steps(record):
        state = step.state
        num_players = state.game.spec.num_players
        shown = state.observed_by(observer) if observer is not None else state
        frames.append(encoder.add(shown.render_rgb()))
        steps.append([step.player, step.legal, step.action, step.name])
        final = step.state
    assert final is not None
    finished = final.is_terminal()
    returns = [float(r) for r in final.returns()] if finished else None
    names = list(record.get("names") or [])
    if len(names) != num_players:
        names = [f"player {k}" for k in range(num_players)]
    game = str(record["game"])
    heading = title or (f"{game}: " + " vs ".join(names) + f" (seed {record['seed']})")
    data = {
        "game": game,
        "config": record.get("config") or {},
        "seed": str(record["seed"]),  # 63-bit seeds lose digits as JavaScript numbers
        "names": names,
        "tile": TILE,
        "frames": frames,
        "steps": steps,
        "returns": returns,
        "recorded_returns": record.get("returns"),
        "truncated": bool(record.get("truncated")) or not finished,
        "observer": observer,
    }
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    page = PAGE_TEMPLATE.replace("%%TITLE%%", html.escape(heading)).replace("%%DATA%%", payload)
    path = Path(out)
    path.write_text(page, encoding="utf-8")
    return ViewerStats(
        path=path,
        decisions=len(steps) - 1,
        keyframes=encoder.keyframes,
        bytes=path.stat().st_size,
        seconds=time.perf_counter() - start,
    )


# ----------------------------------------------------------------------------- CLI
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``replay`` and ``view``."""
    p = subparsers.add_parser(
        "replay",
        help="replay recorded games (tournament JSONL, Terra Mystica ledgers) and check them",
        description=(
            "Replay every game record of the files (a tournament's --out JSON Lines, or one "
            "JSON record) through the game's engine from its seed and action list, checking "
            "that every action is legal and that the outcome is the recorded one. For "
            "terra_mystica, files that are online-game ledgers are replayed as such."
        ),
    )
    p.add_argument("game", help="game name (see 'stratagem games')")
    p.add_argument("records", nargs="+", help="record files (JSON Lines or JSON), or TM ledgers")
    p.add_argument(
        "--game-index",
        "-k",
        type=int,
        default=None,
        help="replay only the K-th record of the game in each file (0-based)",
    )
    p.add_argument("--show", action="store_true", help="print every action and the final position")
    p.add_argument(
        "--manifest",
        default=None,
        help="terra_mystica ledgers: manifest.json with expected final VP",
    )
    p.set_defaults(func=_cmd_replay)

    v = subparsers.add_parser(
        "view",
        help="write a self-contained HTML page to step through a recorded game",
        description=(
            "Replay one recorded game and write one HTML file (no network needed) showing the "
            "position at every decision, the action taken, the player to move, the number of "
            "legal actions and the returns at the end; step with the buttons, the slider or "
            "the arrow keys."
        ),
    )
    v.add_argument("game", help="game name (see 'stratagem games')")
    v.add_argument("record", help="record file: a tournament's JSON Lines or one JSON record")
    v.add_argument(
        "--game-index",
        "-k",
        type=int,
        default=0,
        help="which record of the game in the file (0-based, default 0)",
    )
    v.add_argument("--out", "-o", default="game.html", help="HTML file to write (game.html)")
    v.add_argument(
        "--observer",
        type=int,
        default=None,
        help="draw the game as this seat sees it (fog of war); default: everything",
    )
    v.set_defaults(func=_cmd_view)


def _is_ledger(path: Path) -> bool:
    """A Terra Mystica ledger is plain text; records start with ``{`` or ``[``."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                return not line.lstrip().startswith(("{", "["))
    return False


def _cmd_replay(args: argparse.Namespace) -> int:
    make_game(args.game)  # an unknown game fails here with the registry's message
    files = [Path(name) for name in args.records]

    def ledger_or_unreadable(path: Path) -> bool:
        try:
            return _is_ledger(path)
        except (OSError, UnicodeDecodeError):
            return True  # the ledger replayer reports it in its line and goes on

    if args.game == "terra_mystica" and all(ledger_or_unreadable(p) for p in files):
        # the online game's ledgers keep their own replayer and report
        from stratagem.envs.terra_mystica.commands import _cmd_replay as replay_ledgers

        return replay_ledgers(argparse.Namespace(ledgers=args.records, manifest=args.manifest))
    ok = failures = 0
    for path in files:  # a file that fails is reported and the batch goes on
        try:
            records = [r for r in load_records(path) if r.get("game") == args.game]
            if args.game_index is not None:
                records = [select_record(records, args.game, args.game_index)]
            elif not records:
                raise ReplayError(f"{path}: no record of game {args.game!r}")
        except (OSError, UnicodeDecodeError, ReplayError) as exc:
            failures += 1
            print(f"FAIL {path}: {exc}")
            continue
        for k, record in enumerate(records):
            label = f"{path.name}[{args.game_index if args.game_index is not None else k}]"
            start = time.perf_counter()
            try:
                if args.show:
                    for step in replay_steps(record):
                        if step.action is not None:
                            print(f"{step.index:>5}  p{step.player}  {step.name}")
                final = replay_record(record)
            except ReplayError as exc:
                failures += 1
                print(f"FAIL {label}: {exc}")
                continue
            ok += 1
            outcome = (
                "cut at the length limit"
                if record.get("truncated")
                else "returns " + ", ".join(f"{r:g}" for r in final.returns())
            )
            print(
                f"ok   {label}: {len(record['actions'])} decisions replayed, {outcome} as "
                f"recorded ({time.perf_counter() - start:.2f}s)"
            )
            if args.show:
                print(final)
    print(f"{ok}/{ok + failures} games replayed exactly")
    return 1 if failures else 0


def _cmd_view(args: argparse.Namespace) -> int:
    record = select_record(load_records(args.record), args.game, args.game_index)
    stats = write_viewer(record, args.out, observer=args.observer)
    print(
        f"wrote {stats.path}: {stats.decisions} decisions, {stats.bytes / 1e6:.2f} MB, "
        f"{stats.seconds:.1f}s; open it in a browser"
    )
    return 0
