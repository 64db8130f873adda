#!/bin/bash
# probe_l1pipe.sh: what an SM's shared memory and L1 hits share, S2R / LDC latency, and a DRAM read's
# latency beside other SMs' store storms (l1pipe.cu), then Nsight Compute's L1TEX data-pipe counters on
# l1pipe's points and on transpose_tiled (contention.cu) and sgemm_tile (apps.cu). Build first (here):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/l1pipe calib/kernels/l1pipe.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/contention calib/kernels/contention.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/apps calib/kernels/apps.cu
# then run on the GPU with OUT set (about 5 minutes); commit $OUT's files under calib/results/l1pipe/.
set -u
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_l1pipe.txt 2>>$L
C=$OUT/calib_l1pipe.csv
echo "kernel,parameter,value,unit,notes" > $C
timeout 240 devbin/l1pipe >> $C 2>>$L || echo "FAILED l1pipe rc=$?" >> $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_l1pipe.txt 2>>$L
M=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_write.sum,l1tex__lsu_writeback_active.sum,l1tex__lsuin_requests.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,l1tex__f_wavefronts.sum
M=$M,sm__cycles_elapsed.avg,smsp__inst_executed.sum,gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct
N=$OUT/ncu_l1pipe.csv
run() { echo "### $*" >> $N; timeout 90 ncu --clock-control none --csv --page raw --section WarpStateStats --metrics $M "$@" >> $N 2>>$L || echo "FAILED $*" >> $L; }
for p in "lds 32 1" "ldg 1 32" "mix 32 1" "mix 1 32" "mix 1 1" "ldg 1 1" "lds 1 1"; do run -k regex:pipe devbin/l1pipe pipe $p; done
export CALIB_NCU=1
run -c 1 -k regex:transpose_tiled devbin/contention
run -c 1 -k regex:sgemm_tile devbin/apps
run -c 1 -k regex:scan_block devbin/apps
for b in l1pipe; do cuobjdump -sass devbin/$b > $OUT/$b.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L; done
