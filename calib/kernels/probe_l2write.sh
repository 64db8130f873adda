#!/bin/bash
# probe_l2write.sh: what a written sector costs when a private footprint spills out of the L2, by the
# shape of the store (l2write.cu; issue 6, calib/README.md "thirteenth pass"): the rows, then Nsight
# Compute per point (DRAM bytes read and written, L2 hit rate and sector operations, warp states).
# Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/l2write calib/kernels/l2write.cu
# then run on the GPU with OUT set to a folder for the results (about 2 minutes with ncu):
#   bash calib/kernels/probe_l2write.sh
# and commit $OUT's files under calib/results/l2write/.
set -u
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_l2write.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_h200_l2write.csv
devbin/l2write >> $OUT/calib_h200_l2write.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_l2write.txt 2>>$L
N=$OUT/ncu_l2write.csv
for s in word sector line rmw_sector; do for mb in 48 64 96; do
  echo "### l2write $s $mb" >> $N
  timeout 90 ncu --clock-control none --csv --page raw -k regex:private_write --section WarpStateStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    devbin/l2write $s $mb >> $N 2>>$L || echo "FAILED l2write $s $mb" >> $L
done; done
cuobjdump -sass devbin/l2write > $OUT/l2write.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L
