# same_csv.cmake: runs a sweep locally and a second way (another --jobs, or under
# mpirun), and checks the two CSVs are the same bytes.
#   cmake -DSIM=simt-sim -DSPEC=spec.yaml -DOUT=dir [-DSECOND=a|b|c] [-DJOBS=n] [-DTHREADS=n] -P same_csv.cmake
# SECOND is the command line of the second run up to the simulator ('|'-separated,
# e.g. mpirun|-n|3); it gets `SIM sweep SPEC -o OUT/second.csv -q -j JOBS` appended
# (JOBS defaults to 1; THREADS, if given, adds --threads THREADS). The local run uses -j 1.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${SIM} sweep ${SPEC} -o ${OUT}/local.csv -q -j 1 RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "local sweep: exit status ${rc}\n${err}")
endif()
string(REPLACE "|" ";" second "${SECOND}")
if(NOT JOBS)
  set(JOBS 1)
endif()
set(threads)
if(THREADS)
  set(threads --threads ${THREADS})
endif()
execute_process(COMMAND ${second} ${SIM} sweep ${SPEC} -o ${OUT}/second.csv -q -j ${JOBS} ${threads}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${second} sweep: exit status ${rc}\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/local.csv ${OUT}/second.csv RESULT_VARIABLE diff)
if(NOT diff STREQUAL "0")
  message(FATAL_ERROR "${OUT}/second.csv differs from the local run's ${OUT}/local.csv")
endif()
file(STRINGS ${OUT}/local.csv rows)
list(LENGTH rows n)
message(STATUS "ok: ${n} lines identical; ${err}")
