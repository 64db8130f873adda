#!/bin/bash
# probe_ldgform2.sh: ldgform.cu's loads by shape (one line, one sector, two lines in one bank as
# ho_gemm_naive's A loads, 32 lines in one bank as ho_matvec_thread's, 32 lines in 32 banks), with
# Nsight Compute's L1TEX data-pipe wavefronts and bank conflicts per shape: do the L1's data banks
# conflict as shared memory's (memory.l1_data_bank_conflicts)? Build first (here):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/ldgform calib/kernels/ldgform.cu
# then run on the GPU with OUT set (about a minute); commit $OUT's files under calib/results/atomtype/.
set -u
L=$OUT/log_ldgform2.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $L
C=$OUT/calib_ldgform2.csv
echo "kernel,parameter,value,unit,notes" > $C
timeout 120 devbin/ldgform >> $C 2>>$L || echo "FAILED ldgform" >> $L
M=smsp__inst_executed.sum,l1tex__lsuin_requests.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_global.sum,sm__cycles_elapsed.avg,l1tex__t_sector_hit_rate.pct
N=$OUT/ncu_ldgform2.csv
for p in "nc bank2" "nc bank32" "nc spread32" "ca bank2" "nc line"; do
  echo "### $p" >> $N
  CALIB_NCU=1 timeout 60 ncu --clock-control none --csv --page raw --metrics $M devbin/ldgform $p >> $N 2>>$L || echo "FAILED ncu $p" >> $L
done
cuobjdump -sass devbin/ldgform > $OUT/ldgform.sm_90.sass 2>>$L
echo done >> $L
