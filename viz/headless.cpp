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

#include "viz/compare_render.hpp"
#include "viz/image_render.hpp"
#include "viz/render.hpp"

namespace simt::viz {

struct Probe {
    std::string spec;
    std::optional<uint32_t> warp, block, sm, sub_partition;
    uint64_t cycle = 0;
    std::optional<State> state;
    std::optional<uint32_t> lanes;         // the lane strip instead of the state
    std::optional<uint32_t> line;          // the source view's bar of that line (with state=)
    std::optional<uint32_t> px, py;        // a cell of the cost image (with value=)
    std::optional<double> value;
    bool run_b = false;                    // A/B: the second run
};

namespace {

Probe parse_probe(const std::string& spec) {
    Probe p;
    p.spec = spec;
    bool have_cycle = false;
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
        } else if (key == "lanes" || key == "line" || key == "px" || key == "py") {
            auto n = detail::parse_number<uint32_t>(v.c_str(), key, loc);
            (key == "lanes" ? p.lanes : key == "line" ? p.line : key == "px" ? p.px : p.py) = n;
        } else if (key == "value") {
            char* end = nullptr;
            p.value = std::strtod(v.c_str(), &end);
            if (v.empty() || *end) throw Error(loc, "value: \"" + v + "\" is not a number");
        } else if (key == "run") {
            if (v != "a" && v != "b") throw Error(loc, "run: expected a or b (the first or second file), not \"" + v + "\"");
            p.run_b = v == "b";
        } else if (key == "cycle") {
            p.cycle = detail::parse_number<uint64_t>(v.c_str(), key, loc);
            have_cycle = true;
        } else if (key == "warp" || key == "block" || key == "sm" || key == "sub_partition") {
            auto n = detail::parse_number<uint32_t>(v.c_str(), key, loc);
            (key == "warp" ? p.warp : key == "block" ? p.block : key == "sm" ? p.sm : p.sub_partition) = n;
        } else {
            throw Error(loc, "unknown key \"" + key + "\"; use warp, block, sm, sub_partition, cycle, state, lanes, "
                             "run (timeline), line, state (source view), px, py, value (image)");
        }
    }
    if (p.px || p.py || p.value) {
        if (!p.px || !p.py || !p.value) throw Error(loc, "an image probe needs px=, py= and value=");
    } else if (p.line) {
        if (!p.state) throw Error(loc, "a source view probe needs line= and state=");
    } else if (!p.warp || !have_cycle || (!p.state && !p.lanes)) {
        throw Error(loc, "needs at least warp=, cycle= and state= (or lanes=)");
    }
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
    for (uint32_t n = 1; n <= 32; ++n)
        if (to_sf(lane_color(n)) == c) return s + " = " + std::to_string(n) + " lanes";
    return s;
}

// Checks one probe against the saved image; prints the outcome; true when it holds.
bool check_probe(const Timeline& tl, const Renderer& r, const ViewState& v, const Geometry& g, const sf::Image& img,
                 const Probe& p, int y_offset = 0) {
    const std::size_t w = find_warp(tl, p);
    auto px = p.lanes ? r.probe_lane_pixel(v, g, w, static_cast<double>(p.cycle))
                      : r.probe_pixel(v, g, w, static_cast<double>(p.cycle));
    if (!px) {
        std::cout << "FAIL " << p.spec << ": that warp and cycle are not in the picture"
                  << (p.lanes ? " (or its rows are too low for the lane strip)" : "") << "\n";
        return false;
    }
    px->y += y_offset;
    const sf::Color got = img.getPixel(px->x, px->y), want = p.lanes ? to_sf(lane_color(*p.lanes)) : state_color(*p.state);
    const bool ok = got == want;
    const Interval* iv = interval_at(tl.warps[w], static_cast<double>(p.cycle));
    std::cout << (ok ? "ok   " : "FAIL ") << p.spec << ": pixel (" << px->x << "," << px->y << ") is "
              << describe(got) << (ok ? "" : ", expected " + describe(want)) << "; the CSV has "
              << (iv ? std::string(info(iv->state).name) + (iv->lanes ? " with " + std::to_string(iv->lanes) + " lanes" : "") +
                           " at line " + std::to_string(iv->line)
                     : "nothing")
              << "\n";
    return ok;
}

// The source view: the middle of that line's bar segment for the state must have the state's colour.
bool check_line_probe(const Profile& prof, const ViewState& v, const Geometry& g, const sf::Image& img, const Probe& p) {
    const SourceLoc loc{"--expect " + p.spec, 0, 0};
    if (!v.source_panel || !prof.has_source()) throw Error(loc, "a line= probe needs --source and a profile directory with pc.csv");
    const PanelLayout L = panel_layout(prof, g, v);
    uint64_t max_total = 1;
    for (const SourceLine& l : prof.lines) max_total = std::max(max_total, l.total());
    for (const PanelRow& row : L.rows) {
        const SourceLine& l = prof.lines[row.line];
        if (l.line != *p.line) continue;
        auto [x0, x1] = panel_segment(l, row.bar, *p.state, max_total);
        if (x1 - x0 < 1) {
            std::cout << "FAIL " << p.spec << ": line " << l.line << " has no " << info(*p.state).name << " segment\n";
            return false;
        }
        const int x = static_cast<int>(std::floor((x0 + x1) / 2)), y = static_cast<int>(row.bar.top + row.bar.height / 2);
        const sf::Color got = img.getPixel(x, y), want = state_color(*p.state);
        const bool ok = got == want;
        std::cout << (ok ? "ok   " : "FAIL ") << p.spec << ": pixel (" << x << "," << y << ") is " << describe(got)
                  << (ok ? "" : ", expected " + describe(want)) << "; pc.csv has " << l.cycles[std::size_t(*p.state)]
                  << " warp cycles of it at line " << l.line << " (" << l.text << ")\n";
        return ok;
    }
    std::cout << "FAIL " << p.spec << ": line " << *p.line << " is not in the source view\n";
    return false;
}

bool check_image_probe(const CostImage& im, const ImageGeometry& g, const sf::Image& img, const Probe& p) {
    const auto px = image_probe_pixel(g, im, *p.px, *p.py);
    if (!px) {
        std::cout << "FAIL " << p.spec << ": that cell is not in the picture (or cells are under a pixel)\n";
        return false;
    }
    const sf::Color got = img.getPixel(px->x, px->y), want = to_sf(cost_color(im, *p.value));
    const bool ok = got == want;
    std::cout << (ok ? "ok   " : "FAIL ") << p.spec << ": pixel (" << px->x << "," << px->y << ") is " << describe(got)
              << (ok ? "" : ", expected " + describe(want)) << "; the profile has " << im.at(*p.px, *p.py) << "\n";
    return ok;
}

void need_display(const std::string& png) {
    const char* display = std::getenv("DISPLAY");
    if (!display || !*display)
        throw Error("SFML needs an X display even to draw off-screen; run: xvfb-run -a simt-viz ... --png " + png);
}

sf::Image read_back(const std::string& png) {
    sf::Image img;
    if (!img.loadFromFile(png)) throw Error(SourceLoc{png, 0, 0}, "cannot read the PNG back");
    return img;
}

int run_image(const Profile& prof, const sf::Font* font, const ViewState& v, const HeadlessOptions& o,
              const std::vector<Probe>& probes) {
    const CostImage im = build_image(prof, *o.image, v.highlight_line);
    for (const auto& p : probes)
        if (!p.px) throw Error(SourceLoc{"--expect " + p.spec, 0, 0}, "with --image only px=,py=,value= probes apply");
    const sf::Vector2u size{o.size.x, o.size.y ? o.size.y : 900};
    need_display(o.png);
    sf::RenderTexture rt;
    if (!rt.create(size.x, size.y)) throw Error("cannot create an off-screen texture");
    draw_image(rt, im, prof, font, o.hover);
    rt.display();
    if (!rt.getTexture().copyToImage().saveToFile(o.png)) throw Error(SourceLoc{o.png, 0, 0}, "cannot write the PNG");
    std::cout << "wrote " << o.png << " (" << size.x << "x" << size.y << ", image " << kImageMetricNames[int(*o.image)]
              << ", " << im.w << "x" << im.h << " cells)\n";
    if (probes.empty()) return 0;
    const sf::Image img = read_back(o.png);
    const ImageGeometry g = image_geometry(img.getSize(), im);
    bool all = true;
    for (const auto& p : probes) all = check_image_probe(im, g, img, p) && all;
    return all ? 0 : 1;
}

int run_compare(const Profile& a, const Profile& b, const sf::Font* font, const ViewState& v, const HeadlessOptions& o,
                const std::vector<Probe>& probes) {
    for (const auto& p : probes) {
        if (!p.warp) throw Error(SourceLoc{"--expect " + p.spec, 0, 0}, "with two runs only timeline probes (run=a|b) apply");
        find_warp(p.run_b ? b.tl : a.tl, p);
    }
    need_display(o.png);
    const CompareLayout L = compare_layout(a, b, v, o.size);
    render_compare_png(a, b, font, v, L, o.png);
    std::cout << "wrote " << o.png << " (" << L.size.x << "x" << L.size.y << ", A/B, cycles " << v.from << " - " << v.to
              << ")\n";
    if (probes.empty()) return 0;
    const sf::Image img = read_back(o.png);
    bool all = true;
    for (const auto& p : probes) {
        const Profile& run = p.run_b ? b : a;
        const Renderer r(run.tl, font, &run);
        const sf::Vector2u part = p.run_b ? L.b_size : L.a_size;
        const Geometry g = frame_geometry(part, run.tl, v);
        all = check_probe(run.tl, r, v, g, img, p, static_cast<int>(p.run_b ? L.b_top : L.a_top)) && all;
    }
    return all ? 0 : 1;
}

}  // namespace

// Renders to o.png, then checks each --expect against the file read back. Returns the exit status.
int run_headless(const Profile& prof, const sf::Font* font, const ViewState& view, const HeadlessOptions& o) {
    ViewState v = view;
    std::vector<Probe> probes;
    for (const auto& e : o.expects) probes.push_back(parse_probe(e));  // bad specs fail before drawing
    if (o.other) return run_compare(prof, *o.other, font, v, o, probes);
    if (o.image) return run_image(prof, font, v, o, probes);
    const Timeline& tl = prof.tl;
    for (const auto& p : probes) {
        if (p.px) throw Error(SourceLoc{"--expect " + p.spec, 0, 0}, "px=,py=,value= probes need --image");
        if (p.run_b) throw Error(SourceLoc{"--expect " + p.spec, 0, 0}, "run=b needs a second run (simt-viz A B)");
        if (p.warp) find_warp(tl, p);
    }
    need_display(o.png);
    const sf::Vector2u size{o.size.x, o.size.y ? o.size.y : fitted_height(tl, v, o.size.x, 900, prof.lines.size())};
    if (o.hover && v.source_panel)  // as in the window: the hovered interval's line lights up in the source view
        v.hover_line = Renderer(tl, font, &prof).row_line_at(v, frame_geometry(size, tl, v), *o.hover);
    render_png(tl, font, v, size, o.png, o.hover, &prof);
    std::cout << "wrote " << o.png << " (" << size.x << "x" << size.y << ", cycles " << v.from << " - " << v.to << ")\n";
    if (probes.empty()) return 0;

    const sf::Image img = read_back(o.png);
    const Renderer r(tl, font, &prof);
    const Geometry g = frame_geometry(img.getSize(), tl, v);
    bool all = true;
    for (const auto& p : probes)
        all = (p.line ? check_line_probe(prof, v, g, img, p) : check_probe(tl, r, v, g, img, p)) && all;
    return all ? 0 : 1;
}

}  // namespace simt::viz
