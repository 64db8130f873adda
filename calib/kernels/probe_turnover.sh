#!/bin/bash
# probe_turnover.sh: warp order while blocks come and go (turnover.cu; issue 6, calib/README.md
# "twenty-fourth pass"): the summary rows, one row per warp of SMs 0-3, the clocks and the SASS.
# Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/turnover calib/kernels/turnover.cu
# then run on the GPU with OUT set to a folder for the results (a few seconds), and commit $OUT's
# files under calib/results/turnover/.
set -u
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_turnover.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_turnover.csv
devbin/turnover $OUT/turnover_warps.csv >> $OUT/calib_turnover.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_turnover.txt 2>>$L
cuobjdump -sass devbin/turnover > $OUT/turnover.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L
# Nsight Compute on the same kernels: how many warps an SM holds (sm__warps_active) against how many
# the clock64 spans show running, and the warp states while blocks turn over.
N=$OUT/ncu_turnover.csv
M=sm__warps_active.avg.per_cycle_active,sm__ctas_launched.sum,sm__cycles_active.avg,sm__warps_launched.sum,smsp__issue_active.avg.per_cycle_active,gpu__time_duration.sum
timeout 300 ncu --clock-control none --csv --page raw -k regex:turnover --section Occupancy --section WarpStateStats \
  --section SchedulerStats --metrics $M devbin/turnover > $N 2>>$L || echo "FAILED ncu turnover" >> $L
