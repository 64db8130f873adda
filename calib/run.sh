#!/usr/bin/env bash
# calib/run.sh: builds and runs the simt-sim calibration set on the GPU of this machine.
# Writes $OUT/calib.csv (kernel,parameter,value,unit,notes), $OUT/sass_excerpts.txt (timed
# loops of every kernel), $OUT/device.txt (nvidia-smi clocks, device properties, clock samples
# during the run) and $OUT/log.txt (build and run log). OUT defaults to calib/results/local.
# Builds with nvcc -arch=sm_<cc> -O3 for the GPU's compute capability (7.5 or newer) when nvcc is on
# the PATH; a program whose build fails falls back to calib/prebuilt/<name> if that exists. Never
# changes clocks or any other GPU setting. CALIB_PROGS picks programs, CALIB_CSV names the CSV,
# CALIB_ARCH forces the architecture (e.g. 89), CALIB_WITH_NCU=1 adds Nsight Compute's warp states
# per kernel (ncu_<csv name>.csv), CALIB_SASS_ALL=1 keeps the whole SASS (all.sass).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$HERE/results/local}"
BUILD="${CALIB_BUILD:-/tmp/calib_build}"
PROGS="${CALIB_PROGS:-devprops latency throughput divergence memory occupancy launch loaded contention apps atomgrid l2cap farhit latdist rawlat shbank mixrw}"
CSV_NAME="${CALIB_CSV:-calib.csv}"
mkdir -p "$OUT" "$BUILD"
CSV="$OUT/$CSV_NAME"
DEV="$OUT/device.txt"
LOG="$OUT/log.txt"
SASS="$OUT/sass_excerpts.txt"
: >"$LOG"
: >"$DEV"
T0=$(date +%s)
log() { echo "[$(($(date +%s) - T0))s] $*" | tee -a "$LOG"; }

log "host $(hostname); $(date -u)"
{
  echo "### nvidia-smi"; nvidia-smi 2>&1
  echo "### nvidia-smi -q -d CLOCK (before)"; nvidia-smi -q -d CLOCK 2>&1
  echo "### nvidia-smi -q -d PERFORMANCE (before)"; nvidia-smi -q -d PERFORMANCE 2>&1
  echo "### nvcc --version"; nvcc --version 2>&1
  echo "### cudaGetDeviceProperties"
} >>"$DEV"

# The GPU's compute capability: CALIB_ARCH (e.g. 89), else nvidia-smi's compute_cap, else 90 (a
# build-only check on a machine without a GPU). Every kernel builds for sm_75 and newer.
ARCH="${CALIB_ARCH:-}"
if [ -z "$ARCH" ] && command -v nvidia-smi >/dev/null; then
  ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
fi
case "$ARCH" in ''|*[!0-9]*) ARCH=90 ;; esac
if [ "$ARCH" -lt 75 ]; then
  log "compute capability $ARCH is older than 7.5: not supported (Turing and newer)"
  exit 1
fi
log "building for sm_$ARCH"
echo "### calibration build: sm_$ARCH" >>"$DEV"

# Build all programs in parallel.
if command -v nvcc >/dev/null; then
  for p in $PROGS; do
    (nvcc -arch=sm_$ARCH -O3 -std=c++17 -Xptxas -v -o "$BUILD/$p" "$HERE/kernels/$p.cu" >"$BUILD/$p.build.log" 2>&1
     echo "build $p rc=$?" >>"$BUILD/$p.build.log") &
  done
  wait
  for p in $PROGS; do
    echo "===== build $p" >>"$LOG"
    grep -v "bytes stack frame\|Compile time\|Function properties\|0 bytes gmem" "$BUILD/$p.build.log" >>"$LOG"
  done
  log "built: $(tail -qn1 "$BUILD"/*.build.log | tr '\n' ' ')"
else
  log "no nvcc on PATH"
fi
for p in $PROGS; do
  if [ ! -x "$BUILD/$p" ] && [ -x "$HERE/prebuilt/$p" ]; then
    cp "$HERE/prebuilt/$p" "$BUILD/$p"
    log "using prebuilt $p"
  fi
done

# Clock samples during the run (read-only query).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu \
  --format=csv -lms 500 >"$BUILD/clock_samples.csv" 2>&1 &
SMI_PID=$!

echo "kernel,parameter,value,unit,notes" >"$CSV"
for p in $PROGS; do
  if [ ! -x "$BUILD/$p" ]; then log "SKIP $p (no binary)"; continue; fi
  log "run $p"
  if [ "$p" = devprops ]; then
    timeout 60 "$BUILD/$p" "$DEV" >>"$CSV" 2>>"$LOG"
  else
    timeout 150 "$BUILD/$p" >>"$CSV" 2>>"$LOG"
  fi
  log "$p rc=$?"
done

kill "$SMI_PID" 2>/dev/null
wait "$SMI_PID" 2>/dev/null
{
  echo "### nvidia-smi -q -d CLOCK (after)"; nvidia-smi -q -d CLOCK 2>&1
  echo "### nvidia-smi -q -d PERFORMANCE (after)"; nvidia-smi -q -d PERFORMANCE 2>&1
  echo "### clock samples during the run (every 500 ms)"; cat "$BUILD/clock_samples.csv"
} >>"$DEV"

# SASS of every program, and the timed loops' instruction counts.
: >"$BUILD/all.sass"
if command -v cuobjdump >/dev/null; then
  for p in $PROGS; do
    [ -x "$BUILD/$p" ] && cuobjdump -sass "$BUILD/$p" >>"$BUILD/all.sass" 2>>"$LOG"
  done
  python3 "$HERE/sass_loops.py" --sass "$BUILD/all.sass" --csv "$CSV" --out "$SASS" >>"$LOG" 2>&1
  log "sass done ($(wc -l <"$BUILD/all.sass") lines)"
  [ -n "${CALIB_SASS_ALL:-}" ] && cp "$BUILD/all.sass" "$OUT/all.sass"
else
  log "no cuobjdump"
fi
# Nsight Compute's warp states per kernel (one launch of each: CALIB_NCU=1), where ncu exists.
if [ -n "${CALIB_WITH_NCU:-}" ] && command -v ncu >/dev/null; then
  NCU="$OUT/ncu_${CSV_NAME%.csv}.csv"
  : >"$NCU"
  for p in $PROGS; do
    [ "$p" = devprops ] && continue
    [ -x "$BUILD/$p" ] || continue
    log "ncu $p"
    CALIB_NCU=1 timeout 150 ncu --clock-control none --csv --page raw --section WarpStateStats \
      --section SchedulerStats --section Occupancy --section LaunchStats \
      --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum \
      "$BUILD/$p" >"$BUILD/$p.ncu.csv" 2>>"$LOG"
    log "ncu $p rc=$? ($(wc -l <"$BUILD/$p.ncu.csv") lines)"
    sed -n '/^"ID"/,$p' "$BUILD/$p.ncu.csv" | sed "s/^/$p,/" >>"$NCU"
  done
fi
log "rows: $(($(wc -l <"$CSV") - 1)); total $(($(date +%s) - T0)) s"
# Short summary at the end of the output.
grep -E "latency_per_ptx_op|latency_minus|lat_l2_per_sm|ops_per_clk|ffma_ipc_per_smsp_w(4|16)|checker_ratio|stripe32_ratio|lane_plus_1_ratio|GBps|time_ms|_us" "$CSV" \
  | grep -v useful | cut -d, -f1-3 | head -150
