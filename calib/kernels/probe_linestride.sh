#!/bin/bash
# probe_linestride.sh: linestride.cu's event-timed rows, then Nsight Compute's DRAM and L2 counters at
# s = 1, 2, 8 and 64 (whole lines; ncu flushes the L2 before each profiled launch). Build first:
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/linestride calib/kernels/linestride.cu
# then run on the GPU with OUT set to a folder for the results.
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_linestride.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_linestride.csv
devbin/linestride >> $OUT/calib_linestride.csv 2>>$L
devbin/linestride > $OUT/calib_linestride_run2.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_linestride.txt 2>>$L
N=$OUT/ncu_linestride.csv
M=dram__bytes_read.sum,dram__cycles_active_read.sum,dram__cycles_elapsed.avg,gpu__time_duration.sum,sm__cycles_elapsed.avg,lts__t_sectors_op_read.sum,lts__t_sector_hit_rate.pct
for s in 1 2 8 64; do
  echo "### linestride s $s" >> $N
  CALIB_NCU=1 timeout 120 ncu --clock-control none --csv --page raw -k regex:linestride -c 2 --metrics $M \
    devbin/linestride $s >> $N 2>>$L || echo "FAILED s $s" >> $L
done
cuobjdump -sass devbin/linestride > $OUT/linestride.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L
