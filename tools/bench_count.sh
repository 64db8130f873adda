#!/usr/bin/env bash
# bench_count.sh: host instructions per simulated warp instruction, counted by
# callgrind: a speed measure that does not depend on what else the machine runs
# (bench_throughput's seconds do; this project's machine is shared).
#
#   tools/bench_count.sh [BENCH_THROUGHPUT] [alu|sfu] [ITERATIONS]
#
# Runs `bench_throughput --only KERNEL --iterations N` (default alu, 50: about
# 0.85 M warp instructions, seconds under valgrind) and prints the total and the
# ten costliest functions. Needs valgrind (apt-get install valgrind). Instruction
# counts leave out cache misses: confirm a change in seconds as well.
set -euo pipefail
bench=${1:-./build/bench_throughput} kernel=${2:-alu} iterations=${3:-50}
out=$(mktemp)
log=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" --only "$kernel" --iterations "$iterations" 2>&1)
warp=$(echo "$log" | awk '/warp instr/ {for (i = 1; i + 2 <= NF; i++) if ($(i + 1) == "warp" && $(i + 2) == "instr") {print $i; exit}}')
refs=$(echo "$log" | awk '/I +refs:/ {gsub(",", "", $4); print $4}')
echo "$kernel, $iterations iterations: $warp warp instructions, $refs host instructions, $((refs / warp)) per warp instruction"
callgrind_annotate "$out" 2>/dev/null | awk '/file:function/ {on = 1; next} on && NF && !/^-/ && n < 10 {print; n++}' | cut -c1-140
rm -f "$out"
