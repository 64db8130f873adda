#!/bin/bash
# probe_l1keep.sh: l1keep.cu's phases (timed by clock64 and counted by Nsight Compute's L1TEX
# load and store look-ups, hit and miss), and ho_softmax's look-ups split by loads and stores: does
# a global store allocate in the L1, and is its replacement LRU? Build first (here):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/l1keep calib/kernels/l1keep.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/holdout calib/kernels/holdout.cu
# then run on the GPU with OUT set (about two minutes); commit $OUT's files under calib/results/l1keep/.
set -u
L=$OUT/log_l1keep.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $L
C=$OUT/calib_l1keep.csv
echo "kernel,parameter,value,unit,notes" > $C
timeout 120 devbin/l1keep >> $C 2>>$L || echo "FAILED l1keep" >> $L
devbin/l1keep LIST > $OUT/l1keep_variants.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum
M=$M,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,launch__shared_mem_config_size,sm__cycles_elapsed.avg,gpu__time_duration.sum
CALIB_NCU=1 timeout 240 ncu --clock-control none --csv --page raw --metrics $M devbin/l1keep > $OUT/ncu_l1keep.csv 2>>$L \
  || echo "FAILED ncu l1keep" >> $L
CALIB_NCU=1 timeout 120 ncu --clock-control none --csv --page raw -k regex:ho_softmax\|ho_gemm_naive\|ho_conv3x3 --metrics $M \
  devbin/holdout > $OUT/ncu_holdout_l1split.csv 2>>$L || echo "FAILED ncu holdout" >> $L
cuobjdump -sass devbin/l1keep > $OUT/l1keep.sm_90.sass 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader >> $L
echo done >> $L
