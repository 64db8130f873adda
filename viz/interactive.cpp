// interactive.cpp: the viewer window: zoom, pan, scroll, SM filter, tooltip, help.
//
// Input changes a ViewState; every change redraws the whole frame (render.cpp is
// fast enough for 100k+ intervals because it bins rows to pixel columns). The loop
// blocks on events, so an idle viewer uses no CPU.
// Leaves out: drawing (render.cpp) and command-line handling (main.cpp).
#include <cmath>
#include <iostream>

#include "viz/compare_render.hpp"
#include "viz/image_render.hpp"
#include "viz/render.hpp"

namespace simt::viz {
namespace {

constexpr double kMinSpan = 8;  // cycles across the plot at the deepest zoom

struct Controller {
    Controller(const Profile& p, ViewState start, const Profile* b)
        : prof(p), tl(p.tl), other(b), v(std::move(start)) {}
    const Profile& prof;
    const Timeline& tl;
    const Profile* other;  // A/B: the second run
    ViewState v;
    bool image = false;    // I: the cost image instead of the timeline
    ImageMetric metric = ImageMetric::Cycles;
    std::optional<CostImage> cost;  // built when first shown, per metric
    bool dragging = false;
    sf::Vector2i drag_at;
    ViewState drag_start;
    sf::Vector2i mouse{-1, -1};
    bool help = false;
    const sf::Font* font = nullptr;
    std::string status;  // a one-off message in the hint line ("saved ...")
    bool save_requested = false;

    uint64_t first() const { return other ? std::min(tl.first_cycle, other->tl.first_cycle) : tl.first_cycle; }
    uint64_t last() const { return other ? std::max(tl.last_cycle, other->tl.last_cycle) : tl.last_cycle; }
    double full_span() const { return std::max<double>(1, double(last() - first())); }

    void fit() {
        v.from = first();
        v.to = first() + full_span();
        v.scroll = 0;
    }
    // Zooms by `factor` (< 1: in) keeping cycle `at` under the same pixel.
    void zoom(double factor, double at) {
        const double span = std::clamp((v.to - v.from) * factor, kMinSpan, 2 * full_span());
        const double f = (at - v.from) / (v.to - v.from);
        v.from = at - f * span;
        v.to = v.from + span;
    }
    void pan_cycles(double d) { v.from += d, v.to += d; }
    void clamp_scroll(const Geometry& g, const RowLayout& L) {
        v.scroll = std::round(std::clamp(v.scroll, 0.0f, std::max(0.0f, L.content_h - g.plot.height)));
    }
    void show_only(uint32_t sm) {
        if (std::find(tl.sms.begin(), tl.sms.end(), sm) == tl.sms.end()) {
            status = "there is no SM " + std::to_string(sm) + " in this timeline";
            return;
        }
        v.sms = {sm};
        v.scroll = 0;
    }
    void toggle(uint32_t sm) {
        auto it = std::find(v.sms.begin(), v.sms.end(), sm);
        if (it != v.sms.end()) v.sms.erase(it);
        else if (std::find(tl.sms.begin(), tl.sms.end(), sm) != tl.sms.end()) v.sms.push_back(sm);
        std::sort(v.sms.begin(), v.sms.end());
        v.scroll = 0;
    }
    void step_sm(int dir) {  // [ and ]: the previous/next SM alone
        const auto& sms = tl.sms;
        std::size_t i = 0;
        if (v.sms.size() == 1)
            i = (std::find(sms.begin(), sms.end(), v.sms[0]) - sms.begin() + sms.size() + dir) % sms.size();
        else if (dir < 0)
            i = sms.size() - 1;
        show_only(sms[i]);
    }
};

void on_key(Controller& c, const sf::Event::KeyEvent& k, sf::RenderWindow& win, const Geometry& g, const RowLayout& L) {
    using K = sf::Keyboard;
    const double span = c.v.to - c.v.from;
    if (k.code >= K::Num0 && k.code <= K::Num9) {
        const auto sm = static_cast<uint32_t>(k.code - K::Num0);
        k.shift ? c.toggle(sm) : c.show_only(sm);
        return;
    }
    switch (k.code) {
    case K::Escape:
        if (c.help) c.help = false;
        else win.close();
        break;
    case K::Q: win.close(); break;
    case K::H: case K::F1: c.help = !c.help; break;
    case K::A: c.v.sms.clear(); c.v.scroll = 0; break;
    case K::LBracket: c.step_sm(-1); break;
    case K::RBracket: c.step_sm(+1); break;
    case K::F: case K::Home: c.fit(); break;
    case K::Left: c.pan_cycles(-0.1 * span); break;
    case K::Right: c.pan_cycles(0.1 * span); break;
    case K::Up: c.v.scroll -= 3 * L.row_h; break;
    case K::Down: c.v.scroll += 3 * L.row_h; break;
    case K::PageUp: c.v.scroll -= g.plot.height * 0.9f; break;
    case K::PageDown: c.v.scroll += g.plot.height * 0.9f; break;
    case K::Add: case K::Equal: c.zoom(0.8, (c.v.from + c.v.to) / 2); break;
    case K::Subtract: case K::Hyphen: c.zoom(1.25, (c.v.from + c.v.to) / 2); break;
    case K::S: c.save_requested = true; break;
    case K::C:
        if (!c.prof.has_source()) c.status = "no source view: open a profile directory (simt-sim --profile DIR)";
        else if (c.other) c.status = "the source view is for one run";
        else c.v.source_panel = !c.v.source_panel;
        break;
    case K::O: c.v.sort_by_cost = !c.v.sort_by_cost; c.v.panel_scroll = 0; break;
    case K::L: c.v.lanes = !c.v.lanes; if (!c.tl.has_lanes) c.status = "this timeline has no lanes column"; break;
    case K::I: case K::M:
        if (c.other) { c.status = "the image is for one run"; break; }
        try {
            if (k.code == K::M) c.metric = static_cast<ImageMetric>((int(c.metric) + 1) % kImageMetricNames.size());
            if (k.code == K::I) c.image = !c.image;
            if (c.image) c.cost = build_image(c.prof, c.metric, c.v.highlight_line);
        } catch (const Error& e) {
            c.image = false;
            c.status = e.what();
        }
        break;
    default: break;
    }
}

void draw_help(sf::RenderTarget& t, Renderer& r) {
    TipLines lines;
    for (const char* l : {
             "simt-viz: one row per warp, coloured by what the warp did in each cycle",
             "",
             "Mouse wheel: zoom in time around the pointer      Drag: pan (time and rows)",
             "Shift+wheel, \u2191 \u2193, PgUp PgDn: scroll the rows      \u2190 \u2192: pan      + -: zoom",
             "0-9: show only that SM      Shift+0-9: add/remove that SM      [ ]: previous/next SM      A: all SMs",
             "F or Home: fit everything      S: save simt-viz-screenshot.png      H: this help      Q / Esc: quit",
             "C: source view (click a line: its cycles are marked in the rows)   O: its order   L: lane strip",
             "I: per-pixel (per-block) cost image   M: its metric (cycles, issued, lanes, divergence)",
             "",
             "The green strip above each sub-partition's warps is its scheduler's issue density:",
             "full height = an instruction issued every cycle. Gaps there are lost throughput;",
             "the colours of the warps below say what they were waiting for.",
             ""})
        lines.push_back({l});
    for (std::size_t i = 0; i < kStateCount; ++i)
        lines.push_back({std::string(kStates[i].name) + ": " + std::string(kStates[i].meaning), static_cast<State>(i)});
    const sf::Vector2u s = t.getSize();
    r.draw_tooltip(t, lines, sf::Vector2f(s.x * 0.12f - 16, s.y * 0.08f - 18));
}

void on_event(Controller& c, const sf::Event& e, sf::RenderWindow& win, const Geometry& g, const RowLayout& L) {
    const XMap xm = g.xmap(c.v);
    switch (e.type) {
    case sf::Event::Closed: win.close(); break;
    case sf::Event::Resized:
        win.setView(sf::View(sf::FloatRect(0, 0, float(e.size.width), float(e.size.height))));
        break;
    case sf::Event::KeyPressed: c.status.clear(); on_key(c, e.key, win, g, L); break;
    case sf::Event::MouseWheelScrolled: {
        const auto& w = e.mouseWheelScroll;
        if (c.v.source_panel && g.panel.contains(float(w.x), float(w.y))) {
            c.v.panel_scroll = std::max(0.0f, c.v.panel_scroll - w.delta * 3 * 34);
            break;
        }
        const bool shift = sf::Keyboard::isKeyPressed(sf::Keyboard::LShift) || sf::Keyboard::isKeyPressed(sf::Keyboard::RShift);
        if (w.wheel == sf::Mouse::HorizontalWheel) c.pan_cycles(-w.delta * 0.05 * (c.v.to - c.v.from));
        else if (shift) c.v.scroll -= w.delta * 3 * L.row_h;
        else c.zoom(std::pow(0.85, w.delta), xm.cycle_at(w.x));
        break;
    }
    case sf::Event::MouseButtonPressed:
        if (e.mouseButton.button == sf::Mouse::Left && !c.image && c.v.source_panel &&
            g.panel.contains(float(e.mouseButton.x), float(e.mouseButton.y))) {
            const Renderer r(c.tl, nullptr, &c.prof);
            auto line = r.panel_line_at(c.v, g, {e.mouseButton.x, e.mouseButton.y});
            c.v.highlight_line = line == c.v.highlight_line ? std::nullopt : line;
        } else if (e.mouseButton.button == sf::Mouse::Left) {
            c.dragging = true;
            c.drag_at = {e.mouseButton.x, e.mouseButton.y};
            c.drag_start = c.v;
        }
        break;
    case sf::Event::MouseButtonReleased: c.dragging = false; break;
    case sf::Event::MouseMoved:
        c.mouse = {e.mouseMove.x, e.mouseMove.y};
        if (c.v.source_panel && !c.other) c.v.hover_line = Renderer(c.tl, nullptr, &c.prof).row_line_at(c.v, g, c.mouse);
        if (c.dragging) {  // the cycle grabbed stays under the pointer
            const double dc = (e.mouseMove.x - c.drag_at.x) / xm.scale();
            c.v.from = c.drag_start.from - dc;
            c.v.to = c.drag_start.to - dc;
            c.v.scroll = c.drag_start.scroll - float(e.mouseMove.y - c.drag_at.y);
        }
        break;
    case sf::Event::MouseLeft: c.mouse = {-1, -1}; break;
    default: break;
    }
    c.clamp_scroll(g, L);
}

// The frame, then what floats over it: the status line, the help or the tooltip.
void draw_screen(sf::RenderTarget& t, Renderer& r, const Controller& c) {
    if (c.image && c.cost) {
        draw_image(t, *c.cost, c.prof, c.font, c.mouse);
        return;
    }
    if (c.other) {
        const CompareLayout L = compare_layout(c.prof, *c.other, c.v, {t.getSize().x, t.getSize().y});
        draw_compare(t, c.prof, *c.other, c.font, c.v, L);
        return;
    }
    r.draw(t, c.v);
    const Geometry g = frame_geometry(t.getSize(), c.tl, c.v);
    if (!c.status.empty()) {
        sf::RectangleShape bg({g.hint.width, g.hint.height});
        bg.setPosition(g.hint.left, g.hint.top);
        bg.setFillColor(sf::Color(23, 25, 30));
        t.draw(bg);
        r.draw_tooltip(t, {{c.status}}, {g.hint.left - 16, g.hint.top - 40});
    }
    if (c.help)
        draw_help(t, r);
    else if (!c.dragging)
        r.draw_hover(t, c.v, c.mouse);
}

// S: the screen drawn again into a texture (the window's back buffer is not reliable to read).
void save_screenshot(Renderer& r, Controller& c, sf::Vector2u size) {
    const std::string path = "simt-viz-screenshot.png";
    sf::RenderTexture rt;
    bool ok = rt.create(size.x, size.y);
    if (ok) {
        draw_screen(rt, r, c);
        rt.display();
        ok = rt.getTexture().copyToImage().saveToFile(path);
    }
    c.status = ok ? "saved " + path : "could not write " + path;
    std::cout << c.status << std::endl;
}

}  // namespace

void run_interactive(const Profile& prof, const sf::Font* font, ViewState v, const Profile* other) {
    v.interactive = true;
    const Timeline& tl = prof.tl;
    sf::RenderWindow win(sf::VideoMode(1600, 900), "simt-viz: " + prof.name + (other ? " vs " + other->name : ""));
    win.setVerticalSyncEnabled(true);
    Renderer r(tl, font, &prof);
    Controller c{prof, v, other};
    c.font = font;
    sf::Event e;
    while (win.isOpen() && win.waitEvent(e)) {
        do {
            const Geometry g = frame_geometry(win.getSize(), tl, c.v);
            on_event(c, e, win, g, r.layout(c.v, g));
        } while (win.isOpen() && win.pollEvent(e));
        if (!win.isOpen()) break;
        if (c.save_requested) {
            c.save_requested = false;
            save_screenshot(r, c, win.getSize());
        }
        draw_screen(win, r, c);
        win.display();
    }
}

}  // namespace simt::viz
