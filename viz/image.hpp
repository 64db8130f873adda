// image.hpp: the per-pixel cost image of a fragment launch (one cell per pixel,
// coloured by its warp's cost) and the per-block image of a compute launch (one
// cell per block), computed from a Profile with no drawing.
//
// Fragment launches put one warp in each tile_w x tile_h tile of pixels, warp i
// on tile (i % tiles_x, i / tiles_x) (isa/README.md, sim/functional/fragment.hpp),
// so every pixel of a tile shows the same value: the picture shows which tiles
// cost what. Compute launches: block b at (b % grid.x, b / grid.x), z folded into rows.
// Metrics (what a cell shows, per warp, or summed/averaged over a block's warps):
//   cycles      warp cycles resident (every state)           sum over a block's warps
//   issued      instructions issued (selected cycles)        sum
//   lanes       mean active lanes per issued instruction     mean (needs the lanes column)
//   divergence  share of issued instructions with < 32 lanes mean (needs the lanes column)
//   path        did this pixel's lane execute source line L (1) or not (0): which side of
//               a branch each lane took (needs lanes.csv and a line; compute: the share
//               of a block's lanes that executed it)
// Inside a fragment tile, 2 x 2 quads are packed row-major, a quad's pixels on 4
// consecutive lanes: lane = ((py / 2) * (tile_w / 2) + px / 2) * 4 + (py % 2) * 2 + px % 2.
// Header-only and SFML-free for the tests.
#pragma once

#include <bit>

#include "viz/profile.hpp"
#include "viz/timeline_view.hpp"

namespace simt::viz {

enum class ImageMetric { Cycles, Issued, Lanes, Divergence, Path };

inline constexpr std::array<std::string_view, 5> kImageMetricNames = {"cycles", "issued", "lanes", "divergence", "path"};

inline std::optional<ImageMetric> image_metric_from_name(std::string_view s) {
    for (std::size_t i = 0; i < kImageMetricNames.size(); ++i)
        if (kImageMetricNames[i] == s) return static_cast<ImageMetric>(i);
    return std::nullopt;
}

struct CostImage {
    uint32_t w = 0, h = 0;               // cells
    uint32_t tile_w = 1, tile_h = 1;     // cells per outlined tile
    bool fragment = false;
    ImageMetric metric = ImageMetric::Cycles;
    std::vector<double> value;           // per cell, row-major; NaN: no warp there
    std::vector<int64_t> unit_of_cell;   // the warp (fragment) or block (compute) of each cell; -1 none
    double max = 0;                      // of the values (scale of cycles/issued)
    std::string about;                   // path: "line 25: sin r4, r4"
    double at(uint32_t x, uint32_t y) const { return value[std::size_t(y) * w + x]; }
};

// 0..1 -> a dark-to-bright heat ramp (navy, purple, orange, yellow), quantised to 256 steps.
inline Rgb heat_color(double t) {
    const int k = static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * 255));
    static constexpr Rgb stops[4] = {{28, 30, 72}, {140, 50, 150}, {240, 110, 50}, {252, 236, 110}};
    const int seg = std::min(2, k / 86), base = seg * 85;
    const int f = std::min(85, k - base);
    const Rgb a = stops[seg], b = stops[seg + 1];
    return Rgb{static_cast<uint8_t>(a.r + (int(b.r) - a.r) * f / 85), static_cast<uint8_t>(a.g + (int(b.g) - a.g) * f / 85),
               static_cast<uint8_t>(a.b + (int(b.b) - a.b) * f / 85)};
}

// The colour of a cell value: lanes use the lane strip's colours; the others the heat ramp
// (cycles and issued scaled to the image's largest value, divergence 0..1).
inline Rgb cost_color(const CostImage& im, double v) {
    switch (im.metric) {
    case ImageMetric::Lanes: return lane_color(static_cast<uint32_t>(std::lround(v)));
    case ImageMetric::Divergence: case ImageMetric::Path: return heat_color(v);
    default: return heat_color(im.max > 0 ? v / im.max : 0);
    }
}

namespace detail {
struct UnitCost {
    double cycles = 0, issued = 0, lane_sum = 0, lane_n = 0, divergent = 0, warps = 0;
    double get(ImageMetric m) const {
        switch (m) {
        case ImageMetric::Cycles: return cycles;
        case ImageMetric::Issued: return issued;
        case ImageMetric::Lanes: return lane_n ? lane_sum / lane_n : 0;
        case ImageMetric::Divergence: return lane_n ? divergent / lane_n : 0;
        case ImageMetric::Path: return 0;  // per lane, below
        }
        return 0;
    }
};
}  // namespace detail

// The lane of pixel (x, y) inside its tile (fragment launches).
inline uint32_t lane_of_pixel(uint32_t x, uint32_t y, uint32_t tile_w, uint32_t tile_h) {
    const uint32_t px = x % tile_w, py = y % tile_h;
    return ((py / 2) * (tile_w / 2) + px / 2) * 4 + (py % 2) * 2 + px % 2;
}

// Throws simt::Error when the profile has no launch shape (not a profile directory).
// `line`: the Profile::lines index the path metric is about.
inline CostImage build_image(const Profile& p, ImageMetric m, std::optional<std::size_t> line = std::nullopt) {
    if (m == ImageMetric::Path) {
        if (p.lane_masks.empty())
            throw Error(SourceLoc{p.name, 0, 0}, "the image metric \"path\" needs lanes.csv (simt-sim --profile DIR writes it)");
        if (!line || *line >= p.lines.size())
            throw Error("the image metric \"path\" needs a source line: --highlight LINE (in the window: click a line)");
    }
    if (p.launch.mode == Launch::Mode::Unknown)
        throw Error(SourceLoc{p.name, 0, 0}, "the cost image needs a profile directory with report.json "
                                             "(simt-sim --profile DIR), not a bare timeline");
    if ((m == ImageMetric::Lanes || m == ImageMetric::Divergence) && !p.tl.has_lanes)
        throw Error(SourceLoc{p.tl.file, 1, 0}, "the image metric \"" + std::string(kImageMetricNames[int(m)]) +
                                                    "\" needs the timeline's lanes column (simt-sim writes it since the profile format)");
    CostImage im;
    im.metric = m;
    const Launch& L = p.launch;
    std::map<uint64_t, detail::UnitCost> cost;  // per warp (fragment) or block (compute)
    for (const WarpTrack& w : p.tl.warps) {
        auto& c = cost[w.block];  // fragment: one warp per block
        c.warps += 1;
        for (const Interval& iv : w.intervals) {
            const double len = double(iv.end - iv.start);
            c.cycles += len;
            if (iv.state != State::Selected) continue;
            c.issued += len;
            if (iv.lanes) {
                c.lane_sum += iv.lanes * len;
                c.lane_n += len;
                if (iv.lanes < 32) c.divergent += len;
            }
        }
    }
    uint32_t units_x = 1;
    if (L.mode == Launch::Mode::Fragment) {
        im.fragment = true;
        im.w = L.width, im.h = L.height, im.tile_w = L.tile_w, im.tile_h = L.tile_h;
        units_x = (L.width + L.tile_w - 1) / L.tile_w;
    } else {
        im.w = L.grid_x, im.h = L.grid_y * L.grid_z;
        units_x = L.grid_x;
    }
    if (uint64_t(im.w) * im.h > (uint64_t(1) << 26))
        throw Error(SourceLoc{p.name, 0, 0}, "the launch is too large to draw as an image (" + std::to_string(im.w) + "x" +
                                                 std::to_string(im.h) + ")");
    // path: per unit (block), the union of the lanes that issued at the line's pcs (per warp).
    std::map<uint64_t, std::map<uint64_t, uint32_t>> line_masks;  // block -> warp -> mask
    if (m == ImageMetric::Path) {
        const auto& pcs = p.lines[*line].pcs;
        for (const auto& [key, lm] : p.lane_masks)
            if (std::find(pcs.begin(), pcs.end(), key.second) != pcs.end()) line_masks[lm.block][key.first] |= lm.mask;
    }
    auto path_value = [&](uint64_t unit, uint32_t x, uint32_t y) {
        auto it = line_masks.find(unit);
        if (it == line_masks.end()) return 0.0;
        if (im.fragment) {
            const uint32_t lane = lane_of_pixel(x, y, im.tile_w, im.tile_h);
            uint32_t mask = 0;
            for (const auto& [warp, mk] : it->second) mask |= mk;
            return (mask >> lane) & 1u ? 1.0 : 0.0;
        }
        double lanes = 0;
        for (const auto& [warp, mk] : it->second) lanes += std::popcount(mk);
        return lanes / (32.0 * std::max<uint32_t>(1, L.warps_per_block));
    };
    if (m == ImageMetric::Path) im.about = "line " + std::to_string(p.lines[*line].line) + ": " + p.lines[*line].text;
    im.value.assign(std::size_t(im.w) * im.h, std::nan(""));
    im.unit_of_cell.assign(im.value.size(), -1);
    for (uint32_t y = 0; y < im.h; ++y)
        for (uint32_t x = 0; x < im.w; ++x) {
            const uint64_t unit = im.fragment ? uint64_t(y / im.tile_h) * units_x + x / im.tile_w : uint64_t(y) * units_x + x;
            auto it = cost.find(unit);
            if (it == cost.end()) continue;
            const double v = m == ImageMetric::Path ? path_value(unit, x, y) : it->second.get(m);
            im.value[std::size_t(y) * im.w + x] = v;
            im.unit_of_cell[std::size_t(y) * im.w + x] = static_cast<int64_t>(unit);
            im.max = std::max(im.max, v);
        }
    return im;
}

}  // namespace simt::viz
