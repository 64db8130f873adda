#!/bin/bash
# probe_latload.sh: one SM's loaded gather latency (issue 6, calib/README.md twenty-seventh pass).
# latdist's `loaded` mode: 1 .. 32 warps on one SM chase random lines at once, 1 or 32 lanes per hop,
# cold (DRAM) and warm (L2). Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/latdist calib/kernels/latdist.cu
# then run on the GPU with OUT set (under a minute) and commit $OUT's files under calib/results/l2atom/.
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_latload.txt
C=$OUT/calib_latload.csv
echo "kernel,parameter,value,unit,notes" > $C
devbin/latdist loaded >> $C 2>>$OUT/latload_log.txt || echo "FAILED latdist loaded" >> $OUT/latload_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_latload.txt
