// interactive.cpp: the viewer window: zoom, pan, scroll, SM filter, tooltip, help.
//
// Input changes a ViewState; every change redraws the whole frame (render.cpp is
// fast enough for 100k+ intervals because it bins rows to pixel columns). The loop
// blocks on events, so an idle viewer uses no CPU.
// Leaves out: drawing (render.cpp) and command-line handling (main.cpp).
#include <cmath>
#include <iostream>

#include "viz/render.hpp"

namespace simt::viz {
namespace {

constexpr double kMinSpan = 8;  // cycles across the plot at the deepest zoom

struct Controller {
    Controller(const Timeline& t, ViewState start) : tl(t), v(std::move(start)) {}
    const Timeline& tl;
    ViewState v;
    bool dragging = false;
    sf::Vector2i drag_at;
    ViewState drag_start;
    sf::Vector2i mouse{-1, -1};
    bool help = false;
    std::string status;  // a one-off message in the hint line ("saved ...")
    bool save_requested = false;

    double full_span() const { return std::max<double>(1, tl.last_cycle - tl.first_cycle); }

    void fit() {
        v.from = tl.first_cycle;
        v.to = tl.first_cycle + full_span();
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
        const bool shift = sf::Keyboard::isKeyPressed(sf::Keyboard::LShift) || sf::Keyboard::isKeyPressed(sf::Keyboard::RShift);
        if (w.wheel == sf::Mouse::HorizontalWheel) c.pan_cycles(-w.delta * 0.05 * (c.v.to - c.v.from));
        else if (shift) c.v.scroll -= w.delta * 3 * L.row_h;
        else c.zoom(std::pow(0.85, w.delta), xm.cycle_at(w.x));
        break;
    }
    case sf::Event::MouseButtonPressed:
        if (e.mouseButton.button == sf::Mouse::Left) {
            c.dragging = true;
            c.drag_at = {e.mouseButton.x, e.mouseButton.y};
            c.drag_start = c.v;
        }
        break;
    case sf::Event::MouseButtonReleased: c.dragging = false; break;
    case sf::Event::MouseMoved:
        c.mouse = {e.mouseMove.x, e.mouseMove.y};
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
    r.draw(t, c.v);
    const Geometry g = frame_geometry(t.getSize(), c.tl, true);
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

void run_interactive(const Timeline& tl, const sf::Font* font, ViewState v) {
    v.interactive = true;
    sf::RenderWindow win(sf::VideoMode(1600, 900), "simt-viz: " + tl.file);
    win.setVerticalSyncEnabled(true);
    Renderer r(tl, font);
    Controller c{tl, v};
    sf::Event e;
    while (win.isOpen() && win.waitEvent(e)) {
        do {
            const Geometry g = frame_geometry(win.getSize(), tl, true);
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
