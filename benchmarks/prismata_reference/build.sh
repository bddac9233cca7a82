#!/usr/bin/env bash
# Build the C++ reference (davechurchill/PrismataAI) engine and AI libraries with a speed driver.
#
#   benchmarks/prismata_reference/build.sh /path/to/PrismataAI [build-dir]
#
# The first argument is a checkout of the reference (tested at commit 9a9fd34); nothing of it is
# copied here. Configures its CMakeLists.txt without the GUI (Release: -O3 -DNDEBUG), builds only
# the Prismata_Engine and Prismata_AI static libraries, and links speed_driver.cpp (this
# folder) against them into build-dir (default: benchmarks/prismata_reference/build,
# git-ignored) as `speed_driver`. Needs g++ (12 tested) and CMake >= 3.21; no network.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ref="$(cd "${1:?usage: build.sh /path/to/PrismataAI [build-dir]}" && pwd)"
out="${2:-$here/build}"
test -f "$ref/source/engine/GameState.cpp" || { echo "no PrismataAI sources in $ref" >&2; exit 1; }
test -f "$ref/source/ai/Player_PPSequence.cpp" || { echo "no PrismataAI AI sources in $ref" >&2; exit 1; }
mkdir -p "$out"
cmake -S "$ref" -B "$out/cmake" -DCMAKE_BUILD_TYPE=Release -DPRISMATA_BUILD_GUI=OFF >/dev/null
cmake --build "$out/cmake" --config Release --parallel "${JOBS:-2}" --target Prismata_AI
g++ -O3 -DNDEBUG -std=c++17 -pthread \
    -I"$ref/source" -I"$ref/source/rapidjson" -I"$ref/source/engine" -I"$ref/source/ai" \
    "$here/speed_driver.cpp" "$out/cmake/lib/libPrismata_AI.a" "$out/cmake/lib/libPrismata_Engine.a" \
    -o "$out/speed_driver"
echo "$ref" > "$out/REFERENCE"
echo "built $out/speed_driver from $ref"
