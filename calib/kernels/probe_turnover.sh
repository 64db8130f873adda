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
