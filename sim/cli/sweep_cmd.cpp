// sweep_cmd.cpp: `simt-sim sweep SPEC.yaml`: a grid of runs, one CSV row each.
//
// Parses the sweep's options and hands them to sim/sweep/ (local thread pool),
// or, when simt-sim was built with MPI and started by mpirun or srun, to
// sim/sweep_mpi/ (points spread over ranks, rank 0 writes). Errors: the spec's
// and the output's are located (file:line:col); options are checked here.
#include "isa/diagnostics.hpp"
#include "sim/cli/threads_option.hpp"
#include "sim/sweep/sweep.hpp"
#if SIMT_WITH_MPI
#include "sim/sweep_mpi/mpi_sweep.hpp"
#endif

#include <boost/program_options.hpp>

#include <cstdlib>
#include <iostream>
#include <thread>
#include <unistd.h>

namespace po = boost::program_options;

namespace simt::cli {

namespace {

const char* kSweepUsage = R"(simt-sim sweep: run a grid of simulations, one CSV row per run.

usage: simt-sim sweep SPEC.yaml [-o OUT.csv] [--jobs N] [--threads N] [-q]
       mpirun -n 4 simt-sim sweep SPEC.yaml     (a build with MPI: points spread over ranks)

SPEC.yaml lists the axes of the grid: configs, traces, set (config values),
uniform (trace uniforms), policy, max_instructions, max_cycles; each a value or
a list (README.md, "Sweeps"). Every combination is one point; each writes one
row: point, the axis values, error (empty when it ran), then every field of the
JSON report. Rows come in grid order for any --jobs or number of ranks. Run the
same command again after an interruption and it continues where it stopped.

example spec:
  configs: [../configs/rtx4060.yaml, ../configs/h200.yaml]
  traces: ../traces/loop_varying.isa
  set: {sm.sub_partitions: [1, 2, 4]}
  policy: [lrr, gto]

options)";

struct SweepArgs {
    std::string spec, output;
    unsigned jobs = 0;  // 0: all cores
    unsigned threads = 1;
    bool quiet = false;
};

bool parse(int argc, char** argv, SweepArgs& a) {
    po::options_description desc(kSweepUsage);
    std::string jobs, threads;
    desc.add_options()("help,h", "show this help")(
        "output,o", po::value(&a.output),
        "the CSV to write or resume (default: the spec's output:, else SPEC with .csv)")(
        "jobs,j", po::value(&jobs), "points run at once on this machine (default: all cores; per rank under MPI)")(
        "threads", po::value(&threads),
        "host threads per point, simulating its SMs in parallel (1 to 256, default 1: --jobs already fills the "
        "cores); the rows are the same for every N")(
        "quiet,q", po::bool_switch(&a.quiet), "no progress bar");
    po::options_description hidden;
    hidden.add_options()("spec", po::value(&a.spec));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("spec", 1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw Error(std::string(e.what()) + " (see simt-sim sweep --help)");
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return false;
    }
    if (a.spec.empty()) throw Error("sweep: expected a spec: simt-sim sweep SPEC.yaml (see --help)");
    if (!jobs.empty()) {
        char* end = nullptr;
        const unsigned long n = std::strtoul(jobs.c_str(), &end, 10);
        if (*end || jobs[0] == '-' || n < 1 || n > sweep::kMaxJobs)
            throw Error(SourceLoc{"--jobs " + jobs, 0, 0}, "expected a whole number from 1 to " + std::to_string(sweep::kMaxJobs));
        a.jobs = unsigned(n);
    }
    if (!threads.empty()) a.threads = parse_threads(threads);
    return true;
}

}  // namespace

int sweep_main(int argc, char** argv) {
    SweepArgs a;
    if (!parse(argc, argv, a)) return 0;
    sweep::Options o;
    o.spec_path = a.spec;
    o.output_path = a.output;
    o.jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
    o.threads = a.threads;
    o.progress = !a.quiet && isatty(fileno(stderr));
#if SIMT_WITH_MPI
    if (sweep::launched_by_mpi()) return sweep::run_sweep_mpi(o);
#endif
    const sweep::Summary s = sweep::run_sweep(o);
    std::cerr << "sweep: " << s.output << ": " << s.points << " points";
    if (s.resumed) std::cerr << ", " << s.resumed << " already there";
    std::cerr << ", " << s.ran << " run, " << s.failed << " failed\n";
    return 0;
}

}  // namespace simt::cli
