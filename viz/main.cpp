// main.cpp: simt-viz, the warp-state timeline viewer: command line and --help.
//
// `simt-viz FILE.csv` opens a window; `--png OUT.png` draws the same picture
// off-screen instead and exits. Every bad input (file, option) prints
// "where: error: what" and exits with status 1.
// Leaves out: reading the CSV (timeline.hpp), drawing (render.cpp), input (interactive.cpp).
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "viz/render.hpp"

namespace po = boost::program_options;
using namespace simt;
using namespace simt::viz;

namespace {

void print_help(std::ostream& out, const po::options_description& opts, bool color) {
    out << "simt-viz: see, cycle by cycle, what every warp of a simt-sim run was doing.\n"
           "\n"
           "usage: simt-viz TIMELINE.csv                         open the viewer\n"
           "       simt-viz TIMELINE.csv --png OUT.png [options]   draw it to a PNG and exit\n"
           "\n"
           "TIMELINE.csv is what `simt-sim --timeline FILE` writes: one row per interval of\n"
           "cycles [start, end) that a warp spent in one state at one pc, with the header\n"
           "    warp,block,sm,sub_partition,start,end,state,pc\n"
           "\n"
           "WHAT YOU SEE\n"
           "  One row per warp, grouped by SM and sub-partition (SP, one warp scheduler each).\n"
           "  Time runs left to right in cycles. Above each SP's warps, a green strip shows\n"
           "  its issue density: full height = the scheduler issued an instruction every\n"
           "  cycle. Where that strip has gaps, the colours below tell you why. The line at\n"
           "  the top names the biggest stall in the view; the bar under it splits all\n"
           "  warp-cycles of the view by state. Zoomed out, a pixel shows the state that\n"
           "  fills most of its cycles; zoom in to see every cycle.\n"
           "\n"
           "THE COLOURS (Nsight Compute warp states)\n";
    for (const auto& k : kStates) {
        std::string swatch;
        if (color)
            swatch = "\x1b[48;2;" + std::to_string(k.color.r) + ";" + std::to_string(k.color.g) + ";" +
                     std::to_string(k.color.b) + "m    \x1b[0m ";
        std::string name(k.name), cname(k.color_name);
        name.resize(20, ' ');
        cname.resize(14, ' ');
        out << "  " << swatch << name << cname << k.meaning << "\n";
    }
    out << "  Healthy code keeps the strip full and the rows mostly green. Long orange-red\n"
           "  runs = memory latency not hidden (more warps, or fewer dependent loads); purple =\n"
           "  a math pipe is the limit; blue = warps wait for each other at barriers.\n"
           "\n"
           "KEYS AND MOUSE (in the window)\n"
           "  mouse wheel        zoom in time around the pointer\n"
           "  drag               pan in time, and scroll the rows\n"
           "  shift+wheel, up/down, PgUp/PgDn   scroll the rows\n"
           "  left/right, + -    pan, zoom\n"
           "  0..9               show only that SM;  shift+0..9: add/remove it\n"
           "  [ ]                previous / next SM alone;  A: all SMs again\n"
           "  F, Home            fit the whole run\n"
           "  hover              warp, state, cycles, pc and what the state means\n"
           "  H                  help overlay;  S: save simt-viz-screenshot.png;  Q, Esc: quit\n"
           "\n"
        << opts
        << "\n"
           "EXAMPLES\n"
           "  simt-sim configs/rtx4060.yaml traces/loop_varying.isa --timeline t.csv && simt-viz t.csv\n"
           "  xvfb-run -a simt-viz t.csv --png t.png --sm 0 --from 1000 --to 3000\n"
           "  xvfb-run -a simt-viz t.csv --png t.png --expect warp=0,block=0,cycle=12,state=selected\n"
           "\n"
           "Drawing needs an X display, also for --png: on a server use xvfb-run -a. Text needs a\n"
           "TTF font (DejaVuSans from fonts-dejavu-core, or --font); without one the picture is\n"
           "drawn without words. Exit status: 0 ok, 1 bad input or a failed --expect.\n";
}

std::vector<uint32_t> parse_sms(const std::vector<std::string>& args, const Timeline& tl) {
    std::vector<uint32_t> sms;
    for (const auto& a : args) {
        std::stringstream ss(a);
        std::string one;
        while (std::getline(ss, one, ',')) {
            const auto sm = detail::parse_number<uint32_t>(one.c_str(), "sm", SourceLoc{"--sm " + a, 0, 0});
            if (std::find(tl.sms.begin(), tl.sms.end(), sm) == tl.sms.end()) {
                std::string have;
                for (uint32_t s : tl.sms) have += (have.empty() ? "" : ",") + std::to_string(s);
                throw Error("--sm " + a + ": there is no SM " + one + " in " + tl.file + " (it has SMs " + have + ")");
            }
            if (std::find(sms.begin(), sms.end(), sm) == sms.end()) sms.push_back(sm);
        }
    }
    std::sort(sms.begin(), sms.end());
    return sms;
}

int run(int argc, char** argv) {
    std::string file, png, font_path, hover;
    unsigned width = 1600, height = 0;
    std::vector<std::string> sm_args, expects;
    uint64_t from = 0, to = 0;
    po::options_description opts("OPTIONS", 100, 50);
    opts.add_options()
        ("help,h", "this text")
        ("png", po::value(&png)->value_name("FILE"), "draw to FILE (PNG) off-screen and exit")
        ("width", po::value(&width)->value_name("PX")->default_value(1600), "--png: picture width")
        ("height", po::value(&height)->value_name("PX"), "--png: picture height (default: fit the rows, at most 900)")
        ("sm", po::value(&sm_args)->value_name("N[,N..]")->composing(), "show only these SMs (repeatable)")
        ("from", po::value(&from)->value_name("CYCLE"), "first cycle shown (default: start of the run)")
        ("to", po::value(&to)->value_name("CYCLE"), "last cycle shown (default: end of the run)")
        ("font", po::value(&font_path)->value_name("TTF"), "font file (default: DejaVuSans, found in the usual places; none: draw without text)")
        ("expect", po::value(&expects)->value_name("SPEC")->composing(),
         "--png: check the picture (repeatable). SPEC is warp=W,cycle=C,state=S, optionally with block=, sm=, "
         "sub_partition=: the middle of that warp's row at that cycle must have exactly that state's colour")
        ("hover", po::value(&hover)->value_name("X,Y"), "--png: also draw the tooltip for the mouse at pixel X,Y");
    po::options_description all;
    all.add(opts).add_options()("timeline", po::value(&file));
    po::positional_options_description pos;
    pos.add("timeline", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);

    if (vm.count("help")) {
        print_help(std::cout, opts, isatty(STDOUT_FILENO));
        return 0;
    }
    if (file.empty()) throw Error("no timeline file given; usage: simt-viz TIMELINE.csv [--png OUT.png] (see --help)");
    if (png.empty() && (!expects.empty() || !hover.empty())) throw Error("--expect and --hover need --png");
    if (width < 800 || (height && height < 300) || width > 16384 || height > 16384)
        throw Error("--width/--height: between 800x300 and 16384x16384 pixels");

    const Timeline tl = load_timeline(file);
    ViewState v;
    v.sms = parse_sms(sm_args, tl);
    if (!vm.count("from")) from = tl.first_cycle;
    if (!vm.count("to")) to = std::max(tl.last_cycle, tl.first_cycle + 1);
    if (to <= from || to > kMaxCycle)
        throw Error("--from " + std::to_string(from) + " --to " + std::to_string(to) +
                    ": the window must have --from < --to <= 2^53");
    v.from = static_cast<double>(from);
    v.to = static_cast<double>(to);

    sf::Font font;
    const sf::Font* font_ptr = nullptr;
    if (font_path != "none") {
        if (!font_path.empty() && !std::ifstream(font_path).good())
            throw Error(SourceLoc{font_path, 0, 0}, "cannot open the font");
        if (auto path = find_font(font_path); path && font.loadFromFile(*path))
            font_ptr = &font;
        else
            std::cerr << "simt-viz: note: no TTF font found (install fonts-dejavu-core or pass --font); "
                         "drawing without text\n";
    }

    if (!png.empty()) {
        HeadlessOptions o{png, {width, height}, expects, std::nullopt};
        if (!hover.empty()) {
            const SourceLoc loc{"--hover " + hover, 0, 0};
            const auto comma = hover.find(',');
            if (comma == std::string::npos) throw Error(loc, "expected X,Y in pixels");
            o.hover = sf::Vector2i(detail::parse_number<int>(hover.substr(0, comma).c_str(), "X", loc),
                                   detail::parse_number<int>(hover.substr(comma + 1).c_str(), "Y", loc));
        }
        return run_headless(tl, font_ptr, v, o);
    }
    const char* display = std::getenv("DISPLAY");
    if (!display || !*display) throw Error("no X display to open a window on; for a picture use --png OUT.png under xvfb-run -a");
    run_interactive(tl, font_ptr, v);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const Error& e) {
        std::cerr << e.what() << "\n";
    } catch (const po::error& e) {
        std::cerr << "error: " << e.what() << " (see simt-viz --help)\n";
    } catch (const std::exception& e) {
        std::cerr << "simt-viz: error: " << e.what() << "\n";
    }
    return 1;
}
