#!/bin/bash
# probe_mlp2.sh: part 2 of mlp.cu (rows mlp2_*: loads and stores on fewer SMs; stores by lines per
# warp store and warps per SM), then Nsight Compute on a few store points. Build as probe_mlp.sh
# says, run with OUT set, commit $OUT's files under calib/results/mlp/.
set -u
L=$OUT/probe2_log.txt
echo "kernel,parameter,value,unit,notes" > $OUT/calib_h200_mlp2.csv
devbin/mlp 2 >> $OUT/calib_h200_mlp2.csv 2>>$L
N=$OUT/ncu_mlp2.csv
for pt in "l2 1 32 store" "l2 32 32 store" "dram 1 64 store" "dram 32 64 store"; do
  echo "### mlp $pt" >> $N
  timeout 90 ncu --clock-control none --csv --page raw -k regex:mlp_scatter --section WarpStateStats \
    --metrics gpu__time_duration.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    devbin/mlp $pt >> $N 2>>$L || echo "FAILED mlp $pt" >> $L
done
