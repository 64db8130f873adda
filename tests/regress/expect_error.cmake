# expect_error.cmake: runs simt-sim on one hostile input of the regression corpus
# and checks that it ends cleanly and quickly: exit status exactly 1 (not 0, not a
# crash, not "internal error" = 2), within the time limit, with a message
# matching EXPECT ("file:line:col: error: ...").
#   cmake -DSIM=simt-sim -DARGS=a|b|c -DEXPECT=regex [-DSTDOUT=file] -P expect_error.cmake
string(REPLACE "|" ";" args "${ARGS}")
set(redirect)
if(STDOUT)
  set(redirect OUTPUT_FILE ${STDOUT})
else()
  set(redirect OUTPUT_VARIABLE out)
endif()
execute_process(COMMAND ${SIM} ${args} RESULT_VARIABLE rc ${redirect} ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "simt-sim ${args}: exit status '${rc}', expected 1\n${err}")
endif()
if(NOT "${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "simt-sim ${args}: message\n  ${err}does not match\n  ${EXPECT}")
endif()
message(STATUS "ok: ${err}")
