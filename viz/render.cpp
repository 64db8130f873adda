// render.cpp: one frame of the timeline view, drawn with a few sf::VertexArrays.
//
// Every warp row is binned to whole pixel columns first (timeline_view.hpp), so a
// frame costs one quad per run of equal state per row, however many intervals
// the file has. Rows outside the scrolled view are skipped. Colours are exact
// (no blending over intervals), which is what the --expect probes rely on.
// Leaves out: input and the window loop (interactive.cpp).
#include "viz/render.hpp"

#include <cmath>
#include <fstream>
#include <numeric>

namespace simt::viz {
namespace {

// The dark theme: calm greys so the state colours carry the meaning.
namespace theme {
const sf::Color kBackground(23, 25, 30);
const sf::Color kRowA(31, 34, 40);
const sf::Color kRowB(35, 38, 45);
const sf::Color kSmBand(45, 49, 58);
const sf::Color kStripBg(27, 29, 35);
const sf::Color kGrid(52, 56, 65);
const sf::Color kAxis(125, 130, 140);
const sf::Color kText(226, 229, 234);
const sf::Color kTextDim(145, 151, 162);
const sf::Color kTooltipBg(14, 15, 19, 242);
const sf::Color kTooltipEdge(96, 102, 114);
}  // namespace theme

constexpr float kMargin = 14;
constexpr float kLabelW = 150;
constexpr float kHeaderH = 88;
constexpr float kAxisH = 30;
constexpr float kHintH = 22;
constexpr float kLegendEntryW = 220;
constexpr float kLegendRowH = 20;

void add_rect(sf::VertexArray& va, float x0, float y0, float x1, float y1, sf::Color c) {
    va.append(sf::Vertex({x0, y0}, c));
    va.append(sf::Vertex({x1, y0}, c));
    va.append(sf::Vertex({x1, y1}, c));
    va.append(sf::Vertex({x0, y1}, c));
}

std::size_t states_present(const Timeline& tl) {
    std::size_t n = 0;
    for (uint64_t c : tl.state_cycles) n += c > 0;
    return n;
}

// Dark text on light colours, light text on dark ones.
sf::Color ink_for(sf::Color bg) {
    const float lum = 0.299f * bg.r + 0.587f * bg.g + 0.114f * bg.b;
    return lum > 140 ? sf::Color(20, 22, 26) : theme::kText;
}

sf::String utf8(const std::string& s) { return sf::String::fromUtf8(s.begin(), s.end()); }

// Pixel coordinates for the target's current size (a window's default view keeps its first size).
sf::View screen_view(const sf::RenderTarget& t) {
    return sf::View(sf::FloatRect(0, 0, float(t.getSize().x), float(t.getSize().y)));
}

int max_ticks(const Geometry& g) { return std::max(2, static_cast<int>(g.plot.width / 110)); }

}  // namespace

std::optional<std::string> find_font(const std::string& preferred) {
    std::vector<std::string> paths;
    if (!preferred.empty()) paths.push_back(preferred);
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",      // Debian, Ubuntu
                          "/usr/share/fonts/TTF/DejaVuSans.ttf",                   // Arch
                          "/usr/share/fonts/dejavu/DejaVuSans.ttf",                // Fedora
                          "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",     // Fedora (newer)
                          "/usr/local/share/fonts/DejaVuSans.ttf",
                          "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                          "/Library/Fonts/Arial.ttf", "/System/Library/Fonts/Supplemental/Arial.ttf"})
        paths.push_back(p);
    for (const auto& p : paths)
        if (std::ifstream(p).good()) return p;
    return std::nullopt;
}

Geometry frame_geometry(sf::Vector2u size, const Timeline& tl, bool interactive, float panel_w) {
    Geometry g;
    g.width = static_cast<float>(size.x);
    g.height = static_cast<float>(size.y);
    g.label_w = kLabelW;
    const float right = g.width - kMargin - (panel_w > 0 ? panel_w + kMargin : 0);
    const float plot_w = std::max(1.0f, right - kLabelW);
    const auto cols = std::max<std::size_t>(1, static_cast<std::size_t>(plot_w / kLegendEntryW));
    const std::size_t rows = (states_present(tl) + tl.has_lanes + cols - 1) / cols;  // + the lane key
    const float legend_h = rows * kLegendRowH + 8;
    const float hint_h = interactive ? kHintH : 0;

    g.header = {kMargin, 8, right - kMargin, kHeaderH};
    g.hint = {kMargin, g.height - hint_h, right - kMargin, hint_h};
    g.legend = {kLabelW, g.hint.top - legend_h - 4, plot_w, legend_h};
    g.axis = {kLabelW, g.legend.top - kAxisH, plot_w, kAxisH};
    const float plot_top = g.header.top + g.header.height;
    g.plot = {kLabelW, plot_top, plot_w, std::max(1.0f, g.axis.top - plot_top)};
    if (panel_w > 0) g.panel = {right + kMargin, g.header.top, panel_w, g.hint.top - 4 - g.header.top};
    return g;
}

RowLayout Renderer::layout(const ViewState& v, const Geometry& g) const {
    return layout_rows(tl_, v.sms, g.plot.height);
}

void Renderer::text(sf::RenderTarget& t, const std::string& s, float x, float y, unsigned size, sf::Color c,
                    bool right_align) {
    if (!font_) return;
    sf::Text txt(utf8(s), *font_, size);
    txt.setFillColor(c);
    if (right_align) x -= txt.getLocalBounds().width;
    txt.setPosition(std::round(x), std::round(y));
    t.draw(txt);
}

float Renderer::text_width(const std::string& s, unsigned size) const {
    if (!font_) return 0;
    return sf::Text(utf8(s), *font_, size).getLocalBounds().width;
}

// `s`, cut at a word and ended with an ellipsis if it is wider than `max_w`.
std::string Renderer::elide(const std::string& s, unsigned size, float max_w) const {
    if (text_width(s, size) <= max_w) return s;
    std::string cut = s;
    while (!cut.empty()) {
        const auto space = cut.find_last_of(' ');
        cut.resize(space == std::string::npos ? 0 : space);
        while (!cut.empty() && (cut.back() == ',' || cut.back() == ' ' || cut.back() == ':')) cut.pop_back();
        if (text_width(cut + " \u2026", size) <= max_w) return cut + " \u2026";
    }
    return "";
}

void Renderer::draw(sf::RenderTarget& target, const ViewState& v) {
    const Geometry g = frame_geometry(target.getSize(), tl_, v);
    const RowLayout L = layout(v, g);
    const WindowStats st = window_stats(tl_, L, v.from, v.to);
    target.clear(theme::kBackground);
    target.setView(screen_view(target));
    draw_header(target, g, st, v);
    draw_rows(target, g, L, st, v);
    target.setView(screen_view(target));
    draw_axis(target, g, v);
    draw_legend(target, g, st);
    if (v.source_panel && prof_ && prof_->has_source()) draw_panel(target, g, v);
    if (v.interactive)
        text(target,
             "wheel: zoom   drag: pan   shift+wheel or \u2191\u2193: scroll   0-9: one SM   [ ]: previous/next SM   "
             "A: all SMs   F: fit   C: source   L: lanes   I: image   H: help   S: save PNG   Q: quit",
             g.hint.left, g.hint.top + 2, 12, theme::kTextDim);
}

void Renderer::draw_header(sf::RenderTarget& t, const Geometry& g, const WindowStats& st, const ViewState& v) {
    const float x = g.header.left, y = g.header.top, right = g.header.left + g.header.width;
    char view[96];
    std::snprintf(view, sizeof view, "view %.0f \u2013 %.0f  (%.0f cycles)", v.from, v.to, v.to - v.from);
    text(t, view, right, y + 3, 13, theme::kTextDim, true);
    std::size_t shown = 0;
    for (const auto& w : tl_.warps) shown += sm_shown(v.sms, w.sm);
    const std::string sms = std::to_string(tl_.sms.size()) + " SMs";
    const std::string title = tl_.file + "   \u00b7   " + std::to_string(shown) + " warps on " +
                              (v.sms.empty() ? sms : std::to_string(v.sms.size()) + " of " + sms) +
                              "   \u00b7   cycles " + std::to_string(tl_.first_cycle) + " \u2013 " +
                              std::to_string(tl_.last_cycle);
    text(t, elide(title, 17, right - x - text_width(view, 13) - 24), x, y, 17, theme::kText);

    // The diagnosis, after a swatch of the colour it is about.
    sf::VertexArray swatch(sf::Quads);
    add_rect(swatch, x, y + 31, x + 12, y + 43, state_color(headline_state(st)));
    t.draw(swatch);
    text(t, elide(explain(st), 14, right - x - 20), x + 20, y + 27, 14, theme::kText);
    text(t, "warp-cycles", x, y + 59, 12, theme::kTextDim);
    draw_breakdown(t, sf::FloatRect(g.plot.left, y + 58, g.plot.width, 18), st);
}

// Where the warp-cycles of the view went: one bar, a segment per state, labelled where it fits.
void Renderer::draw_breakdown(sf::RenderTarget& t, sf::FloatRect bar, const WindowStats& st) {
    if (st.warp_cycles <= 0) return;
    sf::VertexArray quads(sf::Quads);
    struct Seg { float x0, x1; State s; };
    std::vector<Seg> segs;
    float cx = bar.left;
    for (std::size_t i = 0; i < kStateCount; ++i) {
        const float w = static_cast<float>(bar.width * st.cycles[i] / st.warp_cycles);
        if (w <= 0) continue;
        segs.push_back({cx, cx + w, static_cast<State>(i)});
        add_rect(quads, std::round(cx), bar.top, std::round(cx + w), bar.top + bar.height, state_color(segs.back().s));
        cx += w;
    }
    t.draw(quads);
    for (const Seg& sg : segs) {
        const std::string pct = percent(st.cycles[std::size_t(sg.s)] / st.warp_cycles);
        const std::string full = std::string(info(sg.s).name) + " " + pct;
        const std::string& label = text_width(full, 11) + 8 <= sg.x1 - sg.x0 ? full : pct;
        if (text_width(label, 11) + 6 <= sg.x1 - sg.x0)
            text(t, label, sg.x0 + 4, bar.top + 2, 11, ink_for(state_color(sg.s)));
    }
}

void Renderer::draw_intervals(sf::VertexArray& quads, const RowItem& it, const XMap& xm, float row_h) {
    bin_track(tl_.warps[it.warp], xm, runs_);
    const float y0 = it.y, y1 = it.y + (row_h >= 6 ? row_h - 1 : row_h);
    for (const Run& r : runs_)
        add_rect(quads, static_cast<float>(xm.x0 + r.x0), y0, static_cast<float>(xm.x0 + r.x1), y1, state_color(r.state));
}

// The lane strip: the bottom kLaneH pixels of a row, under every column where the warp
// issued, coloured by its active lanes (lane_color). Only on rows tall enough for it.
constexpr float kLaneH = 3;
constexpr float kLaneMinRow = 10;  // leaves the row's middle pixel (the probes') to the state

void Renderer::draw_lanes(sf::VertexArray& quads, const RowItem& it, const XMap& xm, float row_h) {
    bin_lanes(tl_.warps[it.warp], xm, lane_cols_);
    const float y1 = it.y + row_h - 1, y0 = y1 - kLaneH;
    for (std::size_t p = 0; p < lane_cols_.size();) {
        std::size_t q = p + 1;
        while (q < lane_cols_.size() && lane_cols_[q] == lane_cols_[p]) ++q;
        if (lane_cols_[p] > 0) {  // a dark pixel line above it sets it apart from the state colours
            add_rect(quads, static_cast<float>(xm.x0 + p), y0 - 1, static_cast<float>(xm.x0 + q), y0, theme::kBackground);
            add_rect(quads, static_cast<float>(xm.x0 + p), y0, static_cast<float>(xm.x0 + q), y1,
                     to_sf(lane_color(static_cast<uint32_t>(lane_cols_[p]))));
        }
        p = q;
    }
}

// White marks along the top of a row where the warp was at the highlighted source line.
void Renderer::draw_line_marks(sf::VertexArray& quads, const RowItem& it, const XMap& xm, std::size_t line) {
    const auto& iv = tl_.warps[it.warp].intervals;
    auto [first, last] = visible_range(iv, xm.from, xm.to);
    const auto& pcs = prof_->lines[line].pcs;
    double open_a = -1, open_b = -1;
    auto flush = [&] {
        if (open_b > open_a) add_rect(quads, std::floor(open_a), it.y, std::max(std::floor(open_a) + 1, std::round(open_b)),
                                      it.y + 2, sf::Color::White);
    };
    for (std::size_t i = first; i < last; ++i) {
        if (std::find(pcs.begin(), pcs.end(), iv[i].pc) == pcs.end()) continue;
        const double a = std::max(xm.px(std::max<double>(iv[i].start, xm.from)), xm.x0);
        const double b = std::min(xm.px(std::min<double>(iv[i].end, xm.to)), xm.x0 + xm.width);
        if (a <= open_b + 1) {
            open_b = std::max(open_b, b);
        } else {
            flush();
            open_a = a, open_b = b;
        }
    }
    flush();
}

void Renderer::draw_strip(sf::VertexArray& quads, const RowItem& it, const Group& grp, const XMap& xm) {
    issue_density(tl_, grp, xm.from, xm.to, bucket_cycles(xm), density_);
    const float base = it.y + it.h - 3, full = it.h - 5;
    const float left = static_cast<float>(xm.x0), right = static_cast<float>(xm.x0 + xm.width);
    const sf::Color c = state_color(State::Selected);
    for (std::size_t k = 0; k < density_.rate.size(); ++k) {
        const float h = std::round(density_.rate[k] * full);
        const float x0 = std::max(left, std::round(static_cast<float>(xm.px(density_.start(k)))));
        const float x1 = std::min(right, std::round(static_cast<float>(xm.px(density_.start(k + 1)))));
        if (h > 0 && x1 > x0) add_rect(quads, x0, base - h, x1, base, c);
    }
}

// One row item's quads and labels, added to the batch.
void Renderer::add_item(RowBatch& b, const RowItem& it, const RowLayout& L, const WindowStats& st, const XMap& xm,
                        const Geometry& g, std::size_t row_index) {
    const float left = g.plot.left, right = g.plot.left + g.plot.width;
    const Group& grp = L.groups[it.group];
    switch (it.kind) {
    case RowItem::SmHeader: {
        add_rect(b.back, kMargin, it.y + 2, right, it.y + it.h - 2, theme::kSmBand);
        std::size_t warps = 0, parts = 0;
        for (const Group& other : L.groups)
            if (other.sm == it.sm) warps += other.warps.size(), ++parts;
        b.labels.push_back({"SM " + std::to_string(it.sm), kMargin + 6, it.y + 3, 14, theme::kText, false});
        b.labels.push_back({std::to_string(warps) + " warps, " + std::to_string(parts) + " sub-partitions", left + 6,
                            it.y + 5, 11, theme::kTextDim, false});
        break;
    }
    case RowItem::IssueStrip:
        add_rect(b.back, left, it.y + 1, right, it.y + it.h - 1, theme::kStripBg);
        draw_strip(b.fore, it, grp, xm);
        b.labels.push_back({"SP " + std::to_string(grp.sub_partition), kMargin + 12, it.y + 2, 12, theme::kText, false});
        b.labels.push_back({"issue " + percent(st.issue_rate[it.group]), g.label_w - 8, it.y + 3, 11,
                            state_color(State::Selected), true});
        break;
    case RowItem::WarpRow:
        add_rect(b.back, left, it.y, right, it.y + it.h, row_index % 2 ? theme::kRowA : theme::kRowB);
        draw_intervals(b.fore, it, xm, L.row_h);
        if (v_->lanes && tl_.has_lanes && L.row_h >= kLaneMinRow) draw_lanes(b.fore, it, xm, L.row_h);
        if (v_->highlight_line && prof_ && *v_->highlight_line < prof_->lines.size())
            draw_line_marks(b.fore, it, xm, *v_->highlight_line);
        if (L.row_h >= 11) {
            const WarpTrack& w = tl_.warps[it.warp];
            b.labels.push_back({"w" + std::to_string(w.warp) + "  b" + std::to_string(w.block), g.label_w - 8,
                                it.y + (L.row_h - 13) / 2 - 1, std::min(11u, unsigned(L.row_h) - 2), theme::kTextDim,
                                true});
        }
        break;
    }
}

void Renderer::draw_rows(sf::RenderTarget& t, const Geometry& g, const RowLayout& L, const WindowStats& st,
                         const ViewState& v) {
    // A view that shows content rows [scroll, scroll + plot height) in the plot's band: it clips for free.
    sf::View band(sf::FloatRect(0, v.scroll, g.width, g.plot.height));
    band.setViewport(sf::FloatRect(0, g.plot.top / g.height, 1, g.plot.height / g.height));
    t.setView(band);

    const XMap xm = g.xmap(v);
    v_ = &v;
    RowBatch b;
    std::size_t row_index = 0;
    for (const RowItem& it : L.items) {
        row_index += it.kind == RowItem::WarpRow;
        if (it.y + it.h >= v.scroll && it.y <= v.scroll + g.plot.height) add_item(b, it, L, st, xm, g, row_index);
    }
    for (double c : nice_ticks(v.from, v.to, max_ticks(g))) {
        const float x = std::round(static_cast<float>(xm.px(c)));
        add_rect(b.grid, x, v.scroll, x + 1, v.scroll + g.plot.height, theme::kGrid);
    }
    t.draw(b.back);
    t.draw(b.grid);  // under the intervals: grid lines show only in empty space
    t.draw(b.fore);
    for (const RowBatch::Label& l : b.labels) text(t, l.s, l.x, l.y, l.size, l.c, l.right);

    if (L.content_h > g.plot.height) {  // a scroll bar says there is more below
        t.setView(screen_view(t));
        sf::VertexArray bar(sf::Quads);
        const float y0 = g.plot.top + g.plot.height * (v.scroll / L.content_h);
        add_rect(bar, g.width - 8, y0, g.width - 4, y0 + std::max(12.0f, g.plot.height * g.plot.height / L.content_h),
                 theme::kAxis);
        t.draw(bar);
    }
}

void Renderer::draw_axis(sf::RenderTarget& t, const Geometry& g, const ViewState& v) {
    const XMap xm = g.xmap(v);
    sf::VertexArray quads(sf::Quads);
    const float y = g.axis.top;
    add_rect(quads, g.plot.left, y, g.plot.left + g.plot.width, y + 1, theme::kAxis);
    double step = 1;
    const auto ticks = nice_ticks(v.from, v.to, max_ticks(g), &step);
    for (double c : ticks) {
        const float x = std::round(static_cast<float>(xm.px(c)));
        add_rect(quads, x, y, x + 1, y + 6, theme::kAxis);
    }
    t.draw(quads);
    for (double c : ticks) {
        const std::string s = format_cycle(c, step);
        const float x = static_cast<float>(xm.px(c)) - text_width(s, 12) / 2;
        text(t, s, std::clamp(x, g.plot.left, g.plot.left + g.plot.width - text_width(s, 12)), y + 8, 12,
             theme::kTextDim);
    }
    text(t, "cycle", g.label_w - 8, y + 8, 12, theme::kTextDim, true);
}

void Renderer::draw_legend(sf::RenderTarget& t, const Geometry& g, const WindowStats& st) {
    const auto cols = std::max<std::size_t>(1, static_cast<std::size_t>(g.legend.width / kLegendEntryW));
    sf::VertexArray quads(sf::Quads);
    std::size_t k = 0;
    text(t, "state", g.label_w - 8, g.legend.top + 6, 12, theme::kTextDim, true);
    for (std::size_t i = 0; i < kStateCount; ++i) {
        if (tl_.state_cycles[i] == 0) continue;
        const float x = g.legend.left + (k % cols) * kLegendEntryW;
        const float y = g.legend.top + 8 + (k / cols) * kLegendRowH;
        add_rect(quads, x, y + 1, x + 14, y + 15, to_sf(kStates[i].color));
        const std::string name(kStates[i].name);
        text(t, name, x + 20, y - 1, 13, theme::kText);
        const std::string pct = st.warp_cycles > 0 ? percent(st.cycles[i] / st.warp_cycles) : "";
        text(t, pct, x + 28 + text_width(name, 13), y, 12, theme::kTextDim);
        ++k;
    }
    if (tl_.has_lanes && v_ && v_->lanes) {  // the lane strip's key: 32, 24, 16, 8, 1 active lanes
        const float x = g.legend.left + (k % cols) * kLegendEntryW;
        const float y = g.legend.top + 8 + (k / cols) * kLegendRowH;
        float cx = x;
        for (uint32_t n : {32u, 24u, 16u, 8u, 1u}) {
            add_rect(quads, cx, y + 5, cx + 14, y + 10, to_sf(lane_color(n)));
            cx += 16;
        }
        text(t, "lanes 32 \u2192 1", cx + 4, y - 1, 13, theme::kText);
    }
    t.draw(quads);
}

void Renderer::draw_tooltip(sf::RenderTarget& t, const TipLines& all_lines, sf::Vector2f at) {
    TipLines kept;
    for (const TipLine& l : all_lines)
        if (!l.text.empty()) kept.push_back(l);
    if (!font_ || kept.empty()) return;
    const TipLines& lines = kept;
    const unsigned size = 13;
    const float line_h = 19, pad = 9, sw = 18;  // sw: room for a state swatch
    float w = 0;
    for (const TipLine& l : lines) w = std::max(w, text_width(l.text, size) + (l.swatch ? sw : 0));
    const float bw = std::ceil(w + 2 * pad), bh = lines.size() * line_h + 2 * pad - 4;
    const sf::Vector2u size_px = t.getSize();
    float x = at.x + 16, y = at.y + 18;  // below right of the pointer, flipped at the edges
    if (x + bw > size_px.x) x = at.x - 16 - bw;
    if (y + bh > size_px.y) y = at.y - 12 - bh;
    x = std::round(std::max(2.0f, x)), y = std::round(std::max(2.0f, y));
    sf::VertexArray quads(sf::Quads);
    add_rect(quads, x - 1, y - 1, x + bw + 1, y + bh + 1, theme::kTooltipEdge);
    add_rect(quads, x, y, x + bw, y + bh, theme::kTooltipBg);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].swatch) {
            const float ly = y + pad + i * line_h;
            add_rect(quads, x + pad, ly + 3, x + pad + 12, ly + 15, state_color(*lines[i].swatch));
        }
    t.draw(quads);
    for (std::size_t i = 0; i < lines.size(); ++i)
        text(t, lines[i].text, x + pad + (lines[i].swatch ? sw : 0), y + pad + i * line_h - 1, size,
             lines[i].dim ? theme::kTextDim : theme::kText);
}

std::string Renderer::source_of(uint64_t pc) const {
    if (!prof_) return "";
    const SourceLine* l = prof_->line_at(pc);
    return l ? "line " + std::to_string(l->line) + ":  " + l->text : "";
}

TipLines Renderer::hover(const ViewState& v, const Geometry& g, sf::Vector2i mouse) const {
    const sf::Vector2f m(mouse);
    if (!g.plot.contains(m)) return {};
    const RowLayout L = layout(v, g);
    const RowItem* it = item_at(L, m.y - g.plot.top + v.scroll);
    if (!it) return {};
    const XMap xm = g.xmap(v);
    const double cycle = std::floor(xm.cycle_at(m.x));
    if (it->kind == RowItem::WarpRow) {
        const WarpTrack& w = tl_.warps[it->warp];
        const Interval* iv = interval_at(w, cycle);
        std::string who = "warp " + std::to_string(w.warp) + "  \u00b7  block " + std::to_string(w.block) +
                          "  \u00b7  SM " + std::to_string(w.sm) + "  \u00b7  SP " + std::to_string(w.sub_partition);
        if (!iv) return {{who}, {"not resident at cycle " + std::to_string(static_cast<int64_t>(cycle))}};
        char pc[32];
        std::snprintf(pc, sizeof pc, "0x%04llx", static_cast<unsigned long long>(iv->pc));
        return {{who},
                {std::string(info(iv->state).name), iv->state},
                {"cycles " + std::to_string(iv->start) + " \u2013 " + std::to_string(iv->end) + "  (" +
                 std::to_string(iv->end - iv->start) + " cycles)   pc " + std::to_string(iv->pc) + " (" + pc + ")"},
                {std::string(info(iv->state).meaning), std::nullopt, true},
                {iv->lanes ? std::to_string(iv->lanes) + " of 32 lanes active" : std::string(), std::nullopt, true},
                {source_of(iv->pc), std::nullopt, true}};
    }
    if (it->kind == RowItem::IssueStrip) {
        const Group& grp = L.groups[it->group];
        IssueBuckets d;
        issue_density(tl_, grp, xm.from, xm.to, bucket_cycles(xm), d);
        const auto k = static_cast<int64_t>(std::floor(xm.cycle_at(m.x) / d.bucket)) - d.first;
        if (k < 0 || k >= static_cast<int64_t>(d.rate.size())) return {};
        char buf[160];
        std::snprintf(buf, sizeof buf, "issued in %.0f%% of cycles %.0f \u2013 %.0f", 100.0 * d.rate[k], d.start(k),
                      d.start(k + 1));
        return {{"SM " + std::to_string(grp.sm) + "  \u00b7  SP " + std::to_string(grp.sub_partition) +
                 ": scheduler issue density"},
                {buf, State::Selected},
                {"bar height = share of cycles in which this scheduler issued an instruction", std::nullopt, true}};
    }
    return {};
}

void Renderer::draw_hover(sf::RenderTarget& t, const ViewState& v, sf::Vector2i mouse) {
    const Geometry g = frame_geometry(t.getSize(), tl_, v);
    if (!g.plot.contains(sf::Vector2f(mouse))) return;
    sf::VertexArray line(sf::Quads);
    add_rect(line, float(mouse.x), g.plot.top, float(mouse.x) + 1, g.plot.top + g.plot.height, sf::Color(255, 255, 255, 70));
    t.draw(line);
    draw_tooltip(t, hover(v, g, mouse), sf::Vector2f(mouse));
}

std::optional<sf::Vector2i> Renderer::probe_pixel(const ViewState& v, const Geometry& g, std::size_t warp_index,
                                                  double cycle) const {
    const RowLayout L = layout(v, g);
    for (const RowItem& it : L.items) {
        if (it.kind != RowItem::WarpRow || it.warp != warp_index) continue;
        const float y = g.plot.top + it.y - v.scroll + std::floor((L.row_h - 1) / 2);
        const double x = std::floor(g.xmap(v).px(cycle + 0.5));
        if (y < g.plot.top || y >= g.plot.top + g.plot.height || x < g.plot.left || x >= g.plot.left + g.plot.width)
            return std::nullopt;
        return sf::Vector2i(static_cast<int>(x), static_cast<int>(y));
    }
    return std::nullopt;
}

std::optional<sf::Vector2i> Renderer::probe_lane_pixel(const ViewState& v, const Geometry& g, std::size_t warp_index,
                                                       double cycle) const {
    const RowLayout L = layout(v, g);
    if (L.row_h < kLaneMinRow) return std::nullopt;
    auto mid = probe_pixel(v, g, warp_index, cycle);
    if (!mid) return std::nullopt;
    for (const RowItem& it : L.items)
        if (it.kind == RowItem::WarpRow && it.warp == warp_index)
            return sf::Vector2i(mid->x, static_cast<int>(g.plot.top + it.y - v.scroll + L.row_h - 1 - kLaneH + 1));
    return std::nullopt;
}

std::optional<std::size_t> Renderer::row_line_at(const ViewState& v, const Geometry& g, sf::Vector2i mouse) const {
    if (!prof_ || !g.plot.contains(sf::Vector2f(mouse))) return std::nullopt;
    const RowLayout L = layout(v, g);
    const RowItem* it = item_at(L, mouse.y - g.plot.top + v.scroll);
    if (!it || it->kind != RowItem::WarpRow) return std::nullopt;
    const Interval* iv = interval_at(tl_.warps[it->warp], std::floor(g.xmap(v).cycle_at(mouse.x)));
    if (!iv) return std::nullopt;
    auto found = prof_->line_of_pc.find(iv->pc);
    if (found == prof_->line_of_pc.end()) return std::nullopt;
    return found->second;
}

// ---- the source view -------------------------------------------------------------

PanelLayout panel_layout(const Profile& p, const Geometry& g, const ViewState& v) {
    PanelLayout L;
    std::vector<std::size_t> order(p.lines.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    if (v.sort_by_cost)
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return p.lines[a].total() > p.lines[b].total(); });
    L.total_rows = order.size();
    const float top = g.panel.top + 44, bottom = g.panel.top + g.panel.height;
    const float bar_x = g.panel.left + 150, bar_w = g.panel.width - 160;
    const auto skip = static_cast<std::size_t>(std::max(0.0f, v.panel_scroll) / L.row_h);
    for (std::size_t k = skip; k < order.size(); ++k) {
        const float y = top + (k - skip) * L.row_h;
        if (y + L.row_h > bottom) break;
        L.rows.push_back({order[k], y, sf::FloatRect(bar_x, y + 19, bar_w, 10)});
    }
    return L;
}

// The costliest line fills the bar; the others are to scale.
namespace {
uint64_t max_line_total(const Profile& p) {
    uint64_t m = 1;
    for (const SourceLine& l : p.lines) m = std::max(m, l.total());
    return m;
}
}  // namespace

std::pair<float, float> panel_segment(const SourceLine& l, const sf::FloatRect& bar, State s, uint64_t max_total) {
    double cx = bar.left;
    for (std::size_t i = 0; i < kStateCount; ++i) {
        const double w = bar.width * double(l.cycles[i]) / double(max_total);
        if (static_cast<State>(i) == s) return {std::round(float(cx)), std::round(float(cx + w))};
        cx += w;
    }
    return {0, 0};
}

std::optional<std::size_t> Renderer::panel_line_at(const ViewState& v, const Geometry& g, sf::Vector2i mouse) const {
    if (!prof_ || !v.source_panel || !g.panel.contains(sf::Vector2f(mouse))) return std::nullopt;
    for (const PanelRow& r : panel_layout(*prof_, g, v).rows)
        if (mouse.y >= r.y && mouse.y < r.y + 34) return r.line;
    return std::nullopt;
}

void Renderer::draw_panel(sf::RenderTarget& t, const Geometry& g, const ViewState& v) {
    const PanelLayout L = panel_layout(*prof_, g, v);
    const uint64_t max_total = max_line_total(*prof_);
    sf::VertexArray back(sf::Quads), fore(sf::Quads);
    add_rect(back, g.panel.left, g.panel.top, g.panel.left + g.panel.width, g.panel.top + g.panel.height, theme::kStripBg);
    for (const PanelRow& r : L.rows) {
        const bool hi = v.highlight_line == r.line, hov = v.hover_line == r.line;
        if (hi || hov)
            add_rect(back, g.panel.left + 2, r.y, g.panel.left + g.panel.width - 2, r.y + L.row_h - 2,
                     hi ? sf::Color(70, 76, 92) : theme::kSmBand);
        const SourceLine& l = prof_->lines[r.line];
        for (std::size_t i = 0; i < kStateCount; ++i) {
            auto [x0, x1] = panel_segment(l, r.bar, static_cast<State>(i), max_total);
            if (x1 > x0) add_rect(fore, x0, r.bar.top, x1, r.bar.top + r.bar.height, to_sf(kStates[i].color));
        }
    }
    t.draw(back);
    t.draw(fore);
    const float x = g.panel.left + 8;
    text(t, std::string("Source  \u00b7  ") + (v.sort_by_cost ? "by cost" : "in source order") + "  \u00b7  " +
                std::to_string(L.total_rows) + " lines",
         x, g.panel.top + 4, 15, theme::kText);
    text(t, "line  issued  lanes    warp cycles at the line, by state (longest bar = costliest line)", x,
         g.panel.top + 25, 11, theme::kTextDim);
    for (const PanelRow& r : L.rows) {
        const SourceLine& l = prof_->lines[r.line];
        char stats[64];
        std::snprintf(stats, sizeof stats, "%llu", static_cast<unsigned long long>(l.issued));
        text(t, std::to_string(l.line), x + 28, r.y + 1, 12, theme::kTextDim, true);
        text(t, elide(l.text, 12, g.panel.width - 60), x + 38, r.y + 1, 12, theme::kText);
        text(t, stats, x + 80, r.y + 17, 11, theme::kTextDim, true);
        std::snprintf(stats, sizeof stats, "%.1f", l.lanes());
        text(t, stats, x + 126, r.y + 17, 11, l.lanes() < 31.95 && l.issued ? to_sf(lane_color(uint32_t(l.lanes()))) : theme::kTextDim,
             true);
    }
}

unsigned fitted_height(const Timeline& tl, const ViewState& v, unsigned width, unsigned max_h, std::size_t panel_rows) {
    const Geometry g = frame_geometry({width, max_h}, tl, v);
    const RowLayout L = layout_rows(tl, v.sms, g.plot.height);
    float spare = std::max(0.0f, g.plot.height - L.content_h);
    if (v.source_panel) {  // room for the source view's rows too
        const float panel_need = 44 + 34.0f * panel_rows + 8;
        spare = std::min(spare, std::max(0.0f, g.panel.height - panel_need));
    }
    return std::max(240u, static_cast<unsigned>(max_h - std::floor(spare)));
}

void render_png(const Timeline& tl, const sf::Font* font, const ViewState& v, sf::Vector2u size,
                const std::string& path, std::optional<sf::Vector2i> hover, const Profile* prof) {
    const unsigned max = sf::Texture::getMaximumSize();
    if (size.x > max || size.y > max)
        throw Error("--width/--height: this GPU's largest texture is " + std::to_string(max) + " pixels");
    sf::RenderTexture rt;
    if (!rt.create(size.x, size.y)) throw Error("cannot create an off-screen " + std::to_string(size.x) + "x" +
                                                std::to_string(size.y) + " texture");
    Renderer r(tl, font, prof);
    r.draw(rt, v);
    if (hover) r.draw_hover(rt, v, *hover);
    rt.display();
    if (!rt.getTexture().copyToImage().saveToFile(path)) throw Error(SourceLoc{path, 0, 0}, "cannot write the PNG");
}

}  // namespace simt::viz
