// bench_throughput.cpp: how fast the timing model runs, in simulated warp
// instructions per second of host time, on an ALU-bound and an SFU-bound
// kernel of > 10 million warp instructions each, on configs/rtx4060.yaml.
//
//     bench_throughput [CONFIG.yaml] [--no-skip] [--only alu|sfu] [--iterations N]
//     bench_throughput [CONFIG.yaml] --trace T.isa [-u NAME=VALUE ...] [--repeat N]
//     bench_throughput [CONFIG.yaml] [--trace T.isa ...] --threads N | --scaling
//     bench_throughput [CONFIG.yaml] ... --set KEY=VALUE   (a config override, as simt-sim's)
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
#include <stdexcept>
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

const char* const kUsage =
    "usage: bench_throughput [CONFIG.yaml] [options]\n"
    "How fast the timing model runs: simulated warp instructions per second of host time.\n"
    "Without --trace it times an ALU-bound (8 FFMAs per loop) and an SFU-bound (8 sines) kernel of\n"
    "11.8 M warp instructions each; the bar is 10 M per second on one core of a Release build.\n"
    "\n"
    "  CONFIG.yaml        the GPU (default configs/rtx4060.yaml, from the repository root)\n"
    "  --trace T.isa      time this trace instead (e.g. calib/traces/seed_stripes.isa)\n"
    "  -u NAME=VALUE      override one of the trace's .uniform values (as simt-sim --uniform)\n"
    "  --set KEY=VALUE    override a config value (as simt-sim --set, e.g. scheduler.policy=gtb)\n"
    "  --repeat N         run the trace N times and print each (report the fastest)\n"
    "  --threads N        simulate on N host threads (the same results for every N)\n"
    "  --scaling          run on 1 and then 2 threads and print the speed-up\n"
    "  --only alu|sfu     one of the two built-in kernels\n"
    "  --iterations N     loop iterations of the built-in kernels (default 700; short runs for profiling)\n"
    "  --no-skip          visit every cycle (no event skipping)\n"
    "\n"
    "example: bench_throughput configs/h200.yaml --trace calib/traces/seed_stripes.isa -u sx=0 -u sy=0 --repeat 3\n";

struct Args {
    std::string config_path = "configs/rtx4060.yaml";  // run from the repository root, or pass a path
    bool skip = true, scale = false, help = false;
    std::string only, trace;
    int iterations = 700, repeat = 1;
    unsigned threads = 1;
    std::vector<std::string> uniforms, sets;
};

// A positive integer flag value; throws with the flag's name otherwise.
int positive(const char* flag, const char* text) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 1 || v > 1000000)
        throw std::runtime_error(std::string(flag) + ": expected a positive integer, got '" + text + "'");
    return int(v);
}

Args parse(int argc, char** argv) {
    Args a;
    auto value = [&](int& i) -> const char* {
        if (i + 1 >= argc) throw std::runtime_error(std::string(argv[i]) + ": expected a value after it");
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        const std::string f = argv[i];
        if (f == "--help" || f == "-h") a.help = true;
        else if (f == "--no-skip") a.skip = false;
        else if (f == "--scaling") a.scale = true;
        else if (f == "--trace") a.trace = value(i);
        else if (f == "-u") a.uniforms.push_back(value(i));
        else if (f == "--set") a.sets.push_back(value(i));
        else if (f == "--only") a.only = value(i);
        else if (f == "--repeat") a.repeat = positive("--repeat", value(i));
        else if (f == "--threads") a.threads = unsigned(positive("--threads", value(i)));
        else if (f == "--iterations") a.iterations = positive("--iterations", value(i));
        else if (!f.empty() && f[0] == '-') throw std::runtime_error(f + ": unknown option (see --help)");
        else a.config_path = f;
    }
    if (!a.only.empty() && a.only != "alu" && a.only != "sfu")
        throw std::runtime_error("--only: expected alu or sfu, got '" + a.only + "'");
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    Args a;
    try {
        a = parse(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_throughput: error: %s\n", e.what());
        return 1;
    }
    if (a.help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    try {
        simt::GpuConfig config = simt::load_config(a.config_path, a.sets);
        std::printf("config: %s (%s), event skipping %s\n", config.name.c_str(), a.config_path.c_str(),
                    a.skip ? "on" : "off");
        if (!a.trace.empty()) {
            if (a.scale) scaling(config, a.trace, a.uniforms, a.skip, a.repeat);
            else
                for (int r = 0; r < a.repeat; ++r) bench_trace(config, a.trace, a.uniforms, a.skip, a.threads);
            return 0;
        }
        // 1536 warps x 11 instructions per iteration: 700 iterations = 11.8 M warp instructions.
        for (unsigned n : a.scale ? std::vector<unsigned>{1, 2} : std::vector<unsigned>{a.threads}) {
            if (a.only.empty() || a.only == "alu") bench(config, "alu_bound", "ffma", a.iterations, a.skip, n);
            if (a.only.empty() || a.only == "sfu") bench(config, "sfu_bound", "sin", a.iterations, a.skip, n);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_throughput: %s\n", e.what());
        return 1;
    }
    return 0;
}
