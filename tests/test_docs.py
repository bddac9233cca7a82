"""The README, docs/interop.md and docs/batched.md say what works: their code blocks run.

Python blocks are executed, each in a fresh namespace; shell blocks are checked for syntax with
``bash -n`` (running them would reinstall the package); the README's command table names every
subcommand that ``stratagem --help`` lists, and every game with its Gymnasium id.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from stratagem.cli import build_parser
from stratagem.envs import game_entry, list_games

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(path: Path, language: str) -> list[str]:
    return [
        code for lang, code in FENCE.findall(path.read_text(encoding="utf-8")) if lang == language
    ]


def _run(code: str) -> None:
    exec(compile(code, "<doc block>", "exec"), {"__name__": "__doc_example__"})


@pytest.mark.parametrize("index", range(len(_blocks(ROOT / "README.md", "python"))))
def test_readme_python_blocks_run(index, capsys):
    _run(_blocks(ROOT / "README.md", "python")[index])


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_readme_shell_blocks_parse():
    blocks = _blocks(ROOT / "README.md", "bash")
    assert blocks
    for code in blocks:
        subprocess.run(["bash", "-n"], input=code, text=True, check=True)


def test_readme_lists_every_command_and_game():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    for command in commands:
        assert f"`stratagem {command}" in text, f"README's command table lacks {command}"
    for name in list_games():
        if name.endswith("_test"):
            continue
        assert f"`{game_entry(name).env_id}`" in text, f"README lacks {name}'s Gymnasium id"
    assert "today" not in text.lower()  # every game exists; no "only X today"


def _interop_blocks() -> list[str]:
    """The guide's blocks but the RLlib one (ray is optional: tests/test_interop.py runs it)."""
    blocks = _blocks(ROOT / "docs" / "interop.md", "python")
    return [code for code in blocks if not re.search(r"^(import|from) ray\b", code, re.M)]


@pytest.mark.parametrize("index", range(len(_interop_blocks())))
@pytest.mark.usefixtures("one_torch_thread")  # the networks are small: one thread is fastest
def test_interop_guide_blocks_run(index, capsys):
    pytest.importorskip("sb3_contrib")
    _run(_interop_blocks()[index])


@pytest.mark.parametrize("index", range(len(_blocks(ROOT / "docs" / "batched.md", "python"))))
@pytest.mark.usefixtures("one_torch_thread")
def test_batched_guide_blocks_run(index, capsys):
    pytest.importorskip("torch")
    _run(_blocks(ROOT / "docs" / "batched.md", "python")[index])
