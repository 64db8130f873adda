// main.cpp: the simt-sim command line.
//
//   simt-sim CONFIG.yaml TRACE.isa [options]
//
// Parses options (Boost.Program_options), loads and validates the config and
// the trace, runs the functional executor alone (--functional) or the timing
// model, and prints the report; --json / --csv / --timeline write the twins
// for scripts. Every user error ends with a located message and exit status 1.
#include "isa/assembler.hpp"
#include "sim/config/config.hpp"
#include "sim/functional/memory.hpp"
#include "sim/functional/runner.hpp"
#include "sim/report/report.hpp"
#include "sim/report/compare.hpp"
#include "sim/report/profile.hpp"
#include "sim/report/timeline_csv.hpp"
#include "sim/report/trace_json.hpp"
#include "sim/timing/gpu.hpp"
#include "sim/cli/threads_option.hpp"

#include <boost/program_options.hpp>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace po = boost::program_options;

namespace {

const char* kUsage = R"(simt-sim: see why GPU code is fast or slow, one warp instruction at a time.

usage: simt-sim CONFIG.yaml TRACE.isa [options]
       simt-sim calibrate BASE.yaml RESULTS.csv -o OUT.yaml   (a config for your GPU: calibrate --help)
       simt-sim sweep SPEC.yaml [-o OUT.csv] [--jobs N]      (a grid of runs as CSV: sweep --help)
       simt-sim sass-check DUMP.sass ...                    (which compiled kernels import: sass-check --help)

simt-sim runs one kernel launch, written in a tiny shader assembly (isa/README.md),
on a cycle-level model of a GPU described by CONFIG (configs/rtx4060.yaml,
configs/h200.yaml). It reports cycles and time at the config's clock, IPC, SIMT
efficiency (how many of a warp's 32 lanes did useful work), occupancy and what
limits it, the warp-state (stall) reasons with Nsight Compute's names, pipe
utilisation, memory behaviour, and the source lines where the time goes.

examples:
  simt-sim configs/rtx4060.yaml traces/divergence_checker.isa
  simt-sim configs/rtx4060.yaml traces/divergence_checker.isa --json - | jq .cycles
  simt-sim configs/h200.yaml traces/memory_coalescing.isa --set scheduler.policy=lrr
  simt-sim configs/rtx4060.yaml traces/loop_varying.isa --timeline t.csv && simt-viz t.csv
  simt-sim configs/rtx4060.yaml traces/reduction_shfl.isa --functional --dump out.csv
  simt-sim configs/rtx4060.yaml traces/divergence_checker.isa --profile prof && simt-viz prof
  simt-sim configs/h200.yaml traces/loop_varying.isa --policy lrr --json a.json
  simt-sim configs/h200.yaml traces/loop_varying.isa --policy gto --compare a.json

reading the report:
  selected / not_selected   the warp issued / could have issued but another warp did
  long_scoreboard           waiting on global/local/texture memory: hide it with more warps
  short_scoreboard          waiting on shared memory, special functions or shuffles
  wait                      waiting on a fixed-latency result (dependent math)
  math_pipe_throttle        the pipe it needs is busy: compute-bound on that pipe
  mio_throttle              the MIO queue is full: shared memory, shuffles or special functions (MUFU)
  barrier, branch_resolving, mio/lg/tex_throttle, dispatch_stall, drain: see README.md

options)";

struct Options {
    std::string config_path, trace_path;
    std::vector<std::string> overrides;
    std::vector<std::string> uniforms;
    std::vector<std::string> sass_stubs;
    std::string json_path, csv_path, timeline_path, dump_path;
    std::string trace_json_path, profile_dir, compare_path;
    bool functional = false;
    bool no_skip = false;
    bool quiet = false;
    bool disasm = false;
    int hot = 3;
    std::string color = "auto";
    std::string max_instructions, max_cycles;  // as typed; checked by budget()
    std::string threads;                       // as typed; "" = default_threads()
    std::string warm;                          // as typed; "" = 0
    simt::isa::LaunchOverrides launch;         // --grid, --block, --fragment, --shared, --regs
    std::string timeline_sm, timeline_warps, timeline_window;
};

constexpr uint64_t kMaxBudget = 10'000'000'000'000ull;  // as the config's max_warp_instructions, max_cycles

// A budget option's value: a whole number from 1 to kMaxBudget.
uint64_t budget(const std::string& option, const std::string& text) {
    uint64_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end || v < 1 || v > kMaxBudget)
        throw simt::Error(simt::SourceLoc{option + " " + text, 0, 0},
                          "expected a whole number from 1 to " + std::to_string(kMaxBudget));
    return v;
}

// --warm N: a whole number from 0 to timing::kMaxWarmLaunches.
uint32_t warm_launches(const std::string& text) {
    uint32_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end || v > simt::timing::kMaxWarmLaunches)
        throw simt::Error(simt::SourceLoc{"--warm " + text, 0, 0},
                          "expected a whole number of warm launches from 0 to " +
                              std::to_string(simt::timing::kMaxWarmLaunches));
    return v;
}

// Returns false when the program should exit(0) (help/version shown).
bool parse_args(int argc, char** argv, Options& o) {
    po::options_description desc(kUsage);
    desc.add_options()
        ("help,h", "show this help")
        ("isa-reference", "print the instruction reference (the table of isa/README.md, generated from isa/opcodes.def) and exit")
        ("set,s", po::value(&o.overrides)->composing(),
         "override a config value, e.g. --set sm.sub_partitions=2 --set scheduler.policy=gto (repeatable)")
        ("uniform,u", po::value(&o.uniforms)->composing(),
         "set a .uniform of the trace, e.g. --uniform sx=2 (repeatable): sweep without editing the trace")
        ("grid", po::value(&o.launch.grid), "override the trace's .grid: X[,Y,Z] blocks (with the same checks)")
        ("block", po::value(&o.launch.block), "override the trace's .block: X[,Y,Z] threads per block")
        ("fragment", po::value(&o.launch.fragment), "override the trace's launch with a fragment launch of WxH pixels")
        ("shared", po::value(&o.launch.shared), "override the trace's .shared: BYTES of shared memory per block")
        ("sass-stub", po::value(&o.sass_stubs)->composing(),
         "in a .sass launch, run the SASS opcode OP as a nop: --sass-stub OP=nop (repeatable; OP as IMAD or IMAD.X)")
        ("regs", po::value(&o.launch.regs), "override the trace's .regs: N registers per thread (1..255)")
        ("policy", po::value<std::string>(), "scheduler policy: cgy, lrr, gto, gty, gtb or two_level (same as --set scheduler.policy=...)")
        ("json", po::value(&o.json_path), "write the report as JSON to FILE ('-' for stdout, which replaces the text report)")
        ("csv", po::value(&o.csv_path), "write the per-instruction table (issued, lanes, stall cycles by reason) as CSV to FILE ('-' for stdout)")
        ("timeline", po::value(&o.timeline_path), "write every warp's state over time (run-length encoded CSV) to FILE, for simt-viz")
        ("timeline-sm", po::value(&o.timeline_sm), "--timeline keeps these SMs only, e.g. 0 or 0,2-3")
        ("timeline-warps", po::value(&o.timeline_warps), "--timeline keeps these warps (global ids) only, e.g. 0-63")
        ("timeline-window", po::value(&o.timeline_window), "--timeline keeps cycles FROM:TO only (TO may be empty), rows clipped to it")
        ("trace-json", po::value(&o.trace_json_path),
         "write the timeline in the Chrome trace event format to FILE (open it in Perfetto or chrome://tracing): "
         "a track per warp, grouped by SM and sub-partition, slices with pc and source line, issue rate per SM")
        ("profile", po::value(&o.profile_dir),
         "write a profile directory DIR for simt-viz: timeline.csv, pc.csv, report.json, report.txt, trace.json, "
         "source.csv, lanes.csv and trace.isa (README.md, 'Profile directory')")
        ("compare", po::value(&o.compare_path),
         "compare this run with another run's --json report OTHER.json: a two-column table after the report")
        ("functional", po::bool_switch(&o.functional), "execute without timing: check what the trace computes")
        ("dump", po::value(&o.dump_path), "write every buffer after the run as CSV (buffer,index,value) to FILE ('-' for stdout)")
        ("max-instructions", po::value(&o.max_instructions), "stop after this many warp instructions (catches infinite loops; default from the config)")
        ("max-cycles", po::value(&o.max_cycles), "stop after this many simulated cycles (default from the config)")
        ("hot", po::value(&o.hot)->default_value(3), "how many source lines to list under 'Where the time goes' (0 to 1000)")
        ("disasm", po::bool_switch(&o.disasm), "print the assembled program (pc, pipe, line, text) and exit")
        ("threads", po::value(&o.threads), simt::cli::kThreadsHelp)
        ("warm", po::value(&o.warm),
         "run N untimed launches first (0 to 16, default 0), as a benchmark times a launch after its warm-up: the "
         "timed launch finds the L2 as they left it (dirty lines too), the L1s empty, and the memory they wrote")
        ("no-skip", po::bool_switch(&o.no_skip), "step every cycle instead of jumping over idle ones (same results, slower)")
        ("quiet,q", po::bool_switch(&o.quiet), "no progress line on stderr")
        ("color", po::value(&o.color)->default_value("auto"), "colour the report: auto, always or never");
    po::options_description hidden;
    hidden.add_options()("config", po::value(&o.config_path))("trace", po::value(&o.trace_path));
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("config", 1).add("trace", 1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw simt::Error(std::string(e.what()) + " (see simt-sim --help)");
    }
    if (vm.count("help") || argc == 1) {
        std::cout << desc << "\n";
        return false;
    }
    if (vm.count("isa-reference")) {
        std::cout << simt::isa::markdown_reference();
        return false;
    }
    if (o.config_path.empty() || o.trace_path.empty())
        throw simt::Error("expected a config and a trace: simt-sim CONFIG.yaml TRACE.isa (see --help)");
    if (vm.count("policy")) o.overrides.push_back("scheduler.policy=" + vm["policy"].as<std::string>());
    if (!o.max_instructions.empty()) budget("--max-instructions", o.max_instructions);
    if (!o.max_cycles.empty()) budget("--max-cycles", o.max_cycles);
    if (!o.threads.empty()) simt::cli::parse_threads(o.threads);
    if (!o.warm.empty()) warm_launches(o.warm);
    if (o.hot < 0 || o.hot > 1000)
        throw simt::Error(simt::SourceLoc{"--hot " + std::to_string(o.hot), 0, 0}, "expected 0 to 1000 source lines");
    if ((o.functional || o.disasm) && (!o.trace_json_path.empty() || !o.profile_dir.empty() || !o.compare_path.empty()))
        throw simt::Error("--trace-json, --profile and --compare need a timed run (not --functional or --disasm)");
    const bool filters = !o.timeline_sm.empty() || !o.timeline_warps.empty() || !o.timeline_window.empty();
    if (filters && o.timeline_path.empty())
        throw simt::Error("--timeline-sm, --timeline-warps and --timeline-window filter --timeline FILE: give it too");
    if (o.color != "auto" && o.color != "always" && o.color != "never")
        throw simt::Error("--color must be auto, always or never, not '" + o.color + "'");
    return true;
}

// An output file or stdout for "-". close() flushes it and reports a failed
// write (a full disk, /dev/full) as an error; call it when done writing.
class OutFile {
public:
    explicit OutFile(const std::string& path) : path_(path) {
        if (path != "-") {
            file_.open(path);
            if (!file_) throw simt::Error({path, 0, 0}, std::string("cannot open for writing: ") + std::strerror(errno));
        }
    }
    std::ostream& get() { return path_ == "-" ? std::cout : file_; }
    void close() {
        errno = 0;
        if (path_ == "-") {
            check_stdout();
            return;
        }
        file_.close();
        if (file_.fail()) throw simt::Error({path_, 0, 0}, "cannot write" + reason());
    }
    static void check_stdout() {
        errno = 0;
        std::cout.flush();
        const bool c_failed = std::fflush(stdout) != 0 || std::ferror(stdout);
        if (!std::cout || c_failed) throw simt::Error({"<stdout>", 0, 0}, "cannot write" + reason());
    }

private:
    static std::string reason() { return errno ? std::string(": ") + std::strerror(errno) : std::string(); }

    std::string path_;
    std::ofstream file_;
};

// A progress line on stderr, at most five times a second, only on a terminal.
class Progress {
public:
    explicit Progress(bool enabled) : enabled_(enabled), start_(Clock::now()), last_(start_) {}
    void update(uint64_t cycle, uint64_t done, uint64_t total) {
        if (!enabled_) return;
        auto now = Clock::now();
        if (now - last_ < std::chrono::milliseconds(200) && done != total) return;
        if (now - start_ < std::chrono::milliseconds(500) && done != total) return;  // short runs stay silent
        last_ = now;
        shown_ = true;
        int width = 30, filled = total ? int(width * done / total) : 0;
        std::fprintf(stderr, "\r  [%s%s] %3d%%  blocks %llu/%llu  cycle %llu ", std::string(filled, '#').c_str(),
                     std::string(width - filled, '.').c_str(), total ? int(100 * done / total) : 0,
                     (unsigned long long)done, (unsigned long long)total, (unsigned long long)cycle);
        std::fflush(stderr);
    }
    void finish() {
        if (shown_) std::fprintf(stderr, "\r%*s\r", 80, "");
    }

private:
    using Clock = std::chrono::steady_clock;
    bool enabled_, shown_ = false;
    Clock::time_point start_, last_;
};

void print_disasm(const simt::isa::Program& p) {
    std::printf("%-5s %-7s %-6s %-24s %s\n", "pc", "pipe", "line", "file", "instruction");
    for (uint32_t pc = 0; pc < p.code.size(); ++pc) {
        const auto& in = p.code[pc];
        std::printf("%-5u %-7s %-6u %-24s %s\n", pc, std::string(simt::isa::pipe_name(simt::isa::info(in.op).pipe)).c_str(),
                    in.loc.line, in.loc.file.c_str(), simt::isa::disassemble(p, pc).c_str());
    }
}

simt::report::TimelineFilter timeline_filter(const Options& o) {
    simt::report::TimelineFilter f;
    if (!o.timeline_sm.empty()) f.sms = simt::report::parse_id_list("--timeline-sm", o.timeline_sm);
    if (!o.timeline_warps.empty()) f.warps = simt::report::parse_id_list("--timeline-warps", o.timeline_warps);
    if (!o.timeline_window.empty()) simt::report::parse_window("--timeline-window", o.timeline_window, f);
    return f;
}

int run(const Options& o) {
    simt::GpuConfig config = simt::load_config(o.config_path, o.overrides);
    if (!o.max_instructions.empty()) config.max_warp_instructions = budget("--max-instructions", o.max_instructions);
    if (!o.max_cycles.empty()) config.max_cycles = budget("--max-cycles", o.max_cycles);
    simt::isa::Program program = simt::isa::assemble_file(o.trace_path, o.sass_stubs);
    for (const auto& u : o.uniforms) simt::isa::override_uniform(program, u);
    if (o.launch.any()) simt::isa::override_launch(program, o.launch);
    const simt::report::TimelineFilter filter = timeline_filter(o);
    if (o.disasm) {
        print_disasm(program);
        return 0;
    }
    std::string dir = std::filesystem::path(o.trace_path).parent_path().string();
    simt::func::GlobalMemory memory(program, dir);

    if (o.functional) {
        simt::timing::compute_occupancy(config, program);  // one block fits an SM, as in the timing model
        simt::func::ExecLimits limits;
        limits.max_warp_instructions = config.max_warp_instructions;
        auto r = simt::func::run_functional(program, memory, limits);
        // (with --dump -, stdout carries the CSV alone)
        std::ostream& summary = o.dump_path == "-" ? std::cerr : std::cout;
        summary << "simt-sim --functional  " << program.kernel << ": " << r.warp_instructions
                  << " warp instructions, " << r.thread_instructions << " thread instructions, SIMT efficiency "
                  << (r.warp_instructions ? 100.0 * r.thread_instructions / (32.0 * r.warp_instructions) : 0.0)
                  << " %\n";
    } else {
        bool tty = isatty(fileno(stderr));
        Progress progress(tty && !o.quiet);
        // Read the other run first: a bad file fails before a long simulation.
        std::optional<simt::report::JsonTree> other;
        if (!o.compare_path.empty()) other = simt::report::load_report_json(o.compare_path);
        std::optional<simt::report::ProfileDir> profile;
        if (!o.profile_dir.empty()) profile.emplace(o.profile_dir, program, program.kernel + " on " + config.name);
        std::unique_ptr<simt::report::TimelineCsvWriter> timeline;
        std::unique_ptr<simt::report::ChromeTraceWriter> trace_json;
        std::unique_ptr<OutFile> timeline_file, trace_json_file;
        simt::report::ObserverFan observers;
        simt::timing::RunOptions ro;
        ro.event_skipping = !o.no_skip;
        ro.threads = o.threads.empty() ? simt::timing::default_threads(config, program) : simt::cli::parse_threads(o.threads);
        ro.warm_launches = o.warm.empty() ? 0 : warm_launches(o.warm);
        if (!o.timeline_path.empty()) {
            timeline_file = std::make_unique<OutFile>(o.timeline_path);
            timeline = std::make_unique<simt::report::TimelineCsvWriter>(timeline_file->get(), filter);
            observers.add(timeline.get());
        }
        if (!o.trace_json_path.empty()) {
            trace_json_file = std::make_unique<OutFile>(o.trace_json_path);
            trace_json = std::make_unique<simt::report::ChromeTraceWriter>(
                trace_json_file->get(), program, program.kernel + " on " + config.name);
            observers.add(trace_json.get());
        }
        if (profile) profile->add_observers(observers);
        if (!observers.empty()) ro.observer = &observers;
        ro.progress = [&](uint64_t c, uint64_t d, uint64_t t) { progress.update(c, d, t); };
        simt::timing::Simulator sim(config, program, memory, ro);
        simt::timing::Stats stats = sim.run();
        progress.finish();
        if (timeline_file) timeline_file->close();
        simt::report::RunInfo info{program, config, o.trace_path, o.config_path};
        bool json_stdout = o.json_path == "-", csv_stdout = o.csv_path == "-";
        if (!json_stdout && !csv_stdout) {
            simt::report::TextOptions to;
            to.hot_lines = o.hot;
            to.color = o.color == "always" || (o.color == "auto" && isatty(fileno(stdout)));
            simt::report::print_text(std::cout, info, stats, to);
        }
        if (!o.json_path.empty()) {
            OutFile f(o.json_path);
            simt::report::write_json(f.get(), info, stats);
            f.close();
        }
        if (!o.csv_path.empty()) {
            OutFile f(o.csv_path);
            simt::report::write_pc_csv(f.get(), info, stats);
            f.close();
        }
        if (profile) profile->finish(info, stats);
        if (other) {
            std::ostringstream mine;
            simt::report::write_json(mine, info, stats);
            std::ostream& out = json_stdout || csv_stdout ? std::cerr : std::cout;
            simt::report::print_comparison(out, simt::report::parse_report_json("this run", mine.str()),
                                           "this run", *other, o.compare_path);
        }
    }
    if (!o.dump_path.empty()) {
        OutFile f(o.dump_path);
        memory.dump_csv(f.get());
        f.close();
    }
    return 0;
}

}  // namespace

namespace simt::cli {
int calibrate_main(int argc, char** argv);  // calibrate_cmd.cpp
int sweep_main(int argc, char** argv);      // sweep_cmd.cpp
int sass_check_main(int argc, char** argv); // sass_check_cmd.cpp
}

int main(int argc, char** argv) {
    try {
        if (argc > 1 && std::string(argv[1]) == "calibrate") return simt::cli::calibrate_main(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "sweep") return simt::cli::sweep_main(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "sass-check") return simt::cli::sass_check_main(argc - 1, argv + 1);
        Options o;
        if (!parse_args(argc, argv, o)) return 0;
        const int status = run(o);
        OutFile::check_stdout();
        return status;
    } catch (const simt::Error& e) {
        std::cerr << "simt-sim: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {  // a bug, not bad input: still no crash
        std::cerr << "simt-sim: internal error: " << e.what() << "\n";
        return 2;
    }
}
