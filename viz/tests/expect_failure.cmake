# expect_failure.cmake: runs simt-viz where it must fail, and checks that it fails
# cleanly: exit status exactly 1 (not a crash, not 0) and output matching EXPECT.
#   cmake -DVIZ=simt-viz -DCSV=bad.csv -DEXPECT=regex [-DARGS=a|b|c] [-DXVFB=xvfb-run] -P expect_failure.cmake
# ARGS are extra arguments separated by '|'; XVFB, if given, is a wrapper that provides an X display (tests/with_xvfb.sh).
set(cmd ${VIZ} ${CSV})
if(ARGS)
  string(REPLACE "|" ";" extra "${ARGS}")
  list(APPEND cmd ${extra})
endif()
if(XVFB)
  list(PREPEND cmd ${XVFB})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "${cmd}: exit status '${rc}', expected 1\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${cmd}: output\n  ${out}${err}does not match\n  ${EXPECT}")
endif()
message(STATUS "ok: ${out}${err}")
