#!/bin/bash
# probe_holdout.sh: the held-out kernels (calib/kernels/holdout.cu) on the GPU: their times (twice), their
# SASS (cuobjdump -sass / -elf, nvdisasm -g: the import's input), and Nsight Compute's instruction counts,
# warp states and memory traffic; plus ncu's instruction counts of apps.cu's and contention.cu's kernels
# (do the hand twins issue what the compiled code issues?). Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/holdout calib/kernels/holdout.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/apps calib/kernels/apps.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/contention calib/kernels/contention.cu
#   (in a copy under /tmp/simt-sim, as tests/sass/dump.sh builds:) nvcc -cubin -arch=sm_90 -O3 -lineinfo
#     -std=c++17 -o calib/sass/holdout.sm_90.cubin calib/kernels/holdout.cu
# then run on the GPU with OUT set (a few minutes) and commit $OUT's files under calib/results/holdout/
# (the three SASS files under calib/sass/).
set -u
L=$OUT/log_holdout.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $L
for r in 1 2; do
  C=$OUT/calib_holdout_run$r.csv
  echo "kernel,parameter,value,unit,notes" > $C
  devbin/holdout >> $C 2>>$L || echo "FAILED holdout run $r" >> $L
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader >> $L
cu=calib/sass/holdout.sm_90.cubin
cuobjdump -sass $cu | sed 's#/tmp/simt-sim/##g' > $OUT/holdout.sm_90.sass 2>>$L
cuobjdump -elf $cu > $OUT/holdout.sm_90.elf 2>>$L
nvdisasm -g -c $cu 2>&1 | sed 's#/tmp/simt-sim/##g' > $OUT/holdout.sm_90.nvdisasm
M=smsp__inst_executed.sum,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct
CALIB_NCU=1 ncu --clock-control none --csv --page raw --section WarpStateStats --section SchedulerStats \
  --section Occupancy --metrics $M devbin/holdout > $OUT/ncu_holdout.csv 2>>$L || echo "FAILED ncu holdout" >> $L
for b in apps contention; do   # (one file: at most 8 come back)
  CALIB_NCU=1 timeout 200 ncu --clock-control none --csv --metrics smsp__inst_executed.sum,gpu__time_duration.sum devbin/$b \
    >> $OUT/ncu_inst_apps_contention.csv 2>>$L || echo "FAILED ncu $b" >> $L
done
echo "done" >> $L
