#!/usr/bin/env bash
# compare_outputs.sh: the same results from two simt-sim binaries, byte for byte.
#
#   tools/compare_outputs.sh BASELINE_SIMT_SIM NEW_SIMT_SIM [OUT_DIR]
#
# Either binary may instead be a directory of outputs written earlier (OUT_DIR/base
# of a previous call), so a baseline is run once.
#
# Runs every trace of traces/ and calib/traces/ (default uniforms) on
# configs/h200.yaml and configs/rtx4060.yaml with both binaries, writing --json
# and --csv (per pc) plus the exit status and stderr of each run, and compares
# the files. A speed-up of the model must change none of them. Run it from the
# repository root (the reports hold the paths as given). Exit status 1 when any
# file differs (each is named), 0 when all are identical.
set -uo pipefail
if [ $# -lt 2 ]; then echo "usage: $0 BASELINE_SIMT_SIM NEW_SIMT_SIM [OUT_DIR]" >&2; exit 2; fi
base=$1 new=$2 out=${3:-$(mktemp -d)}
mkdir -p "$out/base" "$out/new"
if [ -d "$base" ]; then rm -rf "$out/base" && cp -r "$base" "$out/base"; fi
if [ -d "$new" ]; then rm -rf "$out/new" && cp -r "$new" "$out/new"; fi
run() {  # binary dir config trace
  local tag
  if [ -d "$1" ]; then return; fi
  tag=$(basename "$3" .yaml)_$(echo "$4" | tr / _)
  "$1" "$3" "$4" -q --json "$2/$tag.json" --csv "$2/$tag.csv" > /dev/null 2> "$2/$tag.err"
  echo "exit $?" >> "$2/$tag.err"
}
n=0
for config in configs/h200.yaml configs/rtx4060.yaml; do
  for trace in traces/*.isa calib/traces/*.isa; do
    run "$base" "$out/base" "$config" "$trace"
    run "$new" "$out/new" "$config" "$trace"
    n=$((n + 1))
  done
done
if diff -rq "$out/base" "$out/new"; then
  echo "compare_outputs: $n runs, $(ls "$out/new" | wc -l) files identical ($out)"
else
  echo "compare_outputs: the files above differ ($out)" >&2
  exit 1
fi
