# threads_same.cmake: runs the TRACES (default: every trace of traces/ and calib/traces/) on configs/rtx4060.yaml and
# configs/h200.yaml with --threads 1, 2 and 3 and checks that the JSON report, the per-pc CSV,
# --dump, --timeline and the error output (with the exit status) are byte-identical.
#   cmake -DSIM=simt-sim -DOUT=dir [-DTRACES=a.isa|b.isa] -P threads_same.cmake   (from the repository root)
# --timeline runs use one thread (an observer): it is run separately, so the other outputs
# come from the parallel run; it keeps the first 20,000 cycles (a full timeline of the largest
# traces is gigabytes).
if(NOT TRACES)
  file(GLOB TRACES traces/*.isa calib/traces/*.isa)
endif()
string(REPLACE "|" ";" TRACES "${TRACES}")  # (CTest passes the list with | between the paths)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(compared 0)
foreach(config configs/rtx4060.yaml configs/h200.yaml)
  foreach(trace ${TRACES})
    get_filename_component(name ${trace} NAME_WE)
    get_filename_component(cname ${config} NAME_WE)
    foreach(n 1 2 3)
      set(d ${OUT}/${cname}_${name}_${n})
      execute_process(COMMAND ${SIM} ${config} ${trace} -q --threads ${n} --json ${d}.json --csv ${d}.csv
                              --dump ${d}.dump
                      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
      file(WRITE ${d}.err "${rc}\n${err}")
      execute_process(COMMAND ${SIM} ${config} ${trace} -q --threads ${n} --timeline ${d}.timeline
                              --timeline-window 0:20000
                      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    endforeach()
    foreach(ext json csv dump timeline err)
      set(a ${OUT}/${cname}_${name}_1.${ext})
      foreach(n 2 3)
        set(b ${OUT}/${cname}_${name}_${n}.${ext})
        if(EXISTS ${a} OR EXISTS ${b})
          execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE diff)
          if(NOT diff STREQUAL "0")
            message(FATAL_ERROR "${config} ${trace}: ${ext} differs between --threads 1 and ${n}")
          endif()
          math(EXPR compared "${compared} + 1")
        endif()
      endforeach()
    endforeach()
    file(GLOB done ${OUT}/${cname}_${name}_*)
    file(REMOVE ${done})  # (a timeline or dump can be hundreds of MB)
  endforeach()
endforeach()
message(STATUS "ok: ${compared} outputs identical for 1, 2 and 3 threads")
