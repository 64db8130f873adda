// compare_render.hpp: two runs one above the other (simt-viz A B), on a common time
// axis: a header with both runs' warp-cycle breakdowns drawn to one scale (so the
// bar lengths compare the total warp-cycles) and the states that changed most, then
// run A's timeline frame, then run B's, both for the same cycles.
// Leaves out: per-warp matching between runs (the warps of two runs need not correspond).
#pragma once

#include "viz/render.hpp"

namespace simt::viz {

struct CompareLayout {
    sf::Vector2u size;             // the whole picture
    sf::Vector2u a_size, b_size;   // each run's frame
    float a_top = 0, b_top = 0;    // where each frame starts
    float header_h = 112;
};
// `size.y == 0`: each frame fits its rows (at most 600 pixels).
CompareLayout compare_layout(const Profile& a, const Profile& b, const ViewState& v, sf::Vector2u size);
void draw_compare(sf::RenderTarget& t, const Profile& a, const Profile& b, const sf::Font* font, const ViewState& v,
                  const CompareLayout& L);
void render_compare_png(const Profile& a, const Profile& b, const sf::Font* font, const ViewState& v,
                        const CompareLayout& L, const std::string& path);
// The one-line summary of the difference, e.g. "B/A: 0.52x cycles; math_pipe_throttle -48% ...".
std::string compare_summary(const Profile& a, const Profile& b);

}  // namespace simt::viz
