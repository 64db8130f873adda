#!/bin/bash
# atomprobe.sh: the 15 atomprobe cases of calib/README.md §10 (issue 6, atomics over many lines): event timing,
# then one Nsight Compute run per case. Build first: nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/atomprobe
# calib/kernels/atomprobe.cu; run on the GPU with OUT set to a folder for the results.
P=devbin/atomprobe
CASES=(
"grid all 1 1 distinct red 44"
"grid all 8 8 distinct red 38"
"grid all 64 1 distinct red 502"
"grid all 64 8 distinct red 187"
"grid all 64 1 same red 56"
"grid all 64 32 distinct red 58"
"grid all spread 1 distinct red 1030"
"grid all spread 4 distinct red 892"
"grid all spread 8 distinct red 712"
"grid all spread 32 distinct red 323"
"grid all spread 1 same red 264"
"grid all spread 8 same red 321"
"grid sm16 spread 32 distinct red 996"
"global warp atom 16"
"global spread atom 64"
)
T=$OUT/atomprobe_times.csv
N=$OUT/ncu_atomprobe.csv
L=$OUT/atomprobe_log.txt
nvidia-smi -q -d CLOCK > $L 2>&1
echo "kernel,parameter,value,unit,notes" > $T
for c in "${CASES[@]}"; do $P $c >> $T 2>>$L; done
ncu --query-metrics > /tmp/qm.txt 2>>$L
[ $(wc -l < /tmp/qm.txt) -gt 100 ] || ncu --query-metrics --chip gh100 > /tmp/qm.txt 2>>$L
FILTER=1; [ $(wc -l < /tmp/qm.txt) -gt 100 ] || FILTER=0
echo "query lines $(wc -l < /tmp/qm.txt)" >> $L
WANT="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed
lts__t_requests_op_red.sum lts__t_sectors_op_red.sum lts__t_requests_op_atom.sum lts__t_sectors_op_atom.sum
l1tex__t_requests_pipe_lsu_mem_global_op_red.sum l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
gpu__time_duration.sum sm__cycles_elapsed.avg lts__cycles_elapsed.avg
lts__t_requests_op_red.max lts__t_requests_op_red.min lts__t_sectors_op_red.max
lts__d_atomic_input_cycles_active.avg lts__d_atomic_input_cycles_active.max
lts__t_sectors_op_red_lookup_hit.sum lts__t_sectors_op_red_lookup_miss.sum
lts__t_tag_requests.sum lts__t_tag_requests.max lts__xbar2lts_cycles_active.avg lts__xbar2lts_cycles_active.max
lts__lts2xbar_cycles_active.avg l1tex__m_l1tex2xbar_req.sum l1tex__m_l1tex2xbar_write_bytes.sum
lts__t_sectors_srcunit_tex_op_red.sum dram__bytes_read.sum smsp__inst_executed_op_global_red.sum
smsp__inst_executed_op_global_atom.sum"
M=""
for m in $WANT; do b=${m#breakdown:}; b=${b%%.*}
  if [ $FILTER = 0 ] || grep -q "^ *$b\b" /tmp/qm.txt; then M="$M,$m"; else echo "dropped $m" >> $L; fi
done
M=${M#,}
echo "metrics: $M" >> $L
for c in "${CASES[@]}"; do
  echo "### $c" >> $N
  timeout 30 ncu --clock-control none --cache-control none --csv --page raw -k regex:atom_ --metrics $M \
    --section WarpStateStats $P ncu $c >> $N 2>>$L || echo "FAILED $c" >> $L
done
grep -E "^ *(lts__|l1tex__m|l1tex__t_requests|l1tex__data)" /tmp/qm.txt | cut -c1-160 > $OUT/ncu_query_lts.txt
