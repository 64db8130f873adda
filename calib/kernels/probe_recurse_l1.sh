#!/bin/bash
# probe_recurse_l1.sh: how recurse's local-memory (stack) sectors fare in the L1, split into loads
# and stores, hit and miss (issue 6, calib/README.md "thirty-third pass": the model's L1 keeps 31.9 %
# of depth 32's stack where ncu counts 11.6 % of all sectors). One profiled launch of each recurse
# row (K = 16, 2, 4). Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/contention calib/kernels/contention.cu
# then run on the GPU with OUT set (about a minute); commit $OUT's files under calib/results/local_mem/.
set -u
L=$OUT/log_recurse_l1.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $L
P=l1tex__t_sectors_pipe_lsu_mem_local_op
M=${P}_ld_lookup_hit.sum,${P}_ld_lookup_miss.sum,${P}_st_lookup_hit.sum,${P}_st_lookup_miss.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum
M=$M,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$M,launch__shared_mem_config_size,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
CALIB_NCU=1 CALIB_RECURSE_KS=2,4 timeout 300 ncu --clock-control none --csv --page raw -k regex:recurse \
  --metrics $M devbin/contention > $OUT/ncu_recurse_l1split.csv 2>>$L || echo "FAILED ncu" >> $L
echo done >> $L
