// render.hpp: draws one frame of the timeline view onto any SFML render target
// (the window, or an off-screen texture for --png).
//
// The frame, top to bottom: a title and a one-sentence diagnosis, a bar splitting
// the warp-cycles of the view by state; per SM a header band, per sub-partition an
// issue-density strip and one row per warp (labels at the left); the cycle axis;
// the legend (state, colour, share of warp-cycles in the view).
// Leaves out: input handling (interactive.cpp), the maths (timeline_view.hpp).
// Text is optional: with no font the same frame is drawn without words.
#pragma once

#include <SFML/Graphics.hpp>

#include <optional>
#include <string>
#include <vector>

#include "viz/profile.hpp"
#include "viz/timeline.hpp"
#include "viz/timeline_view.hpp"

namespace simt::viz {

inline sf::Color to_sf(Rgb c) { return sf::Color(c.r, c.g, c.b); }
inline sf::Color state_color(State s) { return to_sf(info(s).color); }

// What the user is looking at.
struct ViewState {
    double from = 0, to = 1;      // cycles shown
    std::vector<uint32_t> sms;    // SMs shown (empty = all)
    float scroll = 0;             // content pixels scrolled off the top
    bool interactive = false;     // window mode: draws the key hint line
    bool lanes = true;            // the lane strip under issued cycles (when the file has lanes)
    bool source_panel = false;    // the source view at the right (needs a profile with pc.csv)
    bool sort_by_cost = false;    // source view order: false = source order
    std::optional<std::size_t> highlight_line;  // a source line (Profile::lines index) marked in the rows
    std::optional<std::size_t> hover_line;      // the line of the interval under the mouse
    float panel_scroll = 0;       // source view rows scrolled off its top
};

inline constexpr float kPanelW = 560;  // the source view's width
inline float panel_width(const ViewState& v) { return v.source_panel ? kPanelW : 0; }

// Where the parts of the frame go, for a canvas size (independent of the font).
struct Geometry {
    float width = 0, height = 0;
    float label_w = 0;                // left column of labels
    sf::FloatRect header, plot, axis, legend, hint;
    sf::FloatRect panel;              // the source view (width 0 when hidden)
    XMap xmap(const ViewState& v) const {
        return XMap{v.from, v.to, plot.left, std::max(1, static_cast<int>(plot.width))};
    }
};
Geometry frame_geometry(sf::Vector2u size, const Timeline& tl, bool interactive, float panel_w = 0);
inline Geometry frame_geometry(sf::Vector2u size, const Timeline& tl, const ViewState& v) {
    return frame_geometry(size, tl, v.interactive, panel_width(v));
}

// The source view's rows: which line, where, and its bar (scaled to the costliest line).
struct PanelRow {
    std::size_t line;        // index into Profile::lines
    float y;                 // target pixels
    sf::FloatRect bar;       // the stacked bar of warp cycles by state
};
struct PanelLayout {
    std::vector<PanelRow> rows;  // the visible ones
    float row_h = 34;
    std::size_t total_rows = 0;
};
PanelLayout panel_layout(const Profile& p, const Geometry& g, const ViewState& v);
// The x extent [x0, x1) of a state's segment in a line's bar, as drawn (rounded pixels).
std::pair<float, float> panel_segment(const SourceLine& l, const sf::FloatRect& bar, State s, uint64_t max_total);

// Looks for a TTF font in the usual places (or `preferred` if given); nullopt if none.
std::optional<std::string> find_font(const std::string& preferred = "");

// One line of a tooltip: text, an optional state colour swatch before it, dimmed or not.
struct TipLine {
    std::string text;
    std::optional<State> swatch = std::nullopt;
    bool dim = false;
};
using TipLines = std::vector<TipLine>;

class Renderer {
public:
    Renderer(const Timeline& tl, const sf::Font* font, const Profile* prof = nullptr)
        : tl_(tl), font_(font), prof_(prof) {}

    // The rows for a view and canvas (also used for hit tests and --expect probes).
    RowLayout layout(const ViewState& v, const Geometry& g) const;
    void draw(sf::RenderTarget& target, const ViewState& v);
    // A small box of text lines near `at` (target pixels), kept inside the target.
    void draw_tooltip(sf::RenderTarget& target, const TipLines& lines, sf::Vector2f at);
    // The tooltip for the mouse at `mouse` (target pixels); empty over nothing.
    TipLines hover(const ViewState& v, const Geometry& g, sf::Vector2i mouse) const;
    // A cursor line and the tooltip, over a drawn frame.
    void draw_hover(sf::RenderTarget& t, const ViewState& v, sf::Vector2i mouse);
    // The window pixel at the middle of `cycle` in the row of the given warp, if shown.
    std::optional<sf::Vector2i> probe_pixel(const ViewState& v, const Geometry& g, std::size_t warp_index,
                                            double cycle) const;
    // The same for the lane strip of that row (the row's bottom pixels), if drawn.
    std::optional<sf::Vector2i> probe_lane_pixel(const ViewState& v, const Geometry& g, std::size_t warp_index,
                                                 double cycle) const;
    // The source line under `mouse` in the panel (Profile::lines index), if any.
    std::optional<std::size_t> panel_line_at(const ViewState& v, const Geometry& g, sf::Vector2i mouse) const;
    // The source line of the interval under `mouse` in the rows, if any.
    std::optional<std::size_t> row_line_at(const ViewState& v, const Geometry& g, sf::Vector2i mouse) const;

private:
    struct RowBatch {  // everything the rows draw, in three layers, then text
        sf::VertexArray back{sf::Quads}, grid{sf::Quads}, fore{sf::Quads};
        struct Label {
            std::string s;
            float x, y;
            unsigned size;
            sf::Color c;
            bool right;
        };
        std::vector<Label> labels;
    };
    void draw_header(sf::RenderTarget& t, const Geometry& g, const WindowStats& st, const ViewState& v);
    void draw_breakdown(sf::RenderTarget& t, sf::FloatRect bar, const WindowStats& st);
    void draw_rows(sf::RenderTarget& t, const Geometry& g, const RowLayout& L, const WindowStats& st, const ViewState& v);
    void add_item(RowBatch& b, const RowItem& it, const RowLayout& L, const WindowStats& st, const XMap& xm,
                  const Geometry& g, std::size_t row_index);
    void draw_intervals(sf::VertexArray& quads, const RowItem& it, const XMap& xm, float row_h);
    void draw_strip(sf::VertexArray& quads, const RowItem& it, const Group& grp, const XMap& xm);
    void draw_axis(sf::RenderTarget& t, const Geometry& g, const ViewState& v);
    void draw_legend(sf::RenderTarget& t, const Geometry& g, const WindowStats& st);
    void draw_panel(sf::RenderTarget& t, const Geometry& g, const ViewState& v);
    void draw_lanes(sf::VertexArray& quads, const RowItem& it, const XMap& xm, float row_h);
    void draw_line_marks(sf::VertexArray& quads, const RowItem& it, const XMap& xm, std::size_t line);
    void text(sf::RenderTarget& t, const std::string& s, float x, float y, unsigned size, sf::Color c,
              bool right_align = false);
    float text_width(const std::string& s, unsigned size) const;
    std::string source_of(uint64_t pc) const;  // "line 38:  cos r5, r4" (with a profile)
    std::string elide(const std::string& s, unsigned size, float max_w) const;

    const Timeline& tl_;
    const sf::Font* font_;
    const Profile* prof_;
    const ViewState* v_ = nullptr;  // the view being drawn (for add_item)
    std::vector<float> lane_cols_;  // reused per row
    std::vector<Run> runs_;        // reused per row
    IssueBuckets density_;         // reused per strip
};

// Draws a frame into an off-screen texture and saves it; throws simt::Error on failure.
void render_png(const Timeline& tl, const sf::Font* font, const ViewState& v, sf::Vector2u size,
                const std::string& path, std::optional<sf::Vector2i> hover = std::nullopt,
                const Profile* prof = nullptr);
// The picture height that fits every row of the view at full row height, at most `max_h`.
unsigned fitted_height(const Timeline& tl, const ViewState& v, unsigned width, unsigned max_h,
                       std::size_t panel_rows = 0);

// --png: draws off-screen, saves, then checks each --expect probe
// ("warp=0,block=0,cycle=12,state=selected") against the PNG read back.
// Returns the exit status (1 when a probe fails); throws simt::Error on bad input.
enum class ImageMetric;
struct HeadlessOptions {
    std::string png;
    sf::Vector2u size{1600, 0};          // height 0: fit the rows, at most 900
    std::vector<std::string> expects;
    std::optional<sf::Vector2i> hover;   // draw the tooltip for a mouse here
    std::optional<ImageMetric> image;    // draw the cost image instead of the timeline
    const Profile* other = nullptr;      // A/B: the second run
};
int run_headless(const Profile& prof, const sf::Font* font, const ViewState& v, const HeadlessOptions& o);

// Opens the window and runs until it is closed (`other`: A/B with a second run).
void run_interactive(const Profile& prof, const sf::Font* font, ViewState v, const Profile* other = nullptr);

}  // namespace simt::viz
