#!/usr/bin/env bash
# Build the Java reference (GAIGResearch/Tribes, release 1.0) with the differential harness.
#
#   benchmarks/tribes_reference/build.sh /path/to/Tribes-1.0 [build-dir]
#
# The first argument is a checkout of the reference at tag 1.0 (commit 70e3a1b3, e.g.
# `git clone https://github.com/GAIGResearch/Tribes && git -C Tribes checkout 1.0`); nothing of
# it is copied here. Compiles its sources with javac against its vendored lib/json.jar, plus
# java/ (the harness class and a stand-in for JavaFX's Pair), into build-dir (default:
# benchmarks/tribes_reference/build, git-ignored), and records the checkout's path there for
# compare.py. A second build (classes-partial) plays with partial observability. Needs a JDK
# (17 tested); Maven is not used.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ref="$(cd "${1:?usage: build.sh /path/to/Tribes-1.0 [build-dir]}" && pwd)"
out="${2:-$here/build}"
test -f "$ref/src/core/game/GameState.java" || { echo "no Tribes sources in $ref" >&2; exit 1; }
test -f "$ref/lib/json.jar" || { echo "no lib/json.jar in $ref" >&2; exit 1; }
rm -rf "$out/classes" "$out/classes-partial" "$out/partial-src"
mkdir -p "$out/classes" "$out/classes-partial" "$out/partial-src/core"
find "$ref/src" "$here/java" -name '*.java' > "$out/sources.txt"
javac -nowarn -encoding UTF-8 -cp "$ref/lib/json.jar" -d "$out/classes" @"$out/sources.txt" \
    2>&1 | grep -v '^Note:' || true
test -f "$out/classes/core/game/StratagemTrace.class" || { echo "build failed" >&2; exit 1; }
# A second build with partial observability: the reference's switch is a compile-time constant
# (Constants.PLAY_WITH_FULL_OBS), so this build compiles a copy of that one file with it false.
sed 's/PLAY_WITH_FULL_OBS = true/PLAY_WITH_FULL_OBS = false/' "$ref/src/core/Constants.java" \
    > "$out/partial-src/core/Constants.java"
grep -q 'PLAY_WITH_FULL_OBS = false' "$out/partial-src/core/Constants.java" \
    || { echo "cannot switch PLAY_WITH_FULL_OBS" >&2; exit 1; }
grep -v '/src/core/Constants.java$' "$out/sources.txt" > "$out/sources-partial.txt"
echo "$out/partial-src/core/Constants.java" >> "$out/sources-partial.txt"
javac -nowarn -encoding UTF-8 -cp "$ref/lib/json.jar" -d "$out/classes-partial" \
    @"$out/sources-partial.txt" 2>&1 | grep -v '^Note:' || true
test -f "$out/classes-partial/core/game/StratagemTrace.class" || { echo "build failed" >&2; exit 1; }
echo "$ref" > "$out/REFERENCE"
echo "built $out/classes (full observability) and $out/classes-partial from $ref"
