#!/usr/bin/env bash
# Runs `stratagem bench` over every game configuration reported in docs/benchmarks.md and keeps
# the JSON next to this script. Usage: bash benchmarks/run.sh [seconds per measurement]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
out=benchmarks/results
mkdir -p "$out"
bench() { python3 -m stratagem bench "$@" --seconds "$seconds"; }
bench kill_the_king --out "$out/kill_the_king_default.json"
bench kill_the_king -c map=kwah --out "$out/kill_the_king_kwah.json"
bench push_them_all --out "$out/push_them_all.json"
bench two_kingdoms --out "$out/two_kingdoms.json"
bench cotg_combat --out "$out/cotg_combat.json"
bench prismata --out "$out/prismata.json"
bench terra_mystica --out "$out/terra_mystica.json"
bench tribes --out "$out/tribes.json"
