// image_render.cpp: draws the cost image (image.hpp): the launch's pixels (or blocks)
// scaled up with nearest-neighbour sampling so each cell is an exact colour, the
// warp tiles outlined when a cell is at least 4 screen pixels, a title, and a
// colour scale. Leaves out: the maths (image.hpp), input (interactive.cpp).
#include "viz/image_render.hpp"

#include <cmath>

namespace simt::viz {
namespace {

const sf::Color kBackground(23, 25, 30), kText(226, 229, 234), kDim(145, 151, 162), kOutline(15, 16, 20);
constexpr float kTop = 64, kMargin = 14, kScaleH = 54;

void label(sf::RenderTarget& t, const sf::Font* font, const std::string& s, float x, float y, unsigned size,
           sf::Color c, bool right = false) {
    if (!font) return;
    sf::Text txt(sf::String::fromUtf8(s.begin(), s.end()), *font, size);
    txt.setFillColor(c);
    if (right) x -= txt.getLocalBounds().width;
    txt.setPosition(std::round(x), std::round(y));
    t.draw(txt);
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.2f", v);
    return buf;
}

std::string value_text(const CostImage& im, double v) {
    switch (im.metric) {
    case ImageMetric::Cycles: return number(v) + " warp cycles";
    case ImageMetric::Issued: return number(v) + " instructions issued";
    case ImageMetric::Lanes: return number(v) + " active lanes per instruction";
    case ImageMetric::Divergence: return number(100 * v) + " % of instructions divergent";
    case ImageMetric::Path:
        return im.fragment ? (v > 0 ? "its lane executed " : "its lane did not execute ") + im.about
                           : number(100 * v) + " % of its lanes executed " + im.about;
    }
    return "";
}

}  // namespace

ImageGeometry image_geometry(sf::Vector2u size, const CostImage& im) {
    ImageGeometry g;
    const float avail_w = size.x - 2 * kMargin, avail_h = size.y - kTop - kScaleH - kMargin;
    float s = std::min(avail_w / im.w, avail_h / im.h);
    if (s >= 1) s = std::floor(s);  // whole screen pixels per cell when it fits
    g.scale = std::max(s, 1e-3f);
    g.x0 = std::round(kMargin + (avail_w - im.w * g.scale) / 2);
    g.y0 = kTop;
    return g;
}

std::optional<sf::Vector2i> image_probe_pixel(const ImageGeometry& g, const CostImage& im, uint32_t x, uint32_t y) {
    if (x >= im.w || y >= im.h || g.scale < 1) return std::nullopt;
    return sf::Vector2i(static_cast<int>(g.x0 + x * g.scale + std::floor(g.scale / 2)),
                        static_cast<int>(g.y0 + y * g.scale + std::floor(g.scale / 2)));
}

std::optional<std::pair<uint32_t, uint32_t>> image_cell_at(const ImageGeometry& g, const CostImage& im, sf::Vector2i m) {
    const double x = (m.x - g.x0) / g.scale, y = (m.y - g.y0) / g.scale;
    if (x < 0 || y < 0 || x >= im.w || y >= im.h) return std::nullopt;
    return std::make_pair(static_cast<uint32_t>(x), static_cast<uint32_t>(y));
}

void draw_image(sf::RenderTarget& t, const CostImage& im, const Profile& p, const sf::Font* font,
                std::optional<sf::Vector2i> hover) {
    t.setView(sf::View(sf::FloatRect(0, 0, float(t.getSize().x), float(t.getSize().y))));
    t.clear(kBackground);
    const ImageGeometry g = image_geometry(t.getSize(), im);
    sf::Image cells;
    cells.create(im.w, im.h, kBackground);
    for (uint32_t y = 0; y < im.h; ++y)
        for (uint32_t x = 0; x < im.w; ++x)
            if (!std::isnan(im.at(x, y))) cells.setPixel(x, y, to_sf(cost_color(im, im.at(x, y))));
    sf::Texture tex;
    tex.loadFromImage(cells);
    tex.setSmooth(false);
    sf::Sprite sprite(tex);
    sprite.setPosition(g.x0, g.y0);
    sprite.setScale(g.scale, g.scale);
    t.draw(sprite);

    // Tile (warp) or block outlines, zoomed in enough to leave each cell's middle untouched.
    if (g.scale >= 4) {  // fragment: the warps' tiles; compute: the blocks
        sf::VertexArray lines(sf::Quads);
        auto rect = [&](float x0, float y0, float x1, float y1) {
            lines.append(sf::Vertex({x0, y0}, kOutline)), lines.append(sf::Vertex({x1, y0}, kOutline));
            lines.append(sf::Vertex({x1, y1}, kOutline)), lines.append(sf::Vertex({x0, y1}, kOutline));
        };
        const float right = g.x0 + im.w * g.scale, bottom = g.y0 + im.h * g.scale;
        for (uint32_t x = 0; x <= im.w; x += im.tile_w) rect(g.x0 + x * g.scale, g.y0, g.x0 + x * g.scale + 1, bottom);
        for (uint32_t y = 0; y <= im.h; y += im.tile_h) rect(g.x0, g.y0 + y * g.scale, right, g.y0 + y * g.scale + 1);
        t.draw(lines);
    }

    const std::string what = im.fragment ? "fragment " + std::to_string(im.w) + "\u00d7" + std::to_string(im.h) +
                                               " px, one warp per " + std::to_string(im.tile_w) + "\u00d7" +
                                               std::to_string(im.tile_h) + " tile"
                                         : "compute grid " + std::to_string(im.w) + "\u00d7" + std::to_string(im.h) +
                                               " blocks";
    label(t, font, p.name + "   \u00b7   " + what, kMargin, 8, 17, kText);
    static const char* kMeaning[] = {
        "colour = warp cycles resident (every state): where the time went",
        "colour = instructions issued by the warp (block): where the work went",
        "colour = mean active lanes per issued instruction: slate = all 32, white = 16, red = few",
        "colour = share of issued instructions with fewer than 32 active lanes: dark = none (no divergence)",
        "bright = the pixel's lane executed the line, dark = it did not:"};
    label(t, font, std::string("image: ") + std::string(kImageMetricNames[int(im.metric)]) + "   " +
                       kMeaning[int(im.metric)] + (im.about.empty() ? std::string() : " " + im.about),
          kMargin, 34, 14, kDim);

    // The colour scale.
    const float sy = t.getSize().y - kScaleH + 10, sx = kMargin + 90, sw = std::min(360.0f, t.getSize().x * 0.35f);
    sf::VertexArray scale(sf::Quads);
    const bool share = im.metric == ImageMetric::Divergence || im.metric == ImageMetric::Path;
    const double lo = 0, hi = im.metric == ImageMetric::Lanes ? 32 : share ? 1 : im.max;
    for (int i = 0; i < 64; ++i) {
        const sf::Color c = to_sf(cost_color(im, lo + (hi - lo) * (i + 0.5) / 64));
        const float x0 = sx + sw * i / 64, x1 = sx + sw * (i + 1) / 64;
        scale.append(sf::Vertex({x0, sy}, c)), scale.append(sf::Vertex({x1, sy}, c));
        scale.append(sf::Vertex({x1, sy + 14}, c)), scale.append(sf::Vertex({x0, sy + 14}, c));
    }
    t.draw(scale);
    label(t, font, "scale", sx - 10, sy - 1, 12, kDim, true);
    label(t, font, share ? "0 %" : number(lo), sx, sy + 16, 11, kDim);
    label(t, font, share ? "100 %" : number(hi), sx + sw, sy + 16, 11, kDim, true);

    if (hover) {
        if (auto cell = image_cell_at(g, im, *hover)) {
            const double v = im.at(cell->first, cell->second);
            const int64_t unit = im.unit_of_cell[std::size_t(cell->second) * im.w + cell->first];
            std::string s = (im.fragment ? "pixel (" : "block (") + std::to_string(cell->first) + ", " +
                            std::to_string(cell->second) + ")";
            if (unit >= 0) s += im.fragment ? "  \u00b7  warp " + std::to_string(unit) : "";
            s += "  \u00b7  " + (std::isnan(v) ? std::string("no warp") : value_text(im, v));
            label(t, font, s, t.getSize().x - kMargin, sy, 13, kText, true);
        }
    }
}

}  // namespace simt::viz
