#!/bin/bash
# probe_atomtype.sh: global atomics by operation and width (atomtype.cu), L1-hit loads by form
# (ldgform.cu), and the 64-bit integer latencies and rates added to latency.cu / throughput.cu, with
# Nsight Compute's warp states and L1TEX request counts, and the SASS of all four. Build first (here):
#   for f in atomtype ldgform latency throughput; do nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/$f calib/kernels/$f.cu; done
# then run on the GPU with OUT set (about 4 minutes); commit $OUT's files under calib/results/atomtype/.
set -u
L=$OUT/log_atomtype.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $L
for b in atomtype ldgform latency throughput; do
  C=$OUT/calib_$b.csv
  echo "kernel,parameter,value,unit,notes" > $C
  timeout 240 devbin/$b >> $C 2>>$L || echo "FAILED $b rc=$?" >> $L
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader >> $L
for b in atomtype ldgform latency throughput; do echo "### $b"; cuobjdump -sass devbin/$b; done > $OUT/sass_atomtype.txt 2>>$L
M=smsp__inst_executed.sum,gpu__time_duration.sum,l1tex__lsuin_requests.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.sum,sm__cycles_elapsed.avg
M=$M,lts__t_requests_op_red.sum,lts__t_requests_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum
CALIB_NCU=1 timeout 200 ncu --clock-control none --csv --page raw --section WarpStateStats --metrics $M \
  -k regex:"tail|atom_type" devbin/atomtype > $OUT/ncu_atomtype.csv 2>>$L || echo "FAILED ncu atomtype" >> $L
N=$OUT/ncu_ldgform.csv
for p in "ca line" "nc line" "plain line" "nc bcast" "ca bcast" "nc128 line"; do
  echo "### $p" >> $N
  CALIB_NCU=1 timeout 60 ncu --clock-control none --csv --page raw --section WarpStateStats --metrics $M devbin/ldgform $p >> $N 2>>$L \
    || echo "FAILED ncu ldgform $p" >> $L
done
echo "done" >> $L
