"""``stratagem games``: the registered games with their facts and options."""

from __future__ import annotations

import argparse
import json

from stratagem.envs.registry import game_entry, list_games, make_game

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``games``."""
    from stratagem.envs.cli_options import add_config_argument

    games = subparsers.add_parser("games", help="list the games with their facts and options")
    games.add_argument(
        "names", nargs="*", metavar="GAME", help="only these games (default: every game)"
    )
    add_config_argument(games)
    games.add_argument("--json", action="store_true", help="print JSON instead of text")
    games.set_defaults(func=_cmd_games)


def _cmd_games(args: argparse.Namespace) -> int:
    """Print the games' facts; with ``-c``, those of one game in that configuration.

    The action size and observation shape depend on the options (a map's board), so
    ``stratagem games kill_the_king -c map=small`` gives the figures a network for it needs.
    """
    from stratagem.envs.cli_options import parse_config

    config = parse_config(args.config)
    names = args.names or list_games()
    if config and len(names) != 1:
        raise ValueError("game options (-c) describe one game: name it ('games GAME -c KEY=VALUE')")
    rows = []
    for name in names:
        entry = game_entry(name)
        spec = make_game(name, **config).spec
        rows.append(
            {
                "name": name,
                "description": entry.description,
                "players": spec.num_players,
                "action_size": spec.action_size,
                "observation_shape": list(spec.observation_shape),
                "max_game_length": spec.max_game_length,
                "deterministic": spec.deterministic,
                "perfect_information": spec.perfect_information,
                "options": {**entry.defaults, **config},
                "gymnasium_id": entry.env_id,
                "pettingzoo_module": f"stratagem.envs.{name}_v0",
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(f"{row['name']}: {row['description']}")
        for key in (
            "players",
            "action_size",
            "observation_shape",
            "max_game_length",
            "deterministic",
            "perfect_information",
            "options",
            "gymnasium_id",
            "pettingzoo_module",
        ):
            print(f"  {key:<20} {row[key]}")
    return 0
