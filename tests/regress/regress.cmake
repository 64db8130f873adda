# regress.cmake: the regression corpus of hostile inputs (issue 10), included by
# CMakeLists.txt. Each case runs the real simt-sim binary and expects exit status
# 1 with a located message (expect_error.cmake). Paths are relative to the
# source tree; the two large inputs are generated into the build tree.
set(rg tests/regress)
set(h200 configs/h200.yaml)
set(trace traces/divergence_checker.isa)
set(gen ${CMAKE_CURRENT_BINARY_DIR}/regress)
file(MAKE_DIRECTORY ${gen})

# An undefined label of a million characters (the quadratic did-you-mean took minutes).
string(REPEAT "x" 1000000 long)
file(WRITE ${gen}/long_label.isa ".grid 1\n.block 32\nxy: nop\nbra ${long}\n")
# One instruction more than a program may hold.
string(REPEAT "nop\n" 1048577 many)
file(WRITE ${gen}/many.isa ".grid 1\n.block 32\n${many}")
unset(long)
unset(many)

function(simt_regress name expect)
  set(args ${ARGN})
  string(REPLACE ";" "|" args "${args}")
  add_test(NAME regress.${name}
           COMMAND ${CMAKE_COMMAND} -DSIM=$<TARGET_FILE:simt-sim> "-DARGS=${args}" "-DEXPECT=${expect}"
                   ${REGRESS_STDOUT} -P ${CMAKE_CURRENT_SOURCE_DIR}/${rg}/expect_error.cmake
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(regress.${name} PROPERTIES TIMEOUT 90)
endfunction()

# 1. config value ranges
simt_regress(dram_bandwidth_tiny "--set memory.dram_bandwidth_gbs=1e-300: error: memory.dram_bandwidth_gbs: expected a number >= 0.01 and <= 1000000, got 1e-300"
             ${h200} ${trace} -q --set memory.dram_bandwidth_gbs=1e-300)
# 2. random ranges
simt_regress(random_u32_range "random_u32_range.isa:4:26: error: random range .-1e.300, 1e.300. out of range" ${h200} ${rg}/random_u32_range.isa)
simt_regress(random_i32_range "random_i32_range.isa:4:26: error: random range .-9e.18, 9e.18. out of range" ${h200} ${rg}/random_i32_range.isa)
# 3. YAML streams on which yaml-cpp's LoadAll never ends
simt_regress(yaml_comma "comma.yaml:1:1: error: invalid YAML: unexpected ','" ${rg}/comma.yaml ${trace})
simt_regress(yaml_comma_quote "comma_quote.yaml:1:1: error: invalid YAML: unexpected ','" ${rg}/comma_quote.yaml ${trace})
simt_regress(yaml_anchor_comma "anchor_comma.yaml:1:3: error: invalid YAML: unexpected ','" ${rg}/anchor_comma.yaml ${trace})
# 4. devices and directories
simt_regress(dev_zero_config "/dev/zero: error: the config: not a regular file" /dev/zero ${trace})
simt_regress(dev_zero_trace "/dev/zero: error: trace file: not a regular file" ${h200} /dev/zero)
simt_regress(dev_zero_include "include_dev_zero.isa:4:1: error: included file '/dev/zero': not a regular file" ${h200} ${rg}/include_dev_zero.isa)
simt_regress(trace_is_directory "traces: error: trace file: it is a directory" ${h200} traces)
simt_regress(include_directory "include_dir.isa:4:1: error: included file '.*sub': it is a directory" ${h200} ${rg}/include_dir.isa)
# 5. did-you-mean on a very long name
simt_regress(long_label "long_label.isa:4:5: error: undefined label 'xxxx.*1000000 characters" ${h200} ${gen}/long_label.isa)
# 6. infinite recursion
simt_regress(recursion "recursion.isa:4:5: error: call depth limit" ${h200} ${rg}/recursion.isa)
simt_regress(recursion_functional "recursion.isa:4:5: error: call depth limit" ${h200} ${rg}/recursion.isa --functional)
# 7. allocations sized by a trace or a config
simt_regress(huge_buffer "huge_buffer.isa:4:9: error: buffer 'b' of 4294967296 elements x 8 bytes is larger than the limit" ${h200} ${rg}/huge_buffer.isa)
simt_regress(local_resident "local_resident.isa:2:1: error: .* resident blocks .* more than the limit of 2048 MiB" ${h200} ${rg}/local_resident.isa)
simt_regress(shared_huge "shared_huge.isa:4:9: error: shared memory bytes per block must be between 0 and 1048576" ${h200} ${rg}/shared_huge.isa --functional)
simt_regress(shared_functional "shared_functional.isa:2:1: error: kernel 'shared_functional' can never run: a block needs 1049600 bytes of shared memory" ${h200} ${rg}/shared_functional.isa --functional)
simt_regress(l1_size "--set memory.l1.size_bytes=4294967168: error: memory.l1.size_bytes: expected an integer in .1, 1073741824." ${h200} ${trace} --set memory.l1.size_bytes=4294967168)
# 8. include bomb and program size
simt_regress(include_bomb "bomb.f.\\.isa:[0-9]+:1: error: the program's text, counting every .include, exceeds the limit of 64 MiB" ${h200} ${rg}/bomb/main.isa)
simt_regress(many_instructions "many.isa:1048579:1: error: more than 1048576 instructions" ${h200} ${gen}/many.isa)
# 9. cycles: sane ranges and the cycle budget
simt_regress(block_launch_cycles "launch.block_launch_cycles: expected an integer in .0, 100000., got 4294967295" ${h200} ${trace} --no-skip --set launch.block_launch_cycles=4294967295)
simt_regress(pipe_interval "pipes.sfu.interval: expected an integer in .1, 1024., got 32768" ${h200} ${trace} --set pipes.sfu.interval=32768)
simt_regress(dram_latency "memory.dram_latency: expected an integer in .1, 100000." ${h200} ${trace} --set memory.dram_latency=4000000000)
simt_regress(max_cycles "runaway.isa:2:1: error: cycle budget of 2000 cycles exhausted" ${h200} ${rg}/runaway.isa --max-cycles 2000)
simt_regress(max_cycles_no_skip "runaway.isa:2:1: error: cycle budget of 2000 cycles exhausted" ${h200} ${rg}/runaway.isa --max-cycles 2000 --no-skip)
simt_regress(huge_grid "huge_grid.isa:2:1: error: the launch has 9223090559730712575 blocks of 32 warps, more warps than the instruction budget" ${h200} ${rg}/huge_grid.isa)
simt_regress(max_instructions "runaway.isa:6:5: error: instruction budget of 100000 warp instructions exhausted" ${h200} ${rg}/runaway.isa --max-instructions 100000)
# 10. failed writes
simt_regress(json_dev_full "/dev/full: error: cannot write: No space left on device" ${h200} ${trace} -q --json /dev/full)
simt_regress(csv_dev_full "/dev/full: error: cannot write: No space left on device" ${h200} ${trace} -q --csv /dev/full)
simt_regress(timeline_dev_full "/dev/full: error: cannot write: No space left on device" ${h200} ${trace} -q --timeline /dev/full)
simt_regress(dump_dev_full "/dev/full: error: cannot write: No space left on device" ${h200} ${trace} --functional --dump /dev/full)
set(REGRESS_STDOUT -DSTDOUT=/dev/full)
simt_regress(stdout_dev_full "<stdout>: error: cannot write: No space left on device" ${h200} ${trace} -q)
unset(REGRESS_STDOUT)
# 11. option values, counts and include cycles
simt_regress(max_instructions_negative "--max-instructions -1: error: expected a whole number from 1 to" ${h200} ${trace} --max-instructions -1)
simt_regress(max_instructions_zero "--max-instructions 0: error: expected a whole number from 1 to" ${h200} ${trace} --max-instructions 0)
simt_regress(max_cycles_text "--max-cycles 1e5x: error: expected a whole number from 1 to" ${h200} ${trace} --max-cycles 1e5x)
simt_regress(hot_negative "--hot -1: error: expected 0 to 1000 source lines" ${h200} ${trace} --hot -1)
simt_regress(buffer_2_32 "buffer_2_32.isa:4:9: error: buffer 'b' of 4294967296 elements" ${h200} ${rg}/buffer_2_32.isa)
simt_regress(include_cycle "cycle_b.isa:2:1: error: include cycle: .*cycle_a.isa' is already being read .it is the main file." ${h200} ${rg}/cycle_a.isa)
