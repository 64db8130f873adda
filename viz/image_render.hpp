// image_render.hpp: drawing the per-pixel / per-block cost image (image.hpp) with SFML.
#pragma once

#include "viz/image.hpp"
#include "viz/render.hpp"

namespace simt::viz {

struct ImageGeometry {
    float x0 = 0, y0 = 0;  // target pixel of cell (0, 0)'s corner
    float scale = 1;       // target pixels per cell
};
ImageGeometry image_geometry(sf::Vector2u size, const CostImage& im);
// The target pixel in the middle of cell (x, y); nullopt when cells are under a pixel.
std::optional<sf::Vector2i> image_probe_pixel(const ImageGeometry& g, const CostImage& im, uint32_t x, uint32_t y);
std::optional<std::pair<uint32_t, uint32_t>> image_cell_at(const ImageGeometry& g, const CostImage& im, sf::Vector2i m);
// The whole frame: title, the image, tile outlines, the colour scale, and the value under `hover`.
void draw_image(sf::RenderTarget& t, const CostImage& im, const Profile& p, const sf::Font* font,
                std::optional<sf::Vector2i> hover = std::nullopt);

}  // namespace simt::viz
