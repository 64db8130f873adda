// import.cpp: a launch file with `.sass` and `.param`, to a Program (see import.hpp).
#include "isa/sass/import.hpp"

#include "isa/assembler.hpp"
#include "isa/limits.hpp"
#include "isa/sass/elf_info.hpp"
#include "isa/sass/lower.hpp"
#include "isa/sass/reader.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

namespace simt::isa::sass {
namespace {

namespace fs = std::filesystem;
constexpr uint32_t kDefaultStack = 1024;   // .local bytes per thread of a kernel with a stack, unless the launch says

struct Word {
    std::string text;   // the token as written
    uint32_t col = 0;
};

// The whitespace-separated words of a line up to a comment (a quoted word keeps its quotes).
std::vector<Word> words(const std::string& line) {
    std::vector<Word> out;
    size_t i = 0;
    while (i < line.size()) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') { ++i; continue; }
        if (line[i] == ';' || (line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/')) break;
        size_t j = i;
        if (line[i] == '"') {
            j = line.find('"', i + 1);
            j = j == std::string::npos ? line.size() : j + 1;
        } else {
            while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != ';' && line[j] != '\r') ++j;
        }
        out.push_back({line.substr(i, j - i), uint32_t(i + 1)});
        i = j;
    }
    return out;
}

struct LaunchLines {
    std::string rest;            // the text with the .sass and .param lines blanked
    uint32_t lines = 0;
    std::vector<Word> sass, param;
    SourceLoc sass_at, param_at;
    bool has_kernel = false, has_regs = false, has_local = false, has_shared = false;
};

LaunchLines split_launch(const std::string& text, const std::string& name) {
    LaunchLines l;
    std::istringstream in(text);
    std::string line;
    std::ostringstream rest;
    while (std::getline(in, line)) {
        ++l.lines;
        const std::vector<Word> w = words(line);
        const std::string first = w.empty() ? "" : w[0].text;
        if (first == ".sass" || first == ".param") {
            auto& slot = first == ".sass" ? l.sass : l.param;
            SourceLoc& at = first == ".sass" ? l.sass_at : l.param_at;
            if (at.line) throw Error(SourceLoc{name, l.lines, w[0].col}, first + " given twice (first at line " + std::to_string(at.line) + ")");
            slot = w;
            at = {name, l.lines, w[0].col};
            rest << '\n';
            continue;
        }
        l.has_kernel |= first == ".kernel", l.has_regs |= first == ".regs", l.has_local |= first == ".local";
        l.has_shared |= first == ".shared";
        rest << line << '\n';
    }
    l.rest = rest.str();
    return l;
}

std::string read_file(const std::string& path, const SourceLoc& at) {
    return read_text_file(path, "SASS file", kMaxTraceFileBytes, &at);
}

bool is_binary(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char head[4] = {};
    const size_t n = std::fread(head, 1, 4, f);
    std::fclose(f);
    return n == 4 && std::memcmp(head, "\x7f" "ELF", 4) == 0;
}

bool on_path(const std::string& tool) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
        if (!dir.empty() && fs::exists(fs::path(dir) / tool)) return true;
    return false;
}

// `cuobjdump FLAG FILE`'s output; an error at `at` when cuobjdump is absent or fails.
std::string run_cuobjdump(const std::string& flag, const std::string& file, const SourceLoc& at) {
    if (!on_path("cuobjdump"))
        throw Error(at, file + " is a binary: reading it needs cuobjdump on the PATH (or give its `cuobjdump -sass` text dump instead)");
    std::string cmd = "cuobjdump " + flag + " '" + file + "' 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) throw Error(at, "cannot run cuobjdump");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    if (pclose(p) != 0) throw Error(at, "cuobjdump " + flag + " failed on " + file);
    return out;
}

struct Source {
    Kernel kernel;
    KernelInfo info;
};

Source read_source(const LaunchLines& l, const std::string& dir) {
    if (l.sass.size() != 3 || l.sass[1].text.size() < 2 || l.sass[1].text.front() != '"' || l.sass[1].text.back() != '"') {
        SourceLoc at = l.sass_at;
        at.col = l.sass.size() > 1 ? l.sass[1].col : at.col;
        throw Error(at, "expected .sass \"FILE\" KERNEL (a cuobjdump -sass dump or a binary, and the kernel's name)");
    }
    const std::string rel = l.sass[1].text.substr(1, l.sass[1].text.size() - 2);
    const std::string path = (fs::path(dir) / rel).string();
    SourceLoc file_at = l.sass_at, kernel_at = l.sass_at;
    file_at.col = l.sass[1].col, kernel_at.col = l.sass[2].col;
    Source s;
    const bool binary = is_binary(path);
    const std::string listing = binary ? run_cuobjdump("-sass", path, file_at) : read_file(path, file_at);
    s.kernel = read_kernel(listing, path, l.sass[2].text, kernel_at);
    std::string elf;
    if (binary) elf = run_cuobjdump("-elf", path, file_at);
    else {
        fs::path e = fs::path(path).replace_extension(".elf");
        if (fs::exists(e)) elf = read_file(e.string(), file_at);
    }
    if (elf.empty() || !read_elf_info(elf, s.kernel.name, s.info)) s.info = KernelInfo{};
    const fs::path lines = fs::path(path).replace_extension(".nvdisasm");   // nvdisasm -g: the CUDA source lines
    if (!binary && fs::exists(lines)) {
        const std::map<uint32_t, std::string> at = read_line_info(read_file(lines.string(), file_at), s.kernel.name);
        for (Inst& in : s.kernel.code)
            if (auto it = at.find(in.addr); it != at.end()) in.cuda_line = it->second;
    }
    if (!s.info.from_elf || s.info.cbank_base == 0) s.info.cbank_base = standard_param_base(s.kernel.arch);
    return s;
}

// One .param value: its bytes (4 or 8), little-endian words.
struct ParamValue {
    uint64_t bits = 0;
    uint32_t size = 4;
    std::string uniform;   // `$name`: the launch file's .uniform (so --uniform / validate can change it)
};

// The constant-bank words the parameters fill: offset -> value, and the words that read a .uniform.
struct ParamWords {
    std::map<uint32_t, uint32_t> words;
    std::map<uint32_t, std::string> uniforms;
    std::map<uint32_t, uint32_t> bank4;     // c[0x4][X]: the words of __device__ objects' addresses
    std::vector<std::string> buffers;        // their .buffer directives (after the launch file's buffers)
};

ParamValue parse_param(const Word& w, const Program& base, const std::vector<uint64_t>& bases, const SourceLoc& at) {
    for (size_t b = 0; b < base.buffers.size(); ++b)
        if (base.buffers[b].name == w.text) return {bases[b], 8, ""};
    if (w.text[0] == '$') {
        for (const UniformDecl& u : base.uniforms)
            if (u.name == w.text.substr(1)) return {u.bits, 4, u.name};
        throw Error(at, "unknown uniform '" + w.text + "' as a kernel parameter; declare it with .uniform");
    }
    const std::string& t = w.text;
    const bool hex = t.rfind("0x", 0) == 0 || t.rfind("-0x", 0) == 0;
    const bool fp = !hex && (t.find_first_of(".eE") != std::string::npos || (!t.empty() && t.back() == 'f'));
    char* end = nullptr;
    if (fp) {
        std::string body = t.back() == 'f' ? t.substr(0, t.size() - 1) : t;
        const float f = std::strtof(body.c_str(), &end);
        if (body.empty() || *end) throw Error(at, "expected a buffer name or a number as a kernel parameter, found '" + t + "'");
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return {b, 4, ""};
    }
    errno = 0;
    const long long v = std::strtoll(t.c_str(), &end, 0);
    if (t.empty() || *end || errno == ERANGE) {
        if (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')
            throw Error(at, "unknown buffer '" + t + "' as a kernel parameter; declare it with .buffer");
        throw Error(at, "expected a buffer name or a number as a kernel parameter, found '" + t + "'");
    }
    return {uint64_t(v), (v < INT32_MIN || v > UINT32_MAX) ? 8u : 4u, ""};
}

// Where the parameters go in constant bank 0, by the .elf's offsets or the standard layout.
ParamWords place_params(const LaunchLines& l, const Source& s, const Program& base) {
    const std::vector<uint64_t> bases = buffer_bases(base.buffers);
    if (!l.param_at.line) throw Error(l.sass_at, "a .sass launch needs a .param line listing the kernel's parameters in order");
    std::vector<ParamValue> values;
    for (size_t i = 1; i < l.param.size(); ++i)
        values.push_back(parse_param(l.param[i], base, bases, {l.param_at.file, l.param_at.line, l.param[i].col}));
    std::vector<ParamSlot> slots = s.info.params;
    if (!s.info.from_elf) {   // the standard layout: each parameter aligned to its size
        uint32_t off = 0;
        for (const ParamValue& v : values) {
            off = (off + v.size - 1) / v.size * v.size;
            slots.push_back({off, v.size});
            off += v.size;
        }
    }
    if (values.size() != slots.size())
        throw Error(l.param_at, "kernel '" + s.kernel.name + "' takes " + std::to_string(slots.size()) + " parameter" +
                                    (slots.size() == 1 ? "" : "s") + ", .param lists " + std::to_string(values.size()));
    ParamWords out;
    std::map<uint32_t, uint32_t>& words = out.words;
    for (size_t i = 0; i < values.size(); ++i) {
        const SourceLoc at{l.param_at.file, l.param_at.line, l.param[i + 1].col};
        if (values[i].size > slots[i].size)
            throw Error(at, "parameter " + std::to_string(i) + " of '" + s.kernel.name + "' is " + std::to_string(slots[i].size) +
                                " bytes; '" + l.param[i + 1].text + "' (" + (values[i].size == 8 ? "an address or 64-bit value" : "") +
                                ") needs 8");
        const uint32_t off = s.info.cbank_base + slots[i].offset;
        words[off] = uint32_t(values[i].bits);
        if (slots[i].size == 8) words[off + 4] = uint32_t(values[i].bits >> 32);
        if (!values[i].uniform.empty()) out.uniforms[off] = values[i].uniform;   // an 8-byte slot: the high word 0
    }
    return out;
}

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "%x", v);
    return b;
}

// The module's __device__ objects that constant bank 4 points at (sinf's __cudart_i2opi_f): each a
// buffer after the launch file's, with the .elf's data; bank 4's words hold their flat addresses.
void place_globals(const Source& s, const Program& base, ParamWords& out) {
    std::vector<BufferDecl> decls = base.buffers;
    std::map<std::string, size_t> index;   // symbol -> its buffer in decls
    for (const BankReloc& r : s.info.bank4) {
        if (index.count(r.symbol)) continue;
        for (const GlobalObject& g : s.info.globals) {
            if (g.name != r.symbol || g.bytes == 0) continue;
            BufferDecl d;
            d.name = "sass_g_" + std::to_string(index.size());
            d.count = (g.bytes + 3) / 4;
            std::string line = ".buffer " + d.name + " u32 " + std::to_string(d.count) + (g.words.empty() ? " zero" : " data");
            for (uint32_t w : g.words) line += " " + std::to_string(w);
            index[r.symbol] = decls.size();
            decls.push_back(d);
            out.buffers.push_back(line + "   ; " + g.name);
            break;
        }
    }
    const std::vector<uint64_t> bases = buffer_bases(decls);
    for (const BankReloc& r : s.info.bank4) {
        if (!index.count(r.symbol)) continue;
        const uint64_t a = bases[index.at(r.symbol)] + r.addend;
        out.bank4[r.offset] = uint32_t(a);
        out.bank4[r.offset + 4] = uint32_t(a >> 32);
    }
}

// The unsupported instructions, all of them, as one error at the first.
[[noreturn]] void report_unsupported(const Kernel& k, const Lowered& low) {
    std::ostringstream os;
    os << low.unsupported.size() << " SASS instruction" << (low.unsupported.size() == 1 ? "" : "s") << " of '" << k.name
       << "' cannot be simulated (run them as nops with --sass-stub OP=nop):";
    for (const Unsupported& u : low.unsupported) {
        const Inst& in = k.code[u.sass];
        os << "\n  " << in.loc.str() << ": " << in.text << "   (" << u.why << ")";
    }
    throw Error(k.code[low.unsupported.front().sass].loc, os.str());
}

}  // namespace

bool has_sass_directive(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const std::vector<Word> w = words(line);
        if (!w.empty() && w[0].text == ".sass") return true;
    }
    return false;
}

namespace {

// What the lowering reads for c[0x0][...], the stubs, and the sm_90 shared window.
Env make_env(const Source& s, const ParamWords& params, const ImportOptions& options) {
    Env env;
    const uint32_t desc = s.info.cbank_base == 0x210 ? 0x208 : 0x118;
    env.cbank = [&params, desc](uint32_t off) -> std::string {
        static const char* dims[] = {"%ntid.x", "%ntid.y", "%ntid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z"};
        if (off < 0x18 && off % 4 == 0) return dims[off / 4];
        if (off >> 16 == 4) {   // bank 4: a __device__ object's address (place_globals)
            const auto w = params.bank4.find(off & 0xffff);
            return w == params.bank4.end() ? "" : "$sass_g4_" + hex(off & 0xffff);
        }
        if (off == 0x28) return "$sass_stack";
        if (off == desc || off == desc + 4) return "0";   // the global memory descriptor: no meaning here
        if (params.uniforms.count(off)) return "$" + params.uniforms.at(off);
        if (params.words.count(off)) return "$sass_c" + hex(off);
        return "";
    };
    for (const std::string& st : options.stubs) {
        const size_t eq = st.find('=');
        if (eq == std::string::npos || st.substr(eq + 1) != "nop")
            throw Error(SourceLoc{"--sass-stub", 0, 0}, "expected OP=nop, found '" + st + "'");
        env.stubs[st.substr(0, eq)] = "nop";
    }
    for (const Inst& in : s.kernel.code)
        for (const std::string& o : in.operands)
            if (o == "SR_CgaCtaId") env.shared_base = 0x400;
    return env;
}

// The trace text appended to the launch file: directives, then the lowered code; `origin` maps
// each of its lines to the SASS instruction it comes from (SIZE_MAX: a directive).
std::string generate(const LaunchLines& l, const Source& s, const ParamWords& params, uint32_t local,
                     const Lowered& low, std::vector<size_t>& origin) {
    std::ostringstream gen;
    auto directive = [&](const std::string& d) { gen << d << '\n'; origin.push_back(SIZE_MAX); };
    if (!l.has_kernel) directive(".kernel " + s.kernel.name);
    if (!l.has_local) directive(".local " + std::to_string(local));
    if (!l.has_shared && s.info.shared_bytes) directive(".shared " + std::to_string(s.info.shared_bytes));
    directive(".uniform sass_stack u32 " + std::to_string(local));
    for (const auto& [off, v] : params.words)
        if (!params.uniforms.count(off)) directive(".uniform sass_c" + hex(off) + " u32 " + std::to_string(v));
    for (const std::string& b : params.buffers) directive(b);
    for (const auto& [off, v] : params.bank4) directive(".uniform sass_g4_" + hex(off) + " u32 " + std::to_string(v));
    for (const Line& ln : low.lines) { gen << ln.text << '\n'; origin.push_back(ln.sass); }
    return gen.str();
}

// Each generated instruction's location, report text and control bits become its SASS line's.
void locate_at_sass(Program& p, const LaunchLines& l, const Source& s, const std::vector<size_t>& origin) {
    for (size_t i = 0; i < p.code.size(); ++i) {
        Instruction& in = p.code[i];
        if (in.loc.file != p.path || in.loc.line <= l.lines) continue;
        const Inst& si = s.kernel.code[origin[in.loc.line - l.lines - 1]];
        in.loc = si.loc;
        in.sass_ctrl = si.control.pack();
        p.text[i] = si.cuda_line.empty() ? si.text : si.text + "   // " + si.cuda_line;
    }
}

// The launch's kernel read, its parameters placed and its code lowered (not yet assembled).
struct Prepared {
    LaunchLines l;
    Program base;
    Source s;
    ParamWords params;
    Lowered low;
};

Prepared prepare(const std::string& text, const std::string& name, const std::string& dir, const ImportOptions& options) {
    Prepared p;
    p.l = split_launch(text, name);
    p.base = assemble_text(p.l.rest + "exit\n", name, dir);
    if (p.base.code.size() > 1) throw Error(p.base.code[0].loc, "a .sass launch file holds no instructions: the kernel's code comes from the SASS");
    p.s = read_source(p.l, dir);
    p.params = place_params(p.l, p.s, p.base);
    place_globals(p.s, p.base, p.params);
    p.low = lower(p.s.kernel, make_env(p.s, p.params, options));
    return p;
}

}  // namespace

Probe probe_launch(const std::string& text, const std::string& name, const std::string& dir, const ImportOptions& options) {
    Prepared p = prepare(text, name, dir, options);
    return {std::move(p.s.kernel), std::move(p.low)};
}

Program import_launch(const std::string& text, const std::string& name, const std::string& dir, const ImportOptions& options) {
    const Prepared prep = prepare(text, name, dir, options);
    const LaunchLines& l = prep.l;
    const Source& s = prep.s;
    const Lowered& low = prep.low;
    if (!low.unsupported.empty()) report_unsupported(s.kernel, low);
    bool uses_local = false;
    for (const Inst& in : s.kernel.code) uses_local |= in.opcode.rfind("LDL", 0) == 0 || in.opcode.rfind("STL", 0) == 0;
    const uint32_t local = l.has_local ? prep.base.local_bytes : uses_local ? kDefaultStack : 0;
    std::vector<size_t> origin;
    const std::string gen = generate(l, s, prep.params, local, low, origin);
    Program p;
    try {
        p = assemble_text(l.rest + gen, name, dir);
    } catch (const Error& e) {   // a lowering the assembler rejects: located at its SASS line
        if (e.loc().file == name && e.loc().line > l.lines && origin[e.loc().line - l.lines - 1] != SIZE_MAX) {
            const size_t g = e.loc().line - l.lines - 1;
            throw Error(s.kernel.code[origin[g]].loc, e.message() + " (lowered as `" + low.lines[g - (origin.size() - low.lines.size())].text + "`)");
        }
        throw;
    }
    // .regs: what the compiler allocated (the .elf's register count; without it the registers the SASS
    // names), not the lowering's temporaries, which only the functional model holds
    // (registers_needed): they took occupancy from a kernel (ho_gemm_naive: 32 + 6 -> 40, 75 %)
    if (!l.has_regs) {
        const uint32_t used = p.regs_per_thread;   // (the assembler's: every register named, temporaries too)
        p.regs_per_thread = s.info.regs ? s.info.regs : std::max(low.kernel_regs, 1u);
        p.scratch_regs = used > p.regs_per_thread ? used - p.regs_per_thread : 0;
    }
    locate_at_sass(p, l, s, origin);
    return p;
}

}  // namespace simt::isa::sass
