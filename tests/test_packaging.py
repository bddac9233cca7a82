"""The built wheel carries every module of every area, and the data files."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
AREAS = {
    "stratagem": "stratagem",
    "envs": "stratagem/envs",
    "wrappers": "stratagem/wrappers",
    "baselines": "stratagem/baselines",
    "training": "stratagem/training",
}


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = out.glob("stratagem-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def test_wheel_contains_every_module(wheel_names):
    missing = []
    for folder, package in AREAS.items():
        for path in (ROOT / folder).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            name = f"{package}/{path.relative_to(ROOT / folder).as_posix()}"
            if name not in wheel_names:
                missing.append(name)
    assert not missing, f"modules missing from the wheel (list them in pyproject.toml): {missing}"


def test_wheel_contains_map_data(wheel_names):
    assert "stratagem/envs/kill_the_king/data/KtKMaps_kwah.yaml" in wheel_names
    assert "stratagem/envs/kill_the_king/data/KtKMaps_small.yaml" in wheel_names
    assert "stratagem/training/pretrained_nets/push_them_all.pt" in wheel_names  # shipped network
    assert "stratagem/training/pretrained_nets/kill_the_king.pt" in wheel_names
    assert "stratagem/training/pretrained_nets/two_kingdoms.pt" in wheel_names
    assert "stratagem/envs/kill_the_king/data/KillTheKing.yaml" in wheel_names


def test_rules_cores_import_no_rl_frameworks():
    """Rules cores (envs/<game>/ and the contract) import no gymnasium, pettingzoo or torch."""
    frameworks = {"gymnasium", "pettingzoo", "torch"}
    files = [ROOT / "envs/core.py", ROOT / "envs/state_json.py", ROOT / "envs/registry.py"]
    # envs/batched/ is not a rules core but the games' torch adapter (issue 20), like the
    # *_v0.py PettingZoo modules; nothing outside it imports it (test_batched_selfplay.py)
    files += [p for p in (ROOT / "envs").glob("*/*.py") if p.parent.name != "batched"]
    offenders = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            if any(name.split(".")[0] in frameworks for name in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders
