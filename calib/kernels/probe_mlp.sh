#!/bin/bash
# probe_mlp.sh: lines in flight per SM by lines per warp load (mlp.cu; issue 6, calib/README.md
# "fifteenth pass"): the rows, then Nsight Compute at a few points (warp states, L1 requests and
# sectors). Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/mlp calib/kernels/mlp.cu
# then run on the GPU with OUT set to a folder for the results (about 2 minutes with ncu):
#   bash calib/kernels/probe_mlp.sh
# and commit $OUT's files under calib/results/mlp/.
set -u
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_mlp.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_h200_mlp.csv
devbin/mlp >> $OUT/calib_h200_mlp.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_mlp.txt 2>>$L
N=$OUT/ncu_mlp.csv
for pt in "l2 32 32" "l2 32 64" "l2 8 64" "l2 1 64" "dram 32 64" "dram 1 64" "dram 32 8"; do
  echo "### mlp $pt" >> $N
  timeout 90 ncu --clock-control none --csv --page raw -k regex:mlp_gather --section WarpStateStats \
    --metrics gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum \
    devbin/mlp $pt >> $N 2>>$L || echo "FAILED mlp $pt" >> $L
done
cuobjdump -sass devbin/mlp > $OUT/mlp.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L
