// sass_check_cmd.cpp: `simt-sim sass-check DUMP.sass ...`, which compiled kernels can be simulated.
//
// For every kernel of each cuobjdump -sass dump (with its FILE.elf beside it), the probe launch
// of isa/sass/coverage.hpp is imported; a kernel that lowers is also run by both functional
// interpreters (the SIMT executor and the per-thread reference, within a budget) and their
// buffers compared. Prints one line per kernel, the unsupported instructions with their lines
// (--verbose), the tally of unsupported forms, and "N of M kernels lower; K run and match".
#include "isa/assembler.hpp"
#include "isa/sass/coverage.hpp"
#include "sim/functional/reference.hpp"
#include "sim/functional/runner.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace simt::cli {
namespace {

const char* kUsage =
    "usage: simt-sim sass-check DUMP.sass [DUMP.sass ...] [--verbose]\n\n"
    "Lists which kernels of each cuobjdump -sass dump (FILE.elf beside it gives the parameters) simt-sim\n"
    "can import, runs each that lowers on a probe launch (one block of 128 threads, zeroed buffers)\n"
    "through both functional interpreters, and tallies the unsupported SASS forms.\n"
    "--verbose lists every unsupported instruction at its line. Exit status 1 on an unreadable file.\n";

constexpr uint64_t kProbeBudget = 2'000'000;   // warp instructions (the reference: 32x as thread instructions)

// "match", "differ", or the run's error: the probe through the executor and the reference.
std::string run_probe(const isa::sass::KernelCheck& k) {
    const std::string dir = std::filesystem::path(k.file).parent_path().string();
    try {
        const isa::Program p = isa::assemble_text(k.launch, (std::filesystem::path(dir) / (k.kernel + ".probe.isa")).string(), dir);
        func::GlobalMemory a(p, dir), b(p, dir);
        func::ExecLimits el;
        el.max_warp_instructions = kProbeBudget;
        func::run_functional(p, a, el);
        func::ReferenceLimits rl;
        rl.max_thread_instructions = 32 * kProbeBudget;
        func::run_reference(p, b, rl);
        for (size_t i = 0; i < p.buffers.size(); ++i)
            if (std::memcmp(a.data(int(i)), b.data(int(i)), p.buffers[i].bytes()) != 0) return "differ (buffer " + p.buffers[i].name + ")";
        return "match";
    } catch (const Error& e) {
        return std::string("stops: ") + e.what();
    }
}

}  // namespace

int sass_check_main(int argc, char** argv) {
    std::vector<std::string> files;
    bool verbose = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") return std::printf("%s", kUsage), 0;
        if (a == "--verbose" || a == "-v") verbose = true;
        else if (!a.empty() && a[0] == '-') throw Error("sass-check: unknown option " + a + "\n" + kUsage);
        else files.push_back(a);
    }
    if (files.empty()) throw Error(std::string("sass-check: expected a SASS dump\n") + kUsage);
    std::vector<isa::sass::KernelCheck> all;
    size_t matched = 0;
    for (const std::string& f : files) {
        for (isa::sass::KernelCheck& k : isa::sass::check_dump(f)) {
            std::string status;
            if (!k.unsupported.empty()) status = std::to_string(k.unsupported.size()) + " unsupported";
            else if (!k.error.empty()) status = "error: " + k.error.substr(0, k.error.find('\n'));
            else status = "lowers; " + run_probe(k);
            matched += status == "lowers; match";
            std::printf("%-40s %-24s %4zu  %s\n", f.c_str(), k.kernel.c_str(), k.instructions, status.c_str());
            if (verbose)
                for (const std::string& u : k.unsupported) std::printf("    %s\n", u.c_str());
            all.push_back(std::move(k));
        }
    }
    const auto t = isa::sass::tally(all);
    std::vector<std::pair<std::string, isa::sass::TallyEntry>> rows(t.begin(), t.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.second.kernels > y.second.kernels; });
    if (!rows.empty()) std::printf("\nunsupported forms (instructions, kernels):\n");
    for (const auto& [why, n] : rows) std::printf("  %5zu %3zu  %s\n", n.instructions, n.kernels, why.c_str());
    const size_t lowers = size_t(std::count_if(all.begin(), all.end(), [](const auto& k) { return k.lowers(); }));
    std::printf("\n%zu of %zu kernels lower; %zu run on the probe launch and both interpreters agree\n", lowers, all.size(), matched);
    return 0;
}

}  // namespace simt::cli
