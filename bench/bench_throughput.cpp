// bench_throughput.cpp: how fast the timing model runs, in simulated warp
// instructions per second of host time, on an ALU-bound and an SFU-bound
// kernel of > 10 million warp instructions each, on configs/rtx4060.yaml.
//
//     bench_throughput [CONFIG.yaml] [--no-skip] [--only alu|sfu] [--iterations N]
//     bench_throughput [CONFIG.yaml] --trace T.isa [-u NAME=VALUE ...] [--repeat N]
//     bench_throughput [CONFIG.yaml] [--trace T.isa ...] --threads N | --scaling
//
// --trace times one trace file instead (e.g. a memory-bound or divergent one, or
// the seed pass: calib/traces/seed_stripes.isa -u sx=0 -u sy=0), with its
// uniforms overridden as simt-sim's --uniform; --repeat N runs it N times and
// prints each (report the fastest: the machine may be shared).
// --threads N runs the model on N host threads (RunOptions::threads, the same
// Stats); --scaling runs every measurement on 1 and then 2 threads and prints
// both rates and the speed-up of 2 over 1 (with --repeat: the fastest of each),
// e.g. the H200 full-chip seed pass:
//     bench_throughput configs/h200.yaml --trace calib/traces/seed_stripes.isa -u sx=0 -u sy=0 --scaling --repeat 3
// --only and --iterations (default 700) make short runs for profiling
// (e.g. under valgrind --tool=callgrind); the bar is measured with the defaults.
//
// Each kernel is a loop of 8 independent FFMAs (or SFU sines) plus the loop
// counter, run by 192 blocks of 256 threads (all SMs full). Host time covers
// Simulator::run only (not assembly or memory set-up). The bar: >= 10 M warp
// instructions per second on one core of a Release build.
#include "bench/bench_kernels.hpp"
#include "isa/assembler.hpp"
#include "isa/diagnostics.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/timing/gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using simt::bench::loop_kernel;

// One timed simulation: its stats, host seconds and the cycles the top loop visited.
struct Timed {
    simt::timing::Stats stats;
    double host_s = 0;
    uint64_t visited = 0;
};
Timed timed_run(const simt::GpuConfig& config, const simt::isa::Program& program, simt::func::GlobalMemory& memory,
                bool skip, unsigned threads) {
    simt::timing::RunOptions options;
    options.event_skipping = skip;
    options.threads = threads;
    simt::timing::Simulator sim(config, program, memory, options);
    Timed r;
    const auto t0 = std::chrono::steady_clock::now();
    r.stats = sim.run();
    r.host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.visited = sim.cycles_visited();
    return r;
}

void bench(const simt::GpuConfig& config, const char* name, const char* op, int iterations, bool skip,
           unsigned threads) {
    simt::isa::Program program = simt::isa::assemble_text(loop_kernel(name, op, iterations), name);
    simt::func::GlobalMemory memory(program, ".");
    const Timed r = timed_run(config, program, memory, skip, threads);
    const simt::timing::Stats& s = r.stats;
    const double host = r.host_s;
    std::printf("%-12s %u thr %12llu warp instr  %10llu cycles  IPC/SM %.3f  host %.3f s  %.2f M warp instr/s  "
                "(%.1f%% of cycles visited)\n",
                name, threads, (unsigned long long)s.warp_instructions, (unsigned long long)s.cycles, s.ipc, host,
                s.warp_instructions / host / 1e6, 100.0 * double(r.visited) / double(s.cycles + 1));
}

// Returns the host seconds.
double bench_trace(const simt::GpuConfig& config, const std::string& path, const std::vector<std::string>& uniforms,
                   bool skip, unsigned threads) {
    simt::isa::Program program = simt::isa::assemble_file(path);
    for (const auto& u : uniforms) simt::isa::override_uniform(program, u);
    const std::string dir = std::filesystem::path(path).parent_path().string();
    simt::func::GlobalMemory memory(program, dir.empty() ? "." : dir);
    const Timed r = timed_run(config, program, memory, skip, threads);
    const simt::timing::Stats& s = r.stats;
    const double host = r.host_s;
    std::printf("%-24s %u thr %12llu warp instr  %10llu cycles  host %.3f s  %.2f M warp instr/s  "
                "slowdown %.0fx vs the GPU\n",
                std::filesystem::path(path).filename().string().c_str(), threads,
                (unsigned long long)s.warp_instructions, (unsigned long long)s.cycles, host,
                s.warp_instructions / host / 1e6, host / (double(s.cycles) / (config.clock_mhz * 1e6)));
    return host;
}

// --scaling: the fastest of `repeat` runs on 1 and on 2 threads, and the speed-up.
void scaling(const simt::GpuConfig& config, const std::string& path, const std::vector<std::string>& uniforms,
             bool skip, int repeat) {
    double best[2] = {1e30, 1e30};
    for (unsigned threads : {1u, 2u})
        for (int r = 0; r < repeat; ++r)
            best[threads - 1] = std::min(best[threads - 1], bench_trace(config, path, uniforms, skip, threads));
    std::printf("speed-up of 2 threads over 1: %.2fx (fastest of %d: %.3f s and %.3f s)\n", best[0] / best[1], repeat,
                best[0], best[1]);
}

}  // namespace

int main(int argc, char** argv) {
    std::string config_path = "configs/rtx4060.yaml";  // run from the repository root, or pass a path
    bool skip = true;
    std::string only;
    int iterations = 700, repeat = 1;
    unsigned threads = 1;
    bool scale = false;
    std::string trace;
    std::vector<std::string> uniforms;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--no-skip") == 0) skip = false;
        else if (std::strcmp(argv[i], "--trace") == 0 && i + 1 < argc) trace = argv[++i];
        else if (std::strcmp(argv[i], "-u") == 0 && i + 1 < argc) uniforms.push_back(argv[++i]);
        else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = unsigned(std::max(1, std::atoi(argv[++i])));
        else if (std::strcmp(argv[i], "--scaling") == 0) scale = true;
        else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) iterations = std::max(1, std::atoi(argv[++i]));
        else config_path = argv[i];
    }
    try {
        simt::GpuConfig config = simt::load_config(config_path);
        std::printf("config: %s (%s), event skipping %s\n", config.name.c_str(), config_path.c_str(),
                    skip ? "on" : "off");
        if (!trace.empty()) {
            if (scale) scaling(config, trace, uniforms, skip, repeat);
            else
                for (int r = 0; r < repeat; ++r) bench_trace(config, trace, uniforms, skip, threads);
            return 0;
        }
        // 1536 warps x 11 instructions per iteration: 700 iterations = 11.8 M warp instructions.
        for (unsigned n : scale ? std::vector<unsigned>{1, 2} : std::vector<unsigned>{threads}) {
            if (only.empty() || only == "alu") bench(config, "alu_bound", "ffma", iterations, skip, n);
            if (only.empty() || only == "sfu") bench(config, "sfu_bound", "sin", iterations, skip, n);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_throughput: %s\n", e.what());
        return 1;
    }
    return 0;
}
