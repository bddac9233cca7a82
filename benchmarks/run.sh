#!/usr/bin/env bash
# Runs `stratagem bench` over every game configuration we report in docs/benchmarks.md and keeps
# the JSON next to this script. Usage: bash benchmarks/run.sh [seconds per measurement]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-5}
out=benchmarks/results
mkdir -p "$out"
python3 -m stratagem bench kill_the_king --seconds "$seconds" --out "$out/kill_the_king_default.json"
python3 -m stratagem bench kill_the_king -c map=kwah --seconds "$seconds" --out "$out/kill_the_king_kwah.json"
