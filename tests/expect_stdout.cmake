# expect_stdout.cmake: runs a command that must succeed and checks its stdout alone
# (not stderr) against EXPECT, e.g. that --functional --dump - prints nothing but the CSV.
#   cmake -DCMD=prog|arg|arg -DEXPECT=regex [-DFILE=path] -P expect_stdout.cmake
# With FILE, the file the command wrote is checked instead of stdout.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${cmd}: exit status '${rc}', expected 0\n${err}")
endif()
if(FILE)
  file(READ "${FILE}" out)
endif()
if(NOT "${out}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${cmd}: stdout\n  ${out}does not match\n  ${EXPECT}")
endif()
message(STATUS "ok")
