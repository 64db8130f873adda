#!/usr/bin/env bash
# dump.sh: how the committed SASS dumps of tests/sass/ and calib/sass/ were made.
#   1. here (nvcc, no cuobjdump needed):  bash tests/sass/dump.sh build
#   2. on a machine with the full CUDA toolkit (cuobjdump, nvdisasm): bash tests/sass/dump.sh dump DIR
# "dump" writes, for every cubin, NAME.sass (cuobjdump -sass), NAME.elf (cuobjdump -elf: the
# kernels' parameter info) and NAME.nvdisasm (nvdisasm -g: SASS with the CUDA source lines).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
case "${1:-}" in
  build)   # in a copy under /tmp/simt-sim, so the line info names no path of this machine's checkout
    tmp=/tmp/simt-sim
    rm -rf "$tmp" && mkdir -p "$tmp/tests/sass" "$tmp/calib"
    cp "$HERE"/*.cu "$tmp/tests/sass/" && cp -r "$ROOT/calib/kernels" "$tmp/calib/"
    cd "$tmp"
    for a in 80 89 90; do
      for f in tests/sass/*.cu; do
        nvcc -cubin -arch=sm_$a -O3 -lineinfo -o "${f%.cu}.sm_$a.cubin" "$f"
      done
    done
    mkdir -p calib/sass
    for p in latency throughput divergence memory occupancy loaded contention apps; do
      nvcc -cubin -arch=sm_90 -O3 -lineinfo -std=c++17 -o "calib/sass/$p.sm_90.cubin" "calib/kernels/$p.cu"
    done
    cp tests/sass/*.cubin "$HERE/" && mkdir -p "$ROOT/calib/sass" && cp calib/sass/*.cubin "$ROOT/calib/sass/" ;;
  dump)
    out="${2:?dump DIR}"
    mkdir -p "$out"
    for c in "$HERE"/*.cubin "$ROOT"/calib/sass/*.cubin; do
      n="$(basename "${c%.cubin}")"
      cuobjdump -sass "$c" >"$out/$n.sass"
      cuobjdump -elf "$c" >"$out/$n.elf"
      nvdisasm -g -c "$c" >"$out/$n.nvdisasm" 2>&1 || true
    done
    sed -i 's#/tmp/simt-sim/##g' "$out"/* ;;   # source paths relative to the repository root
  *) echo "usage: dump.sh build | dump DIR" >&2; exit 1 ;;
esac
