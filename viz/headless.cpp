// headless.cpp: --png (draw a frame off-screen and save it) and --expect probes.
//
// A probe names a warp, a cycle and the state the picture must show there:
//     --expect warp=0,block=0,cycle=12,state=selected
// After the PNG is written it is read back from disk, and the pixel in the middle
// of that warp's row at that cycle must have exactly the state's colour. This is
// how the ctest checks that what a user sees matches the CSV.
// Leaves out: the window (interactive.cpp).
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "viz/render.hpp"

namespace simt::viz {

struct Probe {
    std::string spec;
    std::optional<uint32_t> warp, block, sm, sub_partition;
    uint64_t cycle = 0;
    State state = State::Selected;
};

namespace {

Probe parse_probe(const std::string& spec) {
    Probe p;
    p.spec = spec;
    bool have_cycle = false, have_state = false;
    std::stringstream ss(spec);
    std::string item;
    const SourceLoc loc{"--expect " + spec, 0, 0};
    while (std::getline(ss, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos) throw Error(loc, "\"" + item + "\" is not key=value");
        const std::string key = item.substr(0, eq), val = item.substr(eq + 1);
        const std::string v = val;
        if (key == "state") {
            p.state = detail::parse_state(v.c_str(), loc);
            have_state = true;
        } else if (key == "cycle") {
            p.cycle = detail::parse_number<uint64_t>(v.c_str(), key, loc);
            have_cycle = true;
        } else if (key == "warp" || key == "block" || key == "sm" || key == "sub_partition") {
            auto n = detail::parse_number<uint32_t>(v.c_str(), key, loc);
            (key == "warp" ? p.warp : key == "block" ? p.block : key == "sm" ? p.sm : p.sub_partition) = n;
        } else {
            throw Error(loc, "unknown key \"" + key + "\"; use warp, block, sm, sub_partition, cycle, state");
        }
    }
    if (!p.warp || !have_cycle || !have_state) throw Error(loc, "needs at least warp=, cycle= and state=");
    return p;
}

std::size_t find_warp(const Timeline& tl, const Probe& p) {
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < tl.warps.size(); ++i) {
        const WarpTrack& w = tl.warps[i];
        if (w.warp == *p.warp && (!p.block || w.block == *p.block) && (!p.sm || w.sm == *p.sm) &&
            (!p.sub_partition || w.sub_partition == *p.sub_partition))
            hits.push_back(i);
    }
    const SourceLoc loc{"--expect " + p.spec, 0, 0};
    if (hits.empty()) throw Error(loc, "no such warp in " + tl.file);
    if (hits.size() > 1) throw Error(loc, "matches " + std::to_string(hits.size()) + " warps; add block=, sm= or sub_partition=");
    return hits[0];
}

std::string describe(sf::Color c) {
    std::string s = "(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
    for (const auto& k : kStates)
        if (to_sf(k.color) == c) return s + " = " + std::string(k.name);
    return s;
}

// Checks one probe against the saved image; prints the outcome; true when it holds.
bool check_probe(const Timeline& tl, const Renderer& r, const ViewState& v, const Geometry& g, const sf::Image& img,
                 const Probe& p) {
    const std::size_t w = find_warp(tl, p);
    const auto px = r.probe_pixel(v, g, w, static_cast<double>(p.cycle));
    if (!px) {
        std::cout << "FAIL " << p.spec << ": that warp and cycle are not in the picture\n";
        return false;
    }
    const sf::Color got = img.getPixel(px->x, px->y), want = state_color(p.state);
    const bool ok = got == want;
    const Interval* iv = interval_at(tl.warps[w], static_cast<double>(p.cycle));
    std::cout << (ok ? "ok   " : "FAIL ") << p.spec << ": pixel (" << px->x << "," << px->y << ") is "
              << describe(got) << (ok ? "" : ", expected " + describe(want)) << "; the CSV has "
              << (iv ? std::string(info(iv->state).name) + " at line " + std::to_string(iv->line) : "nothing") << "\n";
    return ok;
}

}  // namespace

// Renders to o.png, then checks each --expect against the file read back. Returns the exit status.
int run_headless(const Timeline& tl, const sf::Font* font, const ViewState& v, const HeadlessOptions& o) {
    std::vector<Probe> probes;
    for (const auto& e : o.expects) probes.push_back(parse_probe(e));  // bad specs fail before drawing
    for (const auto& p : probes) find_warp(tl, p);
    const char* display = std::getenv("DISPLAY");
    if (!display || !*display)
        throw Error("SFML needs an X display even to draw off-screen; run: xvfb-run -a simt-viz ... --png " + o.png);
    const sf::Vector2u size{o.size.x, o.size.y ? o.size.y : fitted_height(tl, v, o.size.x, 900)};
    render_png(tl, font, v, size, o.png, o.hover);
    std::cout << "wrote " << o.png << " (" << size.x << "x" << size.y << ", cycles " << v.from << " - " << v.to << ")\n";
    if (probes.empty()) return 0;

    sf::Image img;
    if (!img.loadFromFile(o.png)) throw Error(SourceLoc{o.png, 0, 0}, "cannot read the PNG back");
    const Renderer r(tl, font);
    const Geometry g = frame_geometry(img.getSize(), tl, false);
    bool all = true;
    for (const auto& p : probes) all = check_probe(tl, r, v, g, img, p) && all;
    return all ? 0 : 1;
}

}  // namespace simt::viz
