#!/bin/bash
# probe_l2parts.sh: is a private footprint's slow store path the footprint's privacy or the DRAM mix?
# (issue 6, sixteenth pass). l2write.cu's rows with the footprint shared by every SM (PARTS 1) and by
# groups of 4 SMs (PARTS 33) beside the private rows (PARTS 132, calib/results/l2write/), then Nsight
# Compute's L2 (lts__) and DRAM counters, every one the chip has, on private and shared points.
# Build first (here, no GPU needed):
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/l2write calib/kernels/l2write.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/contention calib/kernels/contention.cu
#   nvcc -arch=sm_90 -O3 -std=c++17 -o devbin/mixrw calib/kernels/mixrw.cu
# then run on the GPU with OUT set (about 6 minutes) and commit $OUT's files under calib/results/l2parts/.
set -u
L=$OUT/probe_log.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/clocks_l2parts.txt 2>>$L
C=$OUT/calib_l2parts.csv
echo "kernel,parameter,value,unit,notes" > $C
for p in 1 33; do L2WRITE_PARTS=$p devbin/l2write >> $C 2>>$L; done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader >> $OUT/clocks_l2parts.txt 2>>$L
# The L2's sector, request, tag, data-stage and interface counters and DRAM's (ltcfabric ones were
# measured before, calib/results/fabric/), each with its rollups.
ncu --query-metrics --chip gh100 > $OUT/ncu_metrics_gh100.txt 2>>$L
M="regex:^(lts__(t_sectors|t_requests|t_tag|d_|xbar2lts|lts2xbar|lts2fbp|fbp2lts|cycles_active|average)|dram__)"
N=$OUT/ncu_l2parts.csv
run() { echo "### $*" >> $N; timeout 80 ncu --clock-control none --csv --page raw --metrics "$M",gpu__time_duration.sum,lts__cycles_elapsed.avg,sm__cycles_elapsed.avg "$@" >> $N 2>>$L || echo "FAILED $*" >> $L; }
run -k regex:private_write devbin/l2write rmw_sector 48 132
if grep -q FAILED $L; then  # too many passes: the sector and request counters and DRAM's
  M="regex:^(lts__t_(sectors|requests)_(op|srcunit_tex_op)_(read|write)|lts__d_|lts__cycles_active|dram__bytes)"
  echo "fewer metrics" >> $L
  run -k regex:private_write devbin/l2write rmw_sector 48 132
fi
run -k regex:private_write devbin/l2write rmw_sector 48 1
run -k regex:private_write devbin/l2write word 64 132
run -k regex:private_write devbin/l2write sector 96 132
run devbin/mixrw word 2
run -k regex:local_spill -c 1 devbin/contention
cd $OUT && tar czf ncu_l2parts.tgz ncu_l2parts.csv ncu_metrics_gh100.txt && rm ncu_l2parts.csv ncu_metrics_gh100.txt
