#!/bin/bash
# probe_wbmix.sh: whole-sector write-backs mixed with random reads, and the span a private L2
# footprint is read over (wbmix.cu), issue 6: event-timed rows, then Nsight Compute per point (DRAM
# bytes and active cycles, L2 hit rate, slice balance, fabric traffic; --cache-control none, so the
# second, profiled launch finds the L2 as the first left it). Build first:
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/wbmix calib/kernels/wbmix.cu
# then run on the GPU with OUT set to a folder for the results.
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_wbmix.txt 2>>$L
echo "kernel,parameter,value,unit,notes" > $OUT/calib_wbmix.csv
devbin/wbmix >> $OUT/calib_wbmix.csv 2>>$L
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_wbmix.txt 2>>$L
N=$OUT/ncu_wbmix.csv
M=dram__bytes_read.sum,dram__bytes_write.sum,dram__cycles_active_read.sum,dram__cycles_active_write.sum,dram__cycles_elapsed.avg,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,sm__cycles_elapsed.avg,lts__cycles_elapsed.avg,lts__t_sectors_op_read.sum,lts__t_sectors_op_read.max,lts__t_sectors_op_read.avg,lts__t_sectors_op_write.sum,lts__t_sectors.max,lts__t_sectors.avg,lts__d_sectors.sum,lts__ltcfabric2lts_cycles_active.sum,lts__t_sectors_srcunit_ltcfabric.sum
for r in 4 3 2 1 0; do
  echo "### wbmix mix $r" >> $N
  timeout 120 ncu --clock-control none --cache-control none --csv --page raw -k regex:mixed -c 2 --section WarpStateStats \
    --metrics $M devbin/wbmix mix $r >> $N 2>>$L || echo "FAILED mix $r" >> $L
done
for p in 1 132; do
  echo "### wbmix span $p" >> $N
  timeout 120 ncu --clock-control none --cache-control none --csv --page raw -k regex:span -c 2 --section WarpStateStats \
    --metrics $M devbin/wbmix span $p >> $N 2>>$L || echo "FAILED span $p" >> $L
done
cuobjdump -sass devbin/wbmix > $OUT/wbmix.sm_90.sass 2>>$L || echo "no cuobjdump" >> $L
