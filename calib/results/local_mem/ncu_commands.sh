S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,gpu__time_duration.sum"
X="--metrics l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct,l1tex__t_sector_pipe_lsu_mem_local_op_st_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum"
export CALIB_NCU=1
timeout 200 ncu --clock-control none --csv --page raw $S -k regex:"local_spill|recurse" devbin/contention > $OUT/ncu_local.csv 2> $OUT/log.txt; echo "a rc=$?" >> $OUT/log.txt
timeout 120 ncu --clock-control none --csv --page raw $X -k regex:"local_spill|recurse" devbin/contention > $OUT/ncu_local_x.csv 2>> $OUT/log.txt; echo "b rc=$?" >> $OUT/log.txt
timeout 200 ncu --clock-control none --csv --page raw $S -k regex:"stencil5|spmv_powerlaw" devbin/apps > $OUT/ncu_apps.csv 2>> $OUT/log.txt; echo "c rc=$?" >> $OUT/log.txt
