#!/bin/bash
# probe_shbank_mixrw.sh: shared-memory bank conflicts (shbank.cu) and mixed random DRAM reads and
# writes (mixrw.cu), issue 6: event / clock64 rows, then Nsight Compute per point (warp states for
# shbank, DRAM bytes and hit rates for mixrw). Build first:
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/shbank calib/kernels/shbank.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/mixrw calib/kernels/mixrw.cu
# then run on the GPU with OUT set to a folder for the results.
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_shbank.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_h200_shbank.csv
devbin/shbank >> $OUT/calib_h200_shbank.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_shbank.txt 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_mixrw.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_h200_mixrw.csv
devbin/mixrw >> $OUT/calib_h200_mixrw.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_mixrw.txt 2>>$L
N=$OUT/ncu_shbank.csv
for k in lds sts mix; do for w in 1 8 32; do
  echo "### shbank $k $w" >> $N
  timeout 60 ncu --clock-control none --csv --page raw -k regex:throughput --section WarpStateStats \
    --metrics smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__cycles_elapsed.avg \
    devbin/shbank $k $w >> $N 2>>$L || echo "FAILED shbank $k $w" >> $L
done; done
N=$OUT/ncu_mixrw.csv
for s in word sector; do for r in 4 3 2 1 0; do
  echo "### mixrw $s $r" >> $N
  timeout 60 ncu --clock-control none --csv --page raw -k regex:mixed --section WarpStateStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    devbin/mixrw $s $r >> $N 2>>$L || echo "FAILED mixrw $s $r" >> $L
done; done
for b in shbank mixrw; do cuobjdump -sass devbin/$b > $OUT/$b.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L; done
