// compare_render.cpp: the A/B picture (see compare_render.hpp).
#include "viz/compare_render.hpp"

#include <cmath>
#include <numeric>

namespace simt::viz {
namespace {

const sf::Color kBackground(23, 25, 30), kText(226, 229, 234), kDim(145, 151, 162), kRule(60, 64, 74);

void label(sf::RenderTarget& t, const sf::Font* font, const std::string& s, float x, float y, unsigned size, sf::Color c) {
    if (!font) return;
    sf::Text txt(sf::String::fromUtf8(s.begin(), s.end()), *font, size);
    txt.setFillColor(c);
    txt.setPosition(std::round(x), std::round(y));
    t.draw(txt);
}

uint64_t total(const Timeline& tl) { return std::accumulate(tl.state_cycles.begin(), tl.state_cycles.end(), uint64_t(0)); }

// A breakdown bar of warp-cycles by state, `scale` pixels per warp-cycle.
void bar(sf::VertexArray& q, const Timeline& tl, float x, float y, float h, double scale) {
    double cx = x;
    for (std::size_t i = 0; i < kStateCount; ++i) {
        const double w = tl.state_cycles[i] * scale;
        if (w <= 0) continue;
        const sf::Color c = to_sf(kStates[i].color);
        const float x0 = std::round(float(cx)), x1 = std::round(float(cx + w));
        q.append(sf::Vertex({x0, y}, c)), q.append(sf::Vertex({x1, y}, c));
        q.append(sf::Vertex({x1, y + h}, c)), q.append(sf::Vertex({x0, y + h}, c));
        cx += w;
    }
}

std::string fmt_ratio(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f\u00d7", r);
    return buf;
}

}  // namespace

std::string compare_summary(const Profile& a, const Profile& b) {
    const double ca = std::max<double>(1, a.tl.last_cycle - a.tl.first_cycle);
    const double cb = std::max<double>(1, b.tl.last_cycle - b.tl.first_cycle);
    std::string s = "B/A: " + fmt_ratio(cb / ca) + " cycles, " +
                    fmt_ratio(double(total(b.tl)) / std::max<double>(1, double(total(a.tl)))) + " warp-cycles";
    std::vector<std::pair<double, std::size_t>> change;
    for (std::size_t i = 0; i < kStateCount; ++i)
        change.push_back({double(b.tl.state_cycles[i]) - double(a.tl.state_cycles[i]), i});
    std::stable_sort(change.begin(), change.end(),
                     [](const auto& x, const auto& y) { return std::fabs(x.first) > std::fabs(y.first); });
    s += ";  biggest changes in warp-cycles:";
    for (std::size_t k = 0; k < 3 && k < change.size() && change[k].first != 0; ++k) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " %s %+.0f", std::string(kStates[change[k].second].name).c_str(), change[k].first);
        s += buf;
    }
    return s;
}

CompareLayout compare_layout(const Profile& a, const Profile& b, const ViewState& v, sf::Vector2u size) {
    CompareLayout L;
    L.size.x = size.x;
    if (size.y) {
        const unsigned each = std::max(240u, static_cast<unsigned>((size.y - L.header_h) / 2));
        L.a_size = L.b_size = {size.x, each};
    } else {
        L.a_size = {size.x, fitted_height(a.tl, v, size.x, 600)};
        L.b_size = {size.x, fitted_height(b.tl, v, size.x, 600)};
    }
    L.a_top = L.header_h;
    L.b_top = L.header_h + L.a_size.y;
    L.size.y = static_cast<unsigned>(L.b_top) + L.b_size.y;
    return L;
}

void draw_compare(sf::RenderTarget& t, const Profile& a, const Profile& b, const sf::Font* font, const ViewState& v,
                  const CompareLayout& L) {
    sf::RenderTexture part;
    auto frame = [&](const Profile& p, sf::Vector2u size, float top) {
        part.create(size.x, size.y);
        Renderer r(p.tl, font, &p);
        r.draw(part, v);
        part.display();
        sf::Sprite s(part.getTexture());
        s.setPosition(0, top);
        t.setView(sf::View(sf::FloatRect(0, 0, float(t.getSize().x), float(t.getSize().y))));
        t.draw(s);
    };
    t.setView(sf::View(sf::FloatRect(0, 0, float(t.getSize().x), float(t.getSize().y))));
    t.clear(kBackground);
    frame(a, L.a_size, L.a_top);
    frame(b, L.b_size, L.b_top);

    // The header: both breakdowns to one scale, and the summary.
    const float x = 14, bx = 150, bw = L.size.x - bx - 14;
    const double scale = bw / std::max<double>(1, double(std::max(total(a.tl), total(b.tl))));
    sf::VertexArray q(sf::Quads);
    bar(q, a.tl, bx, 40, 18, scale);
    bar(q, b.tl, bx, 64, 18, scale);
    const sf::Color rule = kRule;
    for (float y : {L.header_h - 2, L.b_top - 1}) {
        q.append(sf::Vertex({0, y}, rule)), q.append(sf::Vertex({float(L.size.x), y}, rule));
        q.append(sf::Vertex({float(L.size.x), y + 2}, rule)), q.append(sf::Vertex({0, y + 2}, rule));
    }
    t.draw(q);
    label(t, font, "A/B   A = " + a.name + "   \u00b7   B = " + b.name, x, 8, 16, kText);
    label(t, font, "A warp-cycles", x, 41, 12, kDim);
    label(t, font, "B warp-cycles", x, 65, 12, kDim);
    label(t, font, compare_summary(a, b) + "   (bars to one scale; both timelines show the same cycles)", x, 88, 12, kDim);
}

void render_compare_png(const Profile& a, const Profile& b, const sf::Font* font, const ViewState& v,
                        const CompareLayout& L, const std::string& path) {
    sf::RenderTexture rt;
    if (!rt.create(L.size.x, L.size.y)) throw Error("cannot create an off-screen texture");
    draw_compare(rt, a, b, font, v, L);
    rt.display();
    if (!rt.getTexture().copyToImage().saveToFile(path)) throw Error(SourceLoc{path, 0, 0}, "cannot write the PNG");
}

}  // namespace simt::viz
