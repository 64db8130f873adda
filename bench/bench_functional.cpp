// bench_functional.cpp: how fast the functional executor alone runs, in
// simulated warp instructions per second of host time, on the ALU-bound and
// SFU-bound kernels of bench_throughput (> 10 million warp instructions each).
//
//     bench_functional [REPEATS [ITERATIONS [alu|sfu]]]
//
// "executor" steps every warp of a block round-robin through Executor::step
// (what the timing model calls per issued instruction); "run_functional" is
// the functional runner with its per-pc counters. Host time covers execution
// only (not assembly or memory set-up); the best of REPEATS runs (default 3)
// is printed, so a machine shared with other jobs gives stable numbers.
// ITERATIONS (default 700) shortens the loop, e.g. for a run under callgrind,
// and a last argument picks one kernel.
//
//     bench_functional --accuracy [STEP]
//
// instead sweeps every STEP-th float (default 1: all of them) through the
// fp32 special functions (sim/functional/fpmath.hpp) and prints the largest
// error against the host's double-precision sin, cos, exp2, log2.
// Left out: timing of any kind.
#include "bench/bench_kernels.hpp"
#include "isa/assembler.hpp"
#include "sim/functional/executor.hpp"
#include "sim/functional/memory.hpp"
#include "sim/functional/runner.hpp"
#include "sim/functional/semantics.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

using simt::bench::loop_kernel;

// Steps every block's warps round-robin until the block is done; returns the
// warp instructions executed.
uint64_t run_executor(const simt::isa::Program& program) {
    simt::func::GlobalMemory memory(program, ".");
    simt::func::Executor ex(program, memory);
    simt::func::DynInst di;
    for (uint64_t b = 0; b < program.num_blocks(); ++b) {
        std::unique_ptr<simt::func::Block> block = ex.make_block(b);
        while (!block->done()) {
            for (simt::func::Warp& w : block->warps)
                if (!w.done() && !w.at_barrier) ex.step(*block, w, di);
            if (block->barrier_ready()) block->release_barrier();
        }
    }
    return ex.warp_instructions();
}

uint64_t run_runner(const simt::isa::Program& program) {
    simt::func::GlobalMemory memory(program, ".");
    return simt::func::run_functional(program, memory).warp_instructions;
}

template <typename F>
void bench(const char* what, const simt::isa::Program& program, int repeats, F run) {
    double best = 1e30;
    uint64_t n = 0;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = Clock::now();
        n = run(program);
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::printf("%-12s %-15s %12llu warp instr  host %.3f s  %.2f M warp instr/s\n", program.kernel.c_str(), what,
                (unsigned long long)n, best, double(n) / best / 1e6);
}

// Largest error of f against ref over every step-th float of [lo, hi), both
// signs; relative to |ref| when `rel`.
template <typename F, typename R>
void sweep(const char* what, float lo, float hi, uint32_t step, bool rel, F f, R ref) {
    namespace sem = simt::func::sem;
    double worst = 0;
    float at = 0;
    uint64_t n = 0;
    for (uint32_t sign : {0u, 0x80000000u}) {
        for (uint32_t u = sem::bits(lo); u < sem::bits(hi); u += step, ++n) {
            const float x = sem::f32(u | sign);
            const double want = ref(double(x)), got = f(x);
            const double e = rel ? std::fabs(got - want) / std::fabs(want) : std::fabs(got - want);
            if (e > worst) worst = e, at = x;
        }
    }
    std::printf("%-34s %11llu floats  max %s error %.3g = 2^%.2f at %a\n", what, (unsigned long long)n,
                rel ? "relative" : "absolute", worst, std::log2(worst), at);
}

void accuracy(uint32_t step) {
    namespace sem = simt::func::sem;
    auto sin_ref = [](double x) { return std::sin(x); };
    auto cos_ref = [](double x) { return std::cos(x); };
    auto fsin = [](float x) { return sem::sin(x); };
    auto fcos = [](float x) { return sem::cos(x); };
    const float quick = sem::kTrigQuickMax;
    sweep("sin |x| in [2^-126, 8192]", 0x1p-126f, quick, step, false, fsin, sin_ref);
    sweep("cos |x| in [2^-126, 8192]", 0x1p-126f, quick, step, false, fcos, cos_ref);
    sweep("sin |x| in (8192, max]", quick, INFINITY, step, false, fsin, sin_ref);
    sweep("cos |x| in (8192, max]", quick, INFINITY, step, false, fcos, cos_ref);
    sweep("sin |x| in [2^-126, 1/2] (relative)", 0x1p-126f, 0.5f, step, true, fsin, sin_ref);
    sweep("ex2 |x| in [2^-126, 126)", 0x1p-126f, 126.0f, step, true, [](float x) { return sem::ex2(x); },
          [](double x) { return std::exp2(x); });
    sweep("ex2 x in [-150, -126) / 2^-149", 126.0f, 150.0f, step, false,
          [](float x) { return x < 0 ? sem::ex2(x) * 0x1p149 : 0.0; },
          [](double x) { return x < 0 ? std::exp2(x) * 0x1p149 : 0.0; });
    sweep("lg2 x in [2^-149, max]", 0x1p-149f, INFINITY, step, true,
          [](float x) { return x > 0 ? sem::lg2(x) : 1.0; }, [](double x) { return x > 0 ? std::log2(x) : 1.0; });
    sweep("lg2 x in [1/2, 2) (absolute)", 0.5f, 2.0f, step, false,
          [](float x) { return x > 0 ? sem::lg2(x) : 0.0; }, [](double x) { return x > 0 ? std::log2(x) : 0.0; });
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--accuracy") == 0) {
        accuracy(argc > 2 ? uint32_t(std::max(1, std::atoi(argv[2]))) : 1u);
        return 0;
    }
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const int iterations = argc > 2 ? std::max(1, std::atoi(argv[2])) : 700;
    const std::string only = argc > 3 ? argv[3] : "";
    try {
        for (const char* op : {"ffma", "sin"}) {
            const char* name = std::strcmp(op, "ffma") == 0 ? "alu_bound" : "sfu_bound";
            if (!only.empty() && only + "_bound" != name) continue;
            const simt::isa::Program program = simt::isa::assemble_text(loop_kernel(name, op, iterations), name);
            bench("executor", program, repeats, run_executor);
            bench("run_functional", program, repeats, run_runner);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_functional: %s\n", e.what());
        return 1;
    }
    return 0;
}
