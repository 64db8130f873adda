// bench_kernels.hpp: the benchmark kernels, shared by bench_throughput (the whole
// simulator) and bench_functional (the executor alone) so both time the same code.
#pragma once

#include <cstring>
#include <string>

namespace simt::bench {

// 192 blocks of 256 threads; each loop iteration issues 8 independent `op`s
// (ffma r, r, r2, r3 for "ffma", otherwise "op r, r") plus iadd/isetp/bra.
inline std::string loop_kernel(const char* name, const char* op, int iterations) {
    std::string s = std::string(".kernel ") + name + "\n.grid 192\n.block 256\n.regs 32\n"
                    "    mov r0, 0\n    mov r2, 1.0001\n    mov r3, 0.5\nloop:\n";
    for (int i = 0; i < 8; ++i) {
        std::string r = "r" + std::to_string(8 + i);
        s += std::string("    ") + op + " " + r + ", " + r + (std::strcmp(op, "ffma") == 0 ? ", r2, r3\n" : "\n");
    }
    s += "    iadd r0, r0, 1\n    isetp.lt p0, r0, " + std::to_string(iterations) + "\n    @p0 bra loop\n    exit\n";
    return s;
}

}  // namespace simt::bench
