#!/bin/bash
# ncu on the L2 fabric between the two partitions and the L2's DRAM traffic (issue 6, fifteenth pass).
set -u
N=$OUT/ncu_fabric.csv
M="regex:.*ltcfabric.*,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,lts__cycles_elapsed.avg,sm__cycles_elapsed.avg"
run() { echo "### $*" >> $N; timeout 60 ncu --clock-control none --csv --page raw --metrics "$M" "$@" >> $N 2>>$OUT/fabric_log.txt || echo "FAILED $*" >> $OUT/fabric_log.txt; }
nvidia-smi -L > $OUT/fabric_log.txt
for p in "rmw_sector 16" "rmw_sector 48" "rmw_sector 96" "word 16" "word 64" "sector 96" "line 16"; do run -k regex:private_write devbin/l2write $p; done
for p in "random 16" "private 16" "private 64"; do run -k regex:random_read devbin/l2cap $p; done
run devbin/mixrw word 2
run -k regex:mlp_gather devbin/mlp l2 32 64
