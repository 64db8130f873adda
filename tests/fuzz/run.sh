#!/usr/bin/env bash
# run.sh BUILD_DIR [SECONDS] [extra libFuzzer flags...]: runs every fuzz target of
# tests/fuzz for SECONDS (default 30) on its seed corpus and dictionary, one after
# the other, and fails (exit 1) on the first finding: a crash, a sanitizer report,
# a timeout (10 s for one input) or more than 2 GiB of memory. New inputs go to
# BUILD_DIR/fuzz-corpus/TARGET (kept between runs); findings to BUILD_DIR/fuzz-findings.
set -euo pipefail
build=$(cd "${1:?usage: run.sh BUILD_DIR [SECONDS] [libFuzzer flags...]}" && pwd)
seconds=${2:-30}
shift $(( $# >= 2 ? 2 : 1 ))
root=$(cd "$(dirname "$0")/../.." && pwd)
fuzz=$root/tests/fuzz
mkdir -p "$build/fuzz-findings"

run() {  # target dictionary seed-dirs...
  local target=$1 dict=$2
  shift 2
  local corpus=$build/fuzz-corpus/$target log=$build/fuzz-findings/$target.log
  mkdir -p "$corpus"
  echo "== $target: $seconds s"
  set +e
  "$build/$target" "$corpus" "$@" -dict="$fuzz/$dict" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/fuzz-findings/$target-" \
    "${extra[@]}" > "$log" 2>&1
  local status=$?
  set -e
  grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units)" "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    echo "fuzz: $target found a problem (exit status $status); the input is in $build/fuzz-findings/"
    exit 1
  fi
}

extra=("$@")
isa_seeds=("$root/traces" "$root/calib/traces" "$root/tests/regress")
run fuzz_assembler isa.dict "${isa_seeds[@]}"
run fuzz_functional isa.dict "${isa_seeds[@]}"
run fuzz_timing isa.dict "${isa_seeds[@]}"
run fuzz_config config.dict "$root/configs"
run fuzz_timeline timeline.dict "$root/viz/testdata" "$fuzz/seeds/timeline"
echo "fuzz: no finding in $seconds s per target"
