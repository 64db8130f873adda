#!/bin/bash
# probe_blocktimes.sh: every warp's start and end (SM, globaltimer, clock64) in five held-out kernels
# (calib/kernels/blocktimes.cu), twice. Build first (here):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/blocktimes calib/kernels/blocktimes.cu
# then run on the GPU with OUT set (seconds); commit $OUT's files under calib/results/blocktimes/.
set -u
L=$OUT/log_blocktimes.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv >> $L
for r in 1 2; do
  C=$OUT/calib_blocktimes_run$r.csv
  echo "kernel,parameter,value,unit,notes" > $C
  timeout 120 devbin/blocktimes $OUT/stamps_run$r.csv >> $C 2>>$L || echo "FAILED blocktimes run $r" >> $L
done
gzip -9 $OUT/stamps_run*.csv
echo done >> $L
