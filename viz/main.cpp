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

#include "viz/image.hpp"
#include "viz/render.hpp"

namespace po = boost::program_options;
using namespace simt;
using namespace simt::viz;

namespace {

void print_help(std::ostream& out, const po::options_description& opts, bool color) {
    out << "simt-viz: see, cycle by cycle, what every warp of a simt-sim run was doing.\n"
           "\n"
           "usage: simt-viz RUN                         open the viewer\n"
           "       simt-viz RUN --png OUT.png [options] draw it to a PNG and exit\n"
           "       simt-viz A B [--png OUT.png]         A/B: two runs one above the other\n"
           "\n"
           "RUN is a profile directory (`simt-sim --profile DIR`: timeline, per-pc table, JSON\n"
           "report and sources, all views) or a timeline CSV (`simt-sim --timeline FILE`: the\n"
           "timeline only): one row per interval of cycles [start, end) that a warp spent in\n"
           "one state at one pc, with the header\n"
           "    warp,block,sm,sub_partition,start,end,state,pc[,lanes]\n"
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
           "  LANE STRIP (lanes column): a thin strip at the bottom of each warp row under\n"
           "  every issued instruction, coloured by how many of the 32 lanes were active:\n"
           "  dark slate = 32, white = 16, red = few. A checkerboard `if` shows half-active\n"
           "  (white) warps issuing both paths one after the other. L toggles it; --no-lanes.\n"
           "\n"
           "  SOURCE VIEW (--source, key C; profile directory): a panel at the right with one\n"
           "  row per source line that has instructions: the line, instructions issued, mean\n"
           "  active lanes (coloured when below 32), and a bar of the warp cycles spent at the\n"
           "  line split by state (same colours; the longest bar is the costliest line).\n"
           "  O / --sort cost|line orders it. Click a line (or --highlight LINE): white marks\n"
           "  on the warp rows show when warps were at it; hovering a row highlights its line.\n"
           "\n"
           "  COST IMAGE (--image METRIC, key I; profile directory): a fragment launch drawn\n"
           "  as its W x H pixels, each coloured by its warp's cost (one warp per 4x8 tile,\n"
           "  tiles outlined when zoomed in); a compute launch as its grid of blocks. METRIC\n"
           "  (key M): cycles (warp cycles resident), issued (instructions), lanes (mean\n"
           "  active lanes), divergence (share of instructions with < 32 lanes: a\n"
           "  checkerboard `if` lights up every tile, 8-pixel horizontal stripes none), path\n"
           "  (with --highlight LINE or a clicked line: each pixel lit when its lane executed\n"
           "  that line: which side of a branch it took).\n"
           "\n"
           "  A/B (simt-viz A B): both runs on one time axis, run A above run B, with a\n"
           "  header that draws both warp-cycle breakdowns to one scale and names the\n"
           "  states that changed most (e.g. uniform vs checkerboard, gto vs lrr).\n"
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
           "  C, O, L            source view, its order, lane strip\n"
           "  I, M               cost image, its metric\n"
           "  H                  help overlay;  S: save simt-viz-screenshot.png;  Q, Esc: quit\n"
           "\n"
        << opts
        << "\n"
           "EXAMPLES\n"
           "  simt-sim configs/rtx4060.yaml traces/loop_varying.isa --timeline t.csv && simt-viz t.csv\n"
           "  xvfb-run -a simt-viz t.csv --png t.png --sm 0 --from 1000 --to 3000\n"
           "  xvfb-run -a simt-viz t.csv --png t.png --expect warp=0,block=0,cycle=12,state=selected\n"
           "  simt-sim configs/rtx4060.yaml traces/divergence_checker.isa --profile chk && simt-viz chk\n"
           "  xvfb-run -a simt-viz chk --png src.png --source --sort cost --expect line=38,state=math_pipe_throttle\n"
           "  xvfb-run -a simt-viz chk --png img.png --image divergence --expect px=0,py=0,value=0.5\n"
           "  xvfb-run -a simt-viz uni chk --png ab.png --expect run=b,warp=0,cycle=500,state=selected\n"
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
    std::vector<std::string> files;
    std::string png, font_path, hover, image, sort = "line";
    std::optional<uint32_t> highlight;
    bool source = false, no_lanes = false;
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
        ("hover", po::value(&hover)->value_name("X,Y"), "--png: also draw the tooltip for the mouse at pixel X,Y")
        ("source", po::bool_switch(&source), "show the source view (needs a profile directory with pc.csv)")
        ("sort", po::value(&sort)->value_name("cost|line")->default_value("line"), "source view order: by cost or in source order")
        ("highlight", po::value<uint32_t>()->value_name("LINE"), "mark the cycles warps spent at that source line (with --source)")
        ("no-lanes", po::bool_switch(&no_lanes), "do not draw the lane strip")
        ("image", po::value(&image)->value_name("METRIC"),
         "draw the per-pixel (fragment) or per-block (compute) cost image instead: cycles, issued, lanes, divergence, "
         "or path (with --highlight LINE: which lanes executed that line). "
         "Probes: --expect px=X,py=Y,value=V (the cell's colour must be the colour of V)");
    po::options_description all;
    all.add(opts).add_options()("timeline", po::value(&files)->composing());
    po::positional_options_description pos;
    pos.add("timeline", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);

    if (vm.count("help")) {
        print_help(std::cout, opts, isatty(STDOUT_FILENO));
        return 0;
    }
    if (files.empty()) throw Error("no timeline file given; usage: simt-viz TIMELINE.csv [--png OUT.png] (see --help)");
    if (files.size() > 2) throw Error("at most two runs (simt-viz A B), got " + std::to_string(files.size()));
    if (sort != "cost" && sort != "line") throw Error("--sort: expected cost or line, not \"" + sort + "\"");
    std::optional<ImageMetric> metric;
    if (!image.empty()) {
        metric = image_metric_from_name(image);
        if (!metric) throw Error("--image: unknown metric \"" + image + "\"; use cycles, issued, lanes, divergence or path");
        if (files.size() == 2) throw Error("--image draws one run, not two");
    }
    if (source && files.size() == 2) throw Error("--source shows one run, not two");
    if (vm.count("highlight")) highlight = vm["highlight"].as<uint32_t>();
    if (png.empty() && (!expects.empty() || !hover.empty())) throw Error("--expect and --hover need --png");
    if (width < 800 || (height && height < 300) || width > 16384 || height > 16384)
        throw Error("--width/--height: between 800x300 and 16384x16384 pixels");

    const Profile prof = load_profile(files[0]);
    std::optional<Profile> other;
    if (files.size() == 2) other = load_profile(files[1]);
    const Timeline& tl = prof.tl;
    ViewState v;
    v.sms = parse_sms(sm_args, tl);
    v.lanes = !no_lanes;
    v.sort_by_cost = sort == "cost";
    if (source) {
        if (!prof.has_source())
            throw Error(SourceLoc{files[0], 0, 0}, "--source needs a profile directory with pc.csv (simt-sim --profile DIR)");
        v.source_panel = true;
    }
    if (highlight) {
        if (!prof.has_source())
            throw Error(SourceLoc{files[0], 0, 0}, "--highlight needs a profile directory with pc.csv (simt-sim --profile DIR)");
        for (std::size_t i = 0; i < prof.lines.size(); ++i)
            if (prof.lines[i].line == *highlight) v.highlight_line = i;
        if (!v.highlight_line)
            throw Error("--highlight " + std::to_string(*highlight) + ": no instruction comes from that line");
    }
    const uint64_t first = other ? std::min(tl.first_cycle, other->tl.first_cycle) : tl.first_cycle;
    const uint64_t last = other ? std::max(tl.last_cycle, other->tl.last_cycle) : tl.last_cycle;
    if (!vm.count("from")) from = first;
    if (!vm.count("to")) to = std::max(last, first + 1);
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
        HeadlessOptions o{png, {width, height}, expects, std::nullopt, metric, other ? &*other : nullptr};
        if (!hover.empty()) {
            const SourceLoc loc{"--hover " + hover, 0, 0};
            const auto comma = hover.find(',');
            if (comma == std::string::npos) throw Error(loc, "expected X,Y in pixels");
            o.hover = sf::Vector2i(detail::parse_number<int>(hover.substr(0, comma).c_str(), "X", loc),
                                   detail::parse_number<int>(hover.substr(comma + 1).c_str(), "Y", loc));
        }
        return run_headless(prof, font_ptr, v, o);
    }
    const char* display = std::getenv("DISPLAY");
    if (!display || !*display) throw Error("no X display to open a window on; for a picture use --png OUT.png under xvfb-run -a");
    run_interactive(prof, font_ptr, v, other ? &*other : nullptr);
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
