// measurements.cpp: reading calibration CSVs (see comparisons.hpp) with located errors.
#include "sim/calibrate/comparisons.hpp"

#include <algorithm>
#include <cstdlib>

namespace simt::calib {
namespace {

bool parse_number(const std::string& text, double& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

uint32_t line_of(const io::error::base& e) {
    if (auto* l = dynamic_cast<const io::error::with_file_line*>(&e)) return l->file_line > 0 ? uint32_t(l->file_line) : 0;
    return 0;
}

}  // namespace

void Measurements::read(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw simt::Error({path, 0, 0}, "cannot open the calibration results: not a readable file (write them with "
                                        "calib/run.sh)");
    if (std::filesystem::file_size(path, ec) == 0) throw simt::Error({path, 1, 0}, "empty file: expected the header "
                                                                                   "kernel,parameter,value,unit,notes");
    files_.push_back(path);
    try {
        io::CSVReader<5, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>> csv(path);
        csv.read_header(io::ignore_extra_column, "kernel", "parameter", "value", "unit", "notes");
        std::string kernel, param, value, unit, notes;
        while (csv.read_row(kernel, param, value, unit, notes)) {
            uint32_t line = uint32_t(csv.get_file_line());
            double v = 0;
            if (kernel.empty() || param.empty())
                throw simt::Error({path, line, 0}, "expected a kernel and a parameter name");
            if (!parse_number(value, v))
                throw simt::Error({path, line, 0}, "value '" + value + "' of " + kernel + "," + param + " is not a number");
            if (has(kernel, param))
                std::fprintf(stderr, "%s:%u: warning: %s,%s given again (the later value is used)\n", path.c_str(), line,
                             kernel.c_str(), param.c_str());
            rows_[key(kernel, param)] = Value{v, path, line};
            ++kernels_[kernel];
            if (kernel == "device" && device_.empty()) device_ = notes;
        }
    } catch (const io::error::base& e) {
        throw simt::Error({path, line_of(e), 0}, std::string("malformed CSV: ") + e.what());
    }
}

double Measurements::get(const std::string& kernel, const std::string& param) const {
    const Value* v = find(kernel, param);
    if (!v) throw simt::Error({files_.empty() ? "" : files_.front(), 0, 0}, "no row '" + kernel + "," + param + "'");
    return v->value;
}

void Context::add(const std::string& group, const std::string& kernel, const std::string& param, double sim,
                  const std::string& unit, double tol_pct) {
    const Measurements::Value* v = hw.find(kernel, param);
    if (!v) {
        missing.push_back(kernel + "," + param);
        return;
    }
    rows.push_back(Row{group, kernel + "." + param, unit, v->value, sim, tol_pct, last_imported});
    const Row& r = rows.back();
    if (verbose)
        std::fprintf(stderr, "  %-44s hw %10.4f  sim %10.4f  %+7.1f%%\n", r.name.c_str(), r.hw, r.sim, r.error_pct());
}

Configs Configs::load(const std::string& path, const Uniforms& sets, const std::string& seed_path) {
    Configs c;
    c.full = simt::load_config(path, sets);
    Uniforms one = sets;
    one.push_back("sm.count=1");
    c.one_sm = simt::load_config(path, one);
    // One SM's share of the GPU's memory side, for per-SM runs of memory-bound kernels: of the DRAM
    // bandwidth (as one channel), of the L2 slices' throughput (as one slice) and of the atomic units.
    const auto& m = c.full.memory;
    const double sms = c.full.sm.count;
    one.push_back("memory.dram_bandwidth_gbs=" + std::to_string(m.dram_bandwidth_gbs / sms));
    one.push_back("memory.dram.channels=1");
    one.push_back("memory.l2_slices.count=1");
    if (m.l2_slices.partitions > 1) one.push_back("memory.l2_slices.partitions=1");  // (a key the config may leave out)
    one.push_back("memory.atomics.slices_per_unit=1");
    const double units = double(m.l2_slices.count) / m.atomics.slices_per_unit;
    if (m.atomics.sector_cycles > 0) {  // one unit's share: its sectors take sms / units times as long
        one.push_back("memory.atomics.sector_cycles=" + std::to_string(m.atomics.sector_cycles * sms / units));
        one.push_back("memory.atomics.request_cycles=" + std::to_string(m.atomics.request_cycles * sms / units));
    }
    if (m.atomics.unit_ops_per_cycle > 0)
        one.push_back("memory.atomics.unit_ops_per_cycle=" +
                      std::to_string(m.atomics.unit_ops_per_cycle * m.l2_slices.count / m.atomics.slices_per_unit / sms));
    const double share = m.l2_slices.count / sms;  // one slice's rates scaled to one SM's share of them all
    if (m.l2_slices.sectors_per_cycle > 0)
        one.push_back("memory.l2_slices.sectors_per_cycle=" + std::to_string(m.l2_slices.sectors_per_cycle * share));
    if (m.l2_slices.read_lookups_per_cycle > 0)
        one.push_back("memory.l2_slices.read_lookups_per_cycle=" + std::to_string(m.l2_slices.read_lookups_per_cycle * share));
    if (m.l2_slices.data_sectors_per_cycle > 0)
        one.push_back("memory.l2_slices.data_sectors_per_cycle=" + std::to_string(m.l2_slices.data_sectors_per_cycle * share));
    c.one_sm_dram = simt::load_config(path, one);
    if (!seed_path.empty()) c.seed = simt::load_config(seed_path, sets);
    return c;
}

bool has_twin(const std::string& root, const std::string& kernel) {
    auto starts = [&](const char* p) { return kernel.rfind(p, 0) == 0; };
    std::string twin = kernel;
    if (starts("occ_r")) twin = "occupancy";
    else if (starts("atom_") || starts("red_")) twin = "atom_global";
    else if (starts("hist_global_")) twin = "hist_global";
    else if (kernel == "transpose_tiled_pad") twin = "transpose_tiled";
    else if (starts("atomgrid_")) twin = "atomgrid";
    else if (starts("atomtype_")) twin = "atomtype";
    else if (starts("tail_")) twin = "atom_tail";
    else if (starts("l2cap_")) twin = "l2cap";
    else if (starts("l2dirty_")) twin = "l2dirty";
    else if (starts("l2write_")) twin = "l2write";
    else if (starts("mlp_")) twin = "mlp";
    else if (starts("shbank_chase_")) twin = "shbank_chase";
    else if (starts("l1pipe_")) twin = "l1pipe";
    else if (starts("mixrw_word_")) twin = "mixrw";
    else if (starts("wbmix_")) twin = "wbmix";
    std::error_code ec;
    return std::filesystem::is_regular_file(root + "/calib/traces/" + twin + ".isa", ec);
}

std::vector<Group> all_groups() {
    std::vector<Group> g = base_groups();
    for (auto& x : extended_groups()) g.push_back(x);
    for (auto& x : app_groups()) g.push_back(x);
    for (auto& x : dispatch_groups()) g.push_back(x);
    for (auto& x : hotspot_groups()) g.push_back(x);
    for (auto& x : probe_groups()) g.push_back(x);
    for (auto& x : holdout_groups()) g.push_back(x);
    return g;
}

void check_group_names(const std::vector<std::string>& names) {
    const std::vector<Group> all = all_groups();
    for (const auto& n : names) {
        bool known = std::any_of(all.begin(), all.end(), [&](const Group& g) { return n == g.name || n == g.set; });
        if (!known) {
            std::string list;
            for (const Group& g : all) list += std::string(list.empty() ? "" : ", ") + g.name;
            throw simt::Error({n, 0, 0}, "unknown comparison group (sets: base, extended, apps, dispatch, hotspots, holdout; groups: " + list + ")");
        }
    }
}

void run_groups(Context& c, const std::vector<std::string>& names) {
    const std::vector<Group> all = all_groups();
    check_group_names(names);
    for (const Group& g : all)
        if (names.empty() || std::find_if(names.begin(), names.end(), [&](const std::string& n) {
                                 return n == g.name || n == g.set;
                             }) != names.end())
            g.run(c);
}

}  // namespace simt::calib
