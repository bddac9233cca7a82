"""``stratagem train alphazero|ppo <game>``: command-line options built from the config dataclasses.

Every field of :class:`~stratagem.training.alphazero.AlphaZeroConfig` and
:class:`~stratagem.training.ppo.PPOConfig` is an option (``--games-per-iteration 64``); game
options are ``-c key=value``; ``--config run.toml`` loads a saved configuration (command-line
options win) and ``--save-config run.toml`` writes the resolved one and exits. Configurations are
checked before any work starts.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import typing
from typing import Any

from stratagem.training.config import AlphaZeroConfig, PPOConfig

__all__ = ["register"]

_ALGORITHMS = {"alphazero": AlphaZeroConfig, "ppo": PPOConfig}


def _field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each dataclass field (read from the source)."""
    import ast
    import inspect

    docs: dict[str, str] = {}
    body = ast.parse(inspect.getsource(cls)).body[0].body  # type: ignore[attr-defined]
    for node, nxt in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
        ):
            docs[node.target.id] = " ".join(str(nxt.value.value).split())
    return docs


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``train`` with one sub-subcommand per algorithm."""
    train = subparsers.add_parser("train", help="train AlphaZero or masked PPO on a game")
    algos = train.add_subparsers(dest="algorithm", metavar="ALGORITHM")
    for algo in _ALGORITHMS:
        parser = algos.add_parser(algo, help=f"{algo} training")
        parser.add_argument("game", help="game name (see 'stratagem games')")
        parser.add_argument(
            "-c",
            "--game-option",
            action="append",
            metavar="KEY=VALUE",
            help="game option, repeatable (e.g. -c map=kwah)",
        )
        parser.add_argument("--config", dest="config_file", help="TOML file of options")
        parser.add_argument("--save-config", help="write the resolved options as TOML and exit")
        cls = _ALGORITHMS[algo]
        docs = _field_docs(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if f.name in ("game", "game_config"):
                continue
            flag = "--" + f.name.replace("_", "-")
            # the options default to None (so that a --config file's values are not overridden),
            # so the help shows the dataclass's own default instead of argparse's
            help_text = f"{docs.get(f.name, '')} (default: {_default_text(f)})".replace("%", "%%")
            if hints[f.name] is bool:
                parser.add_argument(
                    flag,
                    dest=f.name,
                    action=argparse.BooleanOptionalAction,
                    default=None,
                    help=help_text,
                )
            else:
                parser.add_argument(
                    flag, dest=f.name, default=None, metavar="VALUE", help=help_text
                )
        parser.set_defaults(func=_cmd_train, config_class=cls, algo=algo)
    train.set_defaults(func=lambda args: train.print_help() or 2)


def _default_text(f: dataclasses.Field) -> str:
    """The default of a config field as it is written on the command line."""
    if f.default is not dataclasses.MISSING:
        value = f.default
    elif f.default_factory is not dataclasses.MISSING:
        value = f.default_factory()
    else:  # pragma: no cover - every config field has a default
        return "required"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _cmd_train(args: argparse.Namespace) -> int:
    from stratagem.envs.commands import parse_config
    from stratagem.training.common import config_from_mapping, load_toml, to_toml

    cls = args.config_class
    values: dict[str, Any] = load_toml(args.config_file) if args.config_file else {}
    values["game"] = args.game
    game_config = dict(values.get("game_config", {}))
    game_config.update(parse_config(args.game_option))
    values["game_config"] = game_config
    for f in dataclasses.fields(cls):
        raw = getattr(args, f.name, None)
        if raw is None or f.name in ("game", "game_config"):
            continue
        values[f.name] = _parse_cli_value(raw)
    config = config_from_mapping(cls, values)
    config.validate()
    if args.save_config:
        with open(args.save_config, "w", encoding="utf-8") as fh:
            fh.write(to_toml(dataclasses.asdict(config)))
        print(f"configuration written to {args.save_config}")
        return 0
    try:
        if args.algo == "alphazero":
            from stratagem.training.alphazero import train
        else:
            from stratagem.training.ppo import train
    except ImportError as exc:
        raise ValueError(
            f"training needs the train extra (pip install 'stratagem[train]'): {exc}"
        ) from exc
    import logging

    if not logging.getLogger().handlers:  # the per-iteration log line of long runs
        logging.basicConfig(level=logging.INFO, format="%(message)s")
    result = train(config)
    print(json.dumps(result, indent=2, default=str))
    return 0


def _parse_cli_value(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    if raw.lower() in ("none", "null"):
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw
