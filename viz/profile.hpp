// profile.hpp: a `simt-sim --profile DIR` directory as the viewer sees it.
//
// DIR/timeline.csv is required (the Timeline, with lanes); the rest is optional
// and switches views on:
//   pc.csv      + source.csv -> the source view (per line: issued, lanes, cycles by state)
//   report.json               -> the launch shape, for the per-pixel / per-block cost image
//   lanes.csv                 -> which lanes executed each pc (the image's `path` metric)
// A plain timeline CSV is also accepted (timeline view only). Every problem is a
// simt::Error "file:line: error: ...".
// Leaves out: drawing (render.hpp, image.cpp, source_panel.cpp). Header-only and
// SFML-free, like timeline.hpp, so tests/test_viz_*.cpp can check it.
#pragma once

// Boost 1.74's json_parser includes the deprecated <boost/bind.hpp>, which prints a #pragma
// message in every file unless this is defined (Debian 12's Boost; harmless otherwise).
#ifndef BOOST_BIND_GLOBAL_PLACEHOLDERS
#define BOOST_BIND_GLOBAL_PLACEHOLDERS
#endif
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <filesystem>
#include <map>
#include <numeric>

#include "viz/timeline.hpp"

namespace simt::viz {

// One source line that has instructions: the sum over its pcs.
struct SourceLine {
    std::string file;
    uint32_t line = 0;
    std::string text;                           // the source line (source.csv) or its instructions (pc.csv)
    std::vector<uint64_t> pcs;
    uint64_t issued = 0, thread_instructions = 0;
    std::array<uint64_t, kStateCount> cycles{};  // warp cycles spent at this line, by state
    uint64_t total() const { return std::accumulate(cycles.begin(), cycles.end(), uint64_t(0)); }
    double lanes() const { return issued ? double(thread_instructions) / double(issued) : 0.0; }
};

struct Launch {
    enum class Mode { Unknown, Fragment, Compute } mode = Mode::Unknown;
    uint32_t width = 0, height = 0, tile_w = 4, tile_h = 8;  // fragment
    uint32_t grid_x = 1, grid_y = 1, grid_z = 1;            // compute
    uint32_t warps_per_block = 1;
};

struct Profile {
    std::string name;                     // the directory (or CSV) as given
    Timeline tl;
    std::vector<SourceLine> lines;        // source order (file first use, then line)
    std::map<uint64_t, std::size_t> line_of_pc;  // pc -> index in lines
    Launch launch;
    struct LaneMask {
        uint64_t block = 0;
        uint32_t mask = 0;     // bit i: lane i issued at that pc
    };
    std::map<std::pair<uint64_t, uint64_t>, LaneMask> lane_masks;  // (warp, pc) -> mask (lanes.csv)
    bool has_source() const { return !lines.empty(); }
    const SourceLine* line_at(uint64_t pc) const {
        auto it = line_of_pc.find(pc);
        return it == line_of_pc.end() ? nullptr : &lines[it->second];
    }
};

namespace detail {

template <unsigned N>
using QuotedReader = io::CSVReader<N, io::trim_chars<>, io::double_quote_escape<',', '"'>>;

// pc.csv: pc,file,line,text,pipe,issued,thread_instructions,<16 states>
inline void read_pc_csv(const std::string& path, Profile& p) {
    std::unique_ptr<QuotedReader<7>> in;
    std::map<std::pair<std::string, uint32_t>, std::size_t> index;
    try {
        in = std::make_unique<QuotedReader<7>>(path);
        in->read_header(io::ignore_extra_column, "pc", "file", "line", "text", "issued", "thread_instructions", "pipe");
        char *pc = nullptr, *file = nullptr, *line = nullptr, *text = nullptr, *issued = nullptr, *threads = nullptr,
             *pipe = nullptr;
        // Per-state columns are read with a second pass below (libfccp reads a fixed set of columns).
        while (in->read_row(pc, file, line, text, issued, threads, pipe)) {
            const SourceLoc loc{path, in->get_file_line(), 0};
            const auto key = std::make_pair(std::string(file ? file : ""), parse_number<uint32_t>(line, "line", loc));
            auto [it, fresh] = index.try_emplace(key, p.lines.size());
            if (fresh) p.lines.push_back(SourceLine{key.first, key.second, text ? text : "", {}, 0, 0, {}});
            else p.lines[it->second].text += std::string("; ") + (text ? text : "");
            SourceLine& l = p.lines[it->second];
            const auto pcv = parse_number<uint64_t>(pc, "pc", loc, true);
            l.pcs.push_back(pcv);
            l.issued += parse_number<uint64_t>(issued, "issued", loc);
            l.thread_instructions += parse_number<uint64_t>(threads, "thread_instructions", loc);
            p.line_of_pc[pcv] = it->second;
        }
    } catch (const io::error::base& e) {
        throw csv_error(path, in ? std::max(1u, in->get_file_line()) : 0u, e);
    }
    // The state columns, one reader per state (a handful of small passes over a small file).
    for (std::size_t s = 0; s < kStateCount; ++s) {
        std::unique_ptr<QuotedReader<2>> r;
        try {
            r = std::make_unique<QuotedReader<2>>(path);
            r->read_header(io::ignore_extra_column | io::ignore_missing_column, "pc", std::string(kStates[s].name));
            if (!r->has_column(std::string(kStates[s].name))) continue;
            char *pc = nullptr, *v = nullptr;
            while (r->read_row(pc, v)) {
                const SourceLoc loc{path, r->get_file_line(), 0};
                const auto pcv = parse_number<uint64_t>(pc, "pc", loc, true);
                p.lines[p.line_of_pc.at(pcv)].cycles[s] += parse_number<uint64_t>(v, kStates[s].name, loc);
            }
        } catch (const io::error::base& e) {
            throw csv_error(path, r ? std::max(1u, r->get_file_line()) : 0u, e);
        }
    }
    std::map<std::string, std::size_t> file_rank;  // files in first-use order
    for (const SourceLine& l : p.lines) file_rank.try_emplace(l.file, file_rank.size());
    std::stable_sort(p.lines.begin(), p.lines.end(), [&](const SourceLine& a, const SourceLine& b) {
        return std::make_pair(file_rank.at(a.file), a.line) < std::make_pair(file_rank.at(b.file), b.line);
    });
    p.line_of_pc.clear();
    for (std::size_t i = 0; i < p.lines.size(); ++i)
        for (uint64_t pc : p.lines[i].pcs) p.line_of_pc[pc] = i;
}

// source.csv: file,line,text -> the full text of the lines that have instructions.
inline void read_source_csv(const std::string& path, Profile& p) {
    std::unique_ptr<QuotedReader<3>> in;
    std::map<std::pair<std::string, uint32_t>, std::string> text;
    try {
        in = std::make_unique<QuotedReader<3>>(path);
        in->read_header(io::ignore_extra_column, "file", "line", "text");
        char *file = nullptr, *line = nullptr, *t = nullptr;
        while (in->read_row(file, line, t)) {
            const SourceLoc loc{path, in->get_file_line(), 0};
            text[{file ? file : "", parse_number<uint32_t>(line, "line", loc)}] = t ? t : "";
        }
    } catch (const io::error::base& e) {
        throw csv_error(path, in ? std::max(1u, in->get_file_line()) : 0u, e);
    }
    for (SourceLine& l : p.lines)
        if (auto it = text.find({l.file, l.line}); it != text.end()) {
            std::string s = it->second;
            const auto start = s.find_first_not_of(" \t");
            l.text = start == std::string::npos ? "" : s.substr(start);
        }
}

// lanes.csv: warp,block,pc,mask (mask in 0x hex)
inline void read_lanes_csv(const std::string& path, Profile& p) {
    std::unique_ptr<io::CSVReader<4>> in;
    try {
        in = std::make_unique<io::CSVReader<4>>(path);
        in->read_header(io::ignore_extra_column, "warp", "block", "pc", "mask");
        char *warp = nullptr, *block = nullptr, *pc = nullptr, *mask = nullptr;
        while (in->read_row(warp, block, pc, mask)) {
            const SourceLoc loc{path, in->get_file_line(), 0};
            auto& m = p.lane_masks[{parse_number<uint64_t>(warp, "warp", loc), parse_number<uint64_t>(pc, "pc", loc, true)}];
            m.block = parse_number<uint64_t>(block, "block", loc);
            m.mask = parse_number<uint32_t>(mask, "mask", loc, true);
        }
    } catch (const io::error::base& e) {
        throw csv_error(path, in ? std::max(1u, in->get_file_line()) : 0u, e);
    }
}

inline Launch read_launch(const std::string& path) {
    namespace pt = boost::property_tree;
    pt::ptree t;
    try {
        pt::read_json(path, t);
    } catch (const pt::json_parser_error& e) {
        throw Error(SourceLoc{path, static_cast<uint32_t>(e.line()), 0}, "not valid JSON: " + e.message());
    }
    Launch L;
    const auto mode = t.get<std::string>("launch.mode", "");
    try {
        if (mode == "fragment") {
            L.mode = Launch::Mode::Fragment;
            L.width = t.get<uint32_t>("launch.width");
            L.height = t.get<uint32_t>("launch.height");
            L.tile_w = t.get<uint32_t>("launch.tile_width");
            L.tile_h = t.get<uint32_t>("launch.tile_height");
            if (!L.width || !L.height || !L.tile_w || !L.tile_h) throw Error(SourceLoc{path, 0, 0}, "launch: a size is 0");
        } else if (mode == "compute") {
            L.mode = Launch::Mode::Compute;
            std::vector<uint32_t> g;
            for (const auto& kv : t.get_child("launch.grid")) g.push_back(kv.second.get_value<uint32_t>());
            if (g.size() != 3) throw Error(SourceLoc{path, 0, 0}, "launch.grid: expected [x, y, z]");
            L.grid_x = g[0], L.grid_y = g[1], L.grid_z = g[2];
            L.warps_per_block = t.get<uint32_t>("launch.warps_per_block", 1);
        }
    } catch (const pt::ptree_error& e) {
        throw Error(SourceLoc{path, 0, 0}, std::string("launch: ") + e.what());
    }
    return L;
}

}  // namespace detail

// A profile directory, or a bare timeline CSV.
inline Profile load_profile(const std::string& path) {
    namespace fs = std::filesystem;
    Profile p;
    p.name = path;
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        p.tl = load_timeline(path);
        return p;
    }
    const auto in_dir = [&](const char* f) { return (fs::path(path) / f).string(); };
    if (!fs::exists(in_dir("timeline.csv")))
        throw Error(SourceLoc{path, 0, 0}, "not a profile directory: no timeline.csv (write one with simt-sim --profile DIR)");
    p.tl = load_timeline(in_dir("timeline.csv"));
    p.tl.file = path;  // the run's name in titles: the directory
    if (fs::exists(in_dir("pc.csv"))) {
        detail::read_pc_csv(in_dir("pc.csv"), p);
        if (fs::exists(in_dir("source.csv"))) detail::read_source_csv(in_dir("source.csv"), p);
    }
    if (fs::exists(in_dir("report.json"))) p.launch = detail::read_launch(in_dir("report.json"));
    if (fs::exists(in_dir("lanes.csv"))) detail::read_lanes_csv(in_dir("lanes.csv"), p);
    return p;
}

}  // namespace simt::viz
