#!/bin/bash
# probe_recurse.sh: what one more call of recurse costs on the H200, and what its L2 writes to DRAM
# (issue 6, calib/README.md "twenty-sixth pass": the twin writes 37 MB of stack lines back per call,
# ncu's 16 calls 20 MB each). contention.cu's rows with recurse also at K = 2 and 4 (the twin's
# validate points), then Nsight Compute's DRAM and L2 write counters on those four launches.
# Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/contention calib/kernels/contention.cu
# then run on the GPU with OUT set (about a minute) and commit $OUT's files under calib/results/local_mem/.
set -u
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_recurse.txt 2>>$L
C=$OUT/calib_recurse_ks.csv
echo "kernel,parameter,value,unit,notes" > $C
CALIB_RECURSE_KS=2,4 devbin/contention >> $C 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_recurse.txt 2>>$L
# One profiled launch each (REPS 1, no warm-up): depth 8 and 32 at K = 16, 2 and 4, in that order.
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum
CALIB_NCU=1 CALIB_RECURSE_KS=2,4 timeout 300 ncu --clock-control none --csv --page raw -k regex:recurse \
  --section WarpStateStats --metrics $M devbin/contention > $OUT/ncu_recurse_ks.csv 2>>$L || echo "FAILED ncu" >> $L
