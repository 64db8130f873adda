// assembler.cpp: lexer, directive and instruction parser, label resolution and checks.
//
// Grammar (isa/README.md has the full language):
//   line      := [label ':'] [directive | instruction] [comment]
//   directive := '.' name args...
//   instr     := ['@' ['!'] pred] mnemonic ['.' cmp] [operand {',' operand}]
//   operand   := reg | pred | '!' pred | imm | '%' special | '$' uniform | mem | label
//   mem       := '[' term {('+' | '-') term} ']'   term := buffer | reg ['*' scale] | imm
#include "isa/assembler.hpp"
#include "isa/sass/import.hpp"

#include "isa/limits.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace simt::isa {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------- lexer

enum class Tok : uint8_t { Ident, Number, String, Punct, End };

struct Token {
    Tok kind = Tok::End;
    std::string text;
    uint32_t col = 0;  // 1-based
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// Splits one line into tokens; comments (';' or '//') end the line.
std::vector<Token> lex_line(const std::string& line, const SourceLoc& where) {
    std::vector<Token> out;
    size_t i = 0, n = line.size();
    int depth = 0;  // inside [ ], '-' is always an operator
    while (i < n) {
        char c = line[i];
        if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
        if (c == ';' || (c == '/' && i + 1 < n && line[i + 1] == '/')) break;
        Token t;
        t.col = static_cast<uint32_t>(i + 1);
        if (ident_start(c) || c == '%' || c == '$') {
            size_t j = i + 1;
            while (j < n && ident_char(line[j])) ++j;
            t.kind = Tok::Ident;
            t.text = line.substr(i, j - i);
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '-' && i + 1 < n && std::isdigit(static_cast<unsigned char>(line[i + 1])) &&
                    depth == 0)) {
            // Outside [ ] there is no subtraction, so '-' before a digit is a sign.
            size_t j = i + 1;
            while (j < n && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.' ||
                             ((line[j] == '-' || line[j] == '+') && (line[j - 1] == 'e' || line[j - 1] == 'E') &&
                              line.compare(i, 2, "0x") != 0 && line.compare(i, 3, "-0x") != 0)))
                ++j;
            t.kind = Tok::Number;
            t.text = line.substr(i, j - i);
            i = j;
        } else if (c == '"') {
            size_t j = line.find('"', i + 1);
            if (j == std::string::npos)
                throw Error({where.file, where.line, t.col}, "unterminated string; expected a closing '\"'");
            t.kind = Tok::String;
            t.text = line.substr(i + 1, j - i - 1);
            i = j + 1;
        } else if (std::strchr(",[]+-*:@!=|", c)) {
            t.kind = Tok::Punct;
            t.text = std::string(1, c);
            depth += (c == '[') - (c == ']');
            ++i;
        } else {
            throw Error({where.file, where.line, t.col},
                        std::string("unexpected character '") + c + "'");
        }
        out.push_back(std::move(t));
    }
    return out;
}

// A number token as 32 bits. Integers must fit in 32 bits (signed or unsigned);
// a '.', an exponent or an 'f' suffix makes an fp32 literal.
struct NumberValue {
    uint32_t bits = 0;
    bool is_float = false;
    int64_t as_int = 0;     // integers only
    double as_double = 0;   // both
};

std::optional<NumberValue> parse_number(const std::string& s) {
    NumberValue v;
    bool hex = s.rfind("0x", 0) == 0 || s.rfind("-0x", 0) == 0;
    bool is_float = !hex && (s.find_first_of(".eE") != std::string::npos || (!s.empty() && s.back() == 'f'));
    if (is_float) {
        std::string body = s;
        if (!body.empty() && body.back() == 'f') body.pop_back();
        char* end = nullptr;
        double d = std::strtod(body.c_str(), &end);
        if (body.empty() || *end != '\0') return std::nullopt;
        float f = static_cast<float>(d);
        std::memcpy(&v.bits, &f, 4);
        v.is_float = true;
        v.as_double = d;
        return v;
    }
    char* end = nullptr;
    errno = 0;
    long long x = std::strtoll(s.c_str(), &end, 0);
    if (s.empty() || *end != '\0' || errno == ERANGE) return std::nullopt;
    if (x < std::numeric_limits<int32_t>::min() || x > static_cast<long long>(std::numeric_limits<uint32_t>::max()))
        return std::nullopt;
    v.bits = static_cast<uint32_t>(x);
    v.as_int = x;
    v.as_double = static_cast<double>(x);
    return v;
}

// " (did you mean 'x'?)" for a candidate within 2 edits, else "".
std::string suggest(std::string_view word, const std::vector<std::string>& candidates) {
    std::string best = nearest_name(word, candidates, 2);
    return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

// ---------------------------------------------------------------- parser

struct PendingLabel {
    std::string name;
    SourceLoc loc;
    size_t instr;
    size_t operand;
};

class Assembler {
public:
    // Applies one directive line (".grid 4 2") to an assembled program, with the
    // directive's checks, errors located at `option`; then the whole-program checks.
    static void apply_directive(Program& program, const std::string& line, const std::string& option) {
        Assembler a;
        a.prog_ = std::move(program);
        a.line_loc_ = {option, 0, 0};
        const std::vector<Token> toks = lex_line(line, a.line_loc_);
        a.toks_ = &toks;
        a.pos_ = 1;
        try {
            a.parse_directive(toks[0], ".");
            a.check_local_per_block_of(a.prog_.local_bytes, SourceLoc{option, 0, 0});
            a.check_regs_after_override(option);
        } catch (const Error& e) {
            throw Error(SourceLoc{option, 0, 0}, e.message());
        }
        program = std::move(a.prog_);
    }

    Program run(const std::string& text, const std::string& name, const std::string& dir) {
        prog_.path = name;
        include_stack_.push_back(path_key(name));
        parse_text(text, name, dir);
        finish(name);
        return std::move(prog_);
    }

private:
    Program prog_;
    std::vector<std::string> include_stack_;  // canonical paths of the files being read, main first
    uint64_t source_bytes_ = 0;               // text parsed so far, counting every .include
    std::map<std::string, std::string> included_;  // canonical path -> text, each file read once
    static constexpr uint64_t kIncludeCost = 4096;  // bytes one .include counts besides its text
    std::vector<PendingLabel> pending_;
    std::map<std::string, SourceLoc> label_locs_;
    std::map<std::string, SourceLoc> names_;  // buffers and uniforms share one namespace
    std::optional<SourceLoc> regs_loc_, grid_loc_, block_loc_, fragment_loc_, tile_loc_, local_loc_;
    uint64_t global_bytes_ = 0;
    std::unordered_map<std::string, uint32_t> buffer_index_, uniform_index_;  // name -> index  // all buffers so far, each rounded up to 256 bytes as laid out
    uint32_t max_reg_ = 0;
    bool any_reg_ = false;

    // cursor over one line's tokens
    const std::vector<Token>* toks_ = nullptr;
    size_t pos_ = 0;
    SourceLoc line_loc_;

    // ---- token cursor helpers
    bool at_end() const { return pos_ >= toks_->size(); }
    const Token& peek() const {
        static const Token end{};
        return at_end() ? end : (*toks_)[pos_];
    }
    SourceLoc loc_here() const {
        SourceLoc l = line_loc_;
        l.col = at_end() ? (toks_->empty() ? 1 : toks_->back().col + uint32_t(toks_->back().text.size()))
                         : peek().col;
        return l;
    }
    SourceLoc loc_of(const Token& t) const { return {line_loc_.file, line_loc_.line, t.col}; }
    [[noreturn]] void fail(const std::string& msg) const { throw Error(loc_here(), msg); }
    bool accept(const char* punct) {
        if (!at_end() && peek().kind == Tok::Punct && peek().text == punct) { ++pos_; return true; }
        return false;
    }
    void expect(const char* punct, const char* what) {
        if (!accept(punct)) fail(std::string("expected '") + punct + "' " + what + found());
    }
    std::string found() const {
        if (at_end()) return ", found end of line";
        return ", found '" + peek().text + "'";
    }
    const Token& next() { return (*toks_)[pos_++]; }
    void expect_end() {
        if (!at_end()) fail("unexpected '" + peek().text + "'; expected end of line");
    }

    // ---- whole text
    // One spelling per file (a/../b.isa and ./b.isa are one), for include cycles.
    static std::string path_key(const std::string& path) {
        std::error_code ec;
        fs::path p = fs::weakly_canonical(fs::path(path), ec);
        return ec ? fs::path(path).lexically_normal().string() : p.string();
    }

    // Counts `bytes` more source text against kMaxExpandedSourceBytes.
    void count_source(uint64_t bytes, const SourceLoc& at) {
        source_bytes_ += bytes;
        if (source_bytes_ > kMaxExpandedSourceBytes)
            throw Error(at, "the program's text, counting every .include, exceeds the limit of " +
                                std::to_string(kMaxExpandedSourceBytes >> 20) + " MiB (files included too often?)");
    }

    void parse_text(const std::string& text, const std::string& name, const std::string& dir) {
        if (include_stack_.size() == 1) count_source(text.size(), {name, 0, 0});
        std::istringstream in(text);
        std::string line;
        uint32_t lineno = 0;
        while (std::getline(in, line)) {
            ++lineno;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            line_loc_ = {name, lineno, 0};
            auto toks = lex_line(line, line_loc_);
            toks_ = &toks;
            pos_ = 0;
            parse_line(line, dir);
        }
    }

    void parse_line(const std::string& raw, const std::string& dir) {
        if (at_end()) return;
        // label(s)
        while (pos_ + 1 < toks_->size() && peek().kind == Tok::Ident && (*toks_)[pos_ + 1].text == ":" &&
               (*toks_)[pos_ + 1].kind == Tok::Punct) {
            define_label(next());
            ++pos_;
        }
        if (at_end()) return;
        const Token& t = peek();
        if (t.kind == Tok::Ident && t.text[0] == '.') {
            ++pos_;
            parse_directive(t, dir);
            return;
        }
        parse_instruction(raw);
    }

    void define_label(const Token& t) {
        const std::string& name = t.text;
        if (name[0] == '.' || name[0] == '%' || name[0] == '$' || is_register_name(name))
            throw Error(loc_of(t), "'" + name + "' cannot be a label name; expected an identifier");
        auto it = label_locs_.find(name);
        if (it != label_locs_.end())
            throw Error(loc_of(t), "duplicate label '" + name + "' (first defined at " + it->second.str() + ")");
        label_locs_[name] = loc_of(t);
        prog_.labels[name] = static_cast<uint32_t>(prog_.code.size());
    }

    static bool is_register_name(const std::string& s) {
        if (s.size() > 2 && s[0] == 'u' && s[1] == 'r')
            return std::all_of(s.begin() + 2, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (s.size() < 2 || (s[0] != 'r' && s[0] != 'p')) return false;
        return std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    }

    // ---- directives
    uint64_t expect_uint(const char* what, uint64_t min, uint64_t max) {
        if (at_end() || peek().kind != Tok::Number) fail(std::string("expected ") + what + found());
        auto v = parse_number(peek().text);
        if (!v || v->is_float || v->as_int < 0)
            fail(std::string("expected ") + what + " (a non-negative integer)" + found());
        if (uint64_t(v->as_int) < min || uint64_t(v->as_int) > max)
            fail(std::string(what) + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                 ", found " + peek().text);
        ++pos_;
        return static_cast<uint64_t>(v->as_int);
    }
    double expect_real(const char* what) {
        if (at_end() || peek().kind != Tok::Number) fail(std::string("expected ") + what + found());
        auto v = parse_number(peek().text);
        if (!v) fail(std::string("expected ") + what + found());
        ++pos_;
        return v->as_double;
    }
    std::string expect_ident(const char* what) {
        if (at_end() || peek().kind != Tok::Ident) fail(std::string("expected ") + what + found());
        return next().text;
    }

    Dim3 parse_dim3(const char* what) {
        Dim3 d;
        d.x = static_cast<uint32_t>(expect_uint(what, 1, 0x7fffffff));
        if (!at_end()) d.y = static_cast<uint32_t>(expect_uint(what, 1, 65535));
        if (!at_end()) d.z = static_cast<uint32_t>(expect_uint(what, 1, 65535));
        expect_end();
        return d;
    }

    void once(std::optional<SourceLoc>& slot, const Token& t) {
        if (slot) throw Error(loc_of(t), t.text + " given twice (first at " + slot->str() + ")");
        slot = loc_of(t);
    }

    void parse_directive(const Token& d, const std::string& dir) {
        const std::string& name = d.text;
        if (name == ".kernel") {
            prog_.kernel = expect_ident("a kernel name");
            expect_end();
        } else if (name == ".grid") {
            once(grid_loc_, d);
            prog_.launch.grid = parse_dim3("grid size");
            prog_.launch.loc = loc_of(d);
        } else if (name == ".block") {
            once(block_loc_, d);
            prog_.launch.block = parse_dim3("block size");
            if (prog_.launch.block.count() > 1024)
                throw Error(loc_of(d), "block of " + std::to_string(prog_.launch.block.count()) +
                                           " threads; expected at most 1024 threads per block");
        } else if (name == ".fragment") {
            once(fragment_loc_, d);
            prog_.launch.mode = LaunchDecl::Mode::Fragment;
            prog_.launch.width = static_cast<uint32_t>(expect_uint("width in pixels", 1, 1 << 16));
            prog_.launch.height = static_cast<uint32_t>(expect_uint("height in pixels", 1, 1 << 16));
            prog_.launch.loc = loc_of(d);
            expect_end();
        } else if (name == ".tile") {
            once(tile_loc_, d);
            uint32_t w = static_cast<uint32_t>(expect_uint("tile width", 2, 32));
            uint32_t h = static_cast<uint32_t>(expect_uint("tile height", 2, 32));
            expect_end();
            if (w * h != kWarpSize || w % 2 || h % 2)
                throw Error(loc_of(d), "tile " + std::to_string(w) + "x" + std::to_string(h) +
                                           "; expected even sides with width * height = 32 (e.g. 4 8, 8 4, 2 16)");
            prog_.launch.tile_w = w;
            prog_.launch.tile_h = h;
        } else if (name == ".regs") {
            once(regs_loc_, d);
            prog_.regs_per_thread = static_cast<uint32_t>(expect_uint("registers per thread", 1, kMaxRegs));
            expect_end();
        } else if (name == ".shared") {
            prog_.shared_bytes = static_cast<uint32_t>(expect_uint("shared memory bytes per block", 0, kMaxSharedBytes));
            expect_end();
        } else if (name == ".local") {
            uint64_t b = expect_uint("local memory bytes per thread", 0, kMaxLocalBytes);
            local_loc_ = loc_of(d);
            if (b % 4) throw Error(loc_of(d), "local memory size must be a multiple of 4 bytes");
            prog_.local_bytes = static_cast<uint32_t>(b);
            expect_end();
        } else if (name == ".buffer") {
            parse_buffer(d);
        } else if (name == ".uniform") {
            parse_uniform(d);
        } else if (name == ".include") {
            if (at_end() || peek().kind != Tok::String) fail("expected a file name in quotes" + found());
            std::string file = next().text;
            expect_end();
            include_file(d, file, dir);
        } else {
            static const std::vector<std::string> known = {".kernel", ".grid",   ".block",  ".fragment", ".tile",
                                                           ".regs",   ".shared", ".local",  ".buffer",   ".uniform",
                                                           ".include"};
            throw Error(loc_of(d), "unknown directive '" + name + "'" + suggest(name, known) +
                                       "; expected one of .kernel .grid .block .fragment .tile .regs .shared "
                                       ".local .buffer .uniform .include");
        }
    }

    void include_file(const Token& d, const std::string& file, const std::string& dir) {
        const fs::path p = fs::path(dir) / file;
        const SourceLoc at = loc_of(d);
        if (include_stack_.size() > kMaxIncludeDepth)
            throw Error(at, ".include nested deeper than " + std::to_string(kMaxIncludeDepth) + " files");
        const std::string key = path_key(p.string());
        auto again = std::find(include_stack_.begin(), include_stack_.end(), key);
        if (again != include_stack_.end())
            throw Error(at, "include cycle: '" + p.string() + "' is already being read" +
                                (again == include_stack_.begin() ? " (it is the main file)" : ""));
        auto cached = included_.find(key);
        if (cached == included_.end())
            cached = included_.emplace(key, read_text_file(p.string(), "included file", kMaxTraceFileBytes, &at)).first;
        const std::string& text = cached->second;
        count_source(kIncludeCost + text.size(), at);
        auto saved_toks = toks_;
        auto saved_pos = pos_;
        auto saved_loc = line_loc_;
        include_stack_.push_back(key);
        parse_text(text, p.string(), p.parent_path().string());
        include_stack_.pop_back();
        toks_ = saved_toks;
        pos_ = saved_pos;
        line_loc_ = saved_loc;
    }

    void declare_name(const std::string& n, const Token& at) {
        auto it = names_.find(n);
        if (it != names_.end())
            throw Error(loc_of(at), "'" + n + "' already declared at " + it->second.str());
        names_[n] = loc_of(at);
    }

    ElemType parse_type() {
        std::string t = expect_ident("an element type (u32, i32, f32 or f64)");
        if (t == "u32") return ElemType::U32;
        if (t == "i32") return ElemType::I32;
        if (t == "f32") return ElemType::F32;
        if (t == "f64") return ElemType::F64;
        --pos_;
        fail("unknown element type '" + t + "'; expected u32, i32, f32 or f64");
    }

    void parse_buffer(const Token& d) {
        BufferDecl b;
        b.loc = loc_of(d);
        Token name_tok = peek();
        b.name = expect_ident("a buffer name");
        declare_name(b.name, name_tok);
        b.type = parse_type();
        // COUNT or WxH (lexed as one number token like "64x64", or a hex-looking token)
        if (at_end() || peek().kind != Tok::Number) fail("expected an element count or WxH" + found());
        std::string c = peek().text;
        size_t x = c.find('x');
        if (x != std::string::npos && c.rfind("0x", 0) != 0) {
            auto w = parse_number(c.substr(0, x)), h = parse_number(c.substr(x + 1));
            if (!w || !h || w->is_float || h->is_float || w->as_int < 1 || h->as_int < 1 || w->as_int > 65536 ||
                h->as_int > 65536)
                fail("expected a 2D size WxH with 1 <= W, H <= 65536, found '" + c + "'");
            ++pos_;
            b.width = static_cast<uint32_t>(w->as_int);
            b.height = static_cast<uint32_t>(h->as_int);
            b.count = uint64_t(b.width) * b.height;
        } else {
            b.count = expect_count();
        }
        check_buffer_size(b, name_tok);
        parse_init(b);
        expect_end();
        buffer_index_[b.name] = uint32_t(prog_.buffers.size());
        prog_.buffers.push_back(std::move(b));
    }

    // An element count: a whole number >= 1 (its size is checked by check_buffer_size).
    uint64_t expect_count() {
        const std::string& t = peek().text;
        char* end = nullptr;
        errno = 0;
        const unsigned long long n = std::strtoull(t.c_str(), &end, 10);
        if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0])) || *end != '\0' || errno == ERANGE || n == 0)
            fail("expected an element count (a whole number >= 1) or WxH" + found());
        ++pos_;
        return n;
    }

    void check_buffer_size(const BufferDecl& b, const Token& name_tok) {
        const uint64_t per = elem_bytes(b.type);
        if (b.count > kMaxBufferBytes / per)
            throw Error(loc_of(name_tok), "buffer '" + b.name + "' of " + std::to_string(b.count) + " elements x " +
                                              std::to_string(per) + " bytes is larger than the limit of " +
                                              std::to_string(kMaxBufferBytes >> 20) + " MiB per buffer");
        global_bytes_ += std::max<uint64_t>((b.bytes() + 255) / 256 * 256, 256);
        if (global_bytes_ > kMaxGlobalBytes)
            throw Error(loc_of(name_tok), "buffer '" + b.name + "' brings the buffers to " +
                                              std::to_string(global_bytes_) + " bytes, more than the limit of " +
                                              std::to_string(kMaxGlobalBytes >> 20) + " MiB in all");
    }

    static std::string real_text(double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", v);
        return buf;
    }

    // MIN and MAX of a random initialiser must be representable in the buffer's
    // type (integers: within +-2^32, where values wrap modulo 2^32).
    void check_random_range(const BufferDecl& b, const SourceLoc& at) {
        const double lo = b.init.a, hi = b.init.b;
        double bound = 4294967296.0;
        const char* what = "+-2^32 for an integer buffer";
        if (b.type == ElemType::F32) bound = double(std::numeric_limits<float>::max()), what = "+-3.4e38 (the f32 range)";
        if (b.type == ElemType::F64) bound = std::numeric_limits<double>::max(), what = "the f64 range, MAX - MIN included";
        const bool ok = std::isfinite(lo) && std::isfinite(hi) && std::fabs(lo) <= bound && std::fabs(hi) <= bound &&
                        std::isfinite(hi - lo);
        if (!ok) throw Error(at, "random range [" + real_text(lo) + ", " + real_text(hi) +
                                     ") out of range; expected MIN and MAX within " + what);
    }

    void parse_init(BufferDecl& b) {
        std::string k = expect_ident("an initialiser (zero, iota, const, random, perm, file or data)");
        BufferInit& in = b.init;
        if (k == "zero") {
            in.kind = BufferInit::Kind::Zero;
        } else if (k == "iota") {
            in.kind = BufferInit::Kind::Iota;
            in.a = 0;
            in.b = 1;
            if (!at_end()) in.a = expect_real("an iota start value");
            if (!at_end()) in.b = expect_real("an iota step");
        } else if (k == "const") {
            in.kind = BufferInit::Kind::Const;
            in.a = expect_real("a constant value");
        } else if (k == "random") {
            in.kind = BufferInit::Kind::Random;
            in.seed = expect_uint("a random seed", 0, std::numeric_limits<uint32_t>::max());
            in.a = 0;
            in.b = 1;
            if (!at_end()) {
                const SourceLoc at = loc_here();
                in.a = expect_real("a minimum value");
                in.b = expect_real("a maximum value");
                if (!(in.b > in.a)) fail("random range needs MIN < MAX");
                check_random_range(b, at);
            }
        } else if (k == "perm") {
            in.kind = BufferInit::Kind::Perm;
            in.seed = expect_uint("a permutation seed", 0, std::numeric_limits<uint32_t>::max());
            if (b.type == ElemType::F32 || b.type == ElemType::F64)
                fail("a perm buffer holds indices; expected element type u32 or i32");
        } else if (k == "file") {
            in.kind = BufferInit::Kind::File;
            if (at_end() || peek().kind != Tok::String) fail("expected a CSV file name in quotes" + found());
            in.path = next().text;
            fs::path p(in.path);
            if (p.is_relative()) in.path = (fs::path(include_dir()) / p).string();
        } else if (k == "data") {   // data V1 ... VCOUNT: a small table (an imported kernel's __device__ array)
            in.kind = BufferInit::Kind::Data;
            if (b.count > kMaxDataValues)
                fail("a data buffer holds at most " + std::to_string(kMaxDataValues) + " values; use file for more");
            while (!at_end()) in.values.push_back(expect_real("a value"));
            if (in.values.size() != b.count)
                fail("data gives " + std::to_string(in.values.size()) + " values; the buffer has " + std::to_string(b.count));
        } else {
            --pos_;
            fail("unknown initialiser '" + k + "'; expected zero, iota, const, random, perm, file or data");
        }
    }

    std::string include_dir() const {
        return fs::path(line_loc_.file).parent_path().string();
    }

    void parse_uniform(const Token& d) {
        UniformDecl u;
        u.loc = loc_of(d);
        Token name_tok = peek();
        u.name = expect_ident("a uniform name");
        declare_name(u.name, name_tok);
        u.type = parse_type();
        if (u.type == ElemType::F64) { --pos_; fail("uniforms are 32-bit; expected u32, i32 or f32"); }
        if (at_end() || peek().kind != Tok::Number) fail("expected the uniform's value" + found());
        auto v = parse_number(peek().text);
        if (!v) fail("expected a number, found '" + peek().text + "'");
        ++pos_;
        if (u.type == ElemType::F32) {
            float f = static_cast<float>(v->as_double);
            std::memcpy(&u.bits, &f, 4);
        } else {
            if (v->is_float) { --pos_; fail("expected an integer for a " + std::string(u.type == ElemType::U32 ? "u32" : "i32") + " uniform"); }
            u.bits = v->bits;
        }
        expect_end();
        uniform_index_[u.name] = uint32_t(prog_.uniforms.size());
        prog_.uniforms.push_back(std::move(u));
    }

    // ---- instructions
    const OpInfo* lookup(const std::string& mnemonic, Cmp& cmp) {
        static const std::unordered_map<std::string, const OpInfo*> by_name = [] {
            std::unordered_map<std::string, const OpInfo*> m;
            for (const auto& i : op_table()) m[std::string(i.mnemonic)] = &i;
            return m;
        }();
        cmp = Cmp::None;
        if (auto it = by_name.find(mnemonic); it != by_name.end()) return it->second;
        size_t dot = mnemonic.rfind('.');
        if (dot == std::string::npos) return nullptr;
        auto base = by_name.find(mnemonic.substr(0, dot));
        if (base == by_name.end()) return nullptr;
        Op op = base->second->op;
        if (!takes_cmp(op)) return nullptr;
        static const std::map<std::string, Cmp> cmps = {{"lt", Cmp::Lt}, {"le", Cmp::Le}, {"gt", Cmp::Gt},
                                                        {"ge", Cmp::Ge}, {"eq", Cmp::Eq}, {"ne", Cmp::Ne}};
        auto c = cmps.find(mnemonic.substr(dot + 1));
        if (c == cmps.end()) return nullptr;
        cmp = c->second;
        return base->second;
    }

    static std::vector<std::string> all_mnemonics() {
        std::vector<std::string> v;
        for (const auto& i : op_table()) v.emplace_back(i.mnemonic);
        return v;
    }

    void parse_instruction(const std::string& raw) {
        Instruction in;
        in.loc = loc_here();
        if (accept("@")) {
            bool neg = accept("!");
            if (at_end() || peek().kind != Tok::Ident) fail("expected a guard predicate after '@'" + found());
            const Token& pt = next();
            int p = pred_index(pt.text);
            if (p < 0) throw Error(loc_of(pt), "expected a predicate p0..p6 or pt as guard, found '" + pt.text + "'");
            in.guard = static_cast<int8_t>(p);
            in.guard_negate = neg;
        }
        if (at_end() || peek().kind != Tok::Ident) fail("expected an instruction mnemonic" + found());
        const Token& mt = next();
        Cmp cmp;
        const OpInfo* op = lookup(mt.text, cmp);
        if (!op) {
            std::string msg = "unknown opcode '" + clip(mt.text) + "'" + suggest(mt.text, all_mnemonics());
            throw Error(loc_of(mt), msg + "; see isa/README.md for the instruction list");
        }
        bool needs_cmp = takes_cmp(op->op);
        if (needs_cmp && cmp == Cmp::None)
            throw Error(loc_of(mt), std::string(op->mnemonic) + " needs a comparison: " + std::string(op->mnemonic) +
                                        ".lt, .le, .gt, .ge, .eq or .ne");
        in.op = op->op;
        in.cmp = cmp;
        in.loc = loc_of(mt);
        if (in.guard >= 0) in.loc.col = (*toks_)[0].col;
        parse_operands(in, *op, mt);
        size_t start = raw.find_first_not_of(" \t");
        size_t end = raw.find_first_of(";");
        size_t slash = raw.find("//");
        end = std::min(end, slash);
        std::string text = raw.substr(start == std::string::npos ? 0 : start,
                                      end == std::string::npos ? std::string::npos : end - start);
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
        if (prog_.code.size() >= kMaxInstructions)
            throw Error(in.loc, "more than " + std::to_string(kMaxInstructions) +
                                    " instructions (counting every .include); that is the limit of a program");
        prog_.code.push_back(in);
        prog_.text.push_back(text);
    }

    static int pred_index(const std::string& s) {
        if (s == "pt") return int(kPredTrue);
        if (s.size() == 2 && s[0] == 'p' && s[1] >= '0' && s[1] < char('0' + kNumPreds)) return s[1] - '0';
        return -1;
    }

    // Parses "rN"; returns -1 if the token is not a register name at all.
    int reg_index(const Token& t) {
        const std::string& s = t.text;
        if (s.size() < 2 || s[0] != 'r' ||
            !std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return -1;
        if (s.size() > 4) throw Error(loc_of(t), "register '" + s + "' out of range; expected r0..r254");
        int r = std::stoi(s.substr(1));
        if (r >= int(kMaxRegs)) throw Error(loc_of(t), "register '" + s + "' out of range; expected r0..r254");
        return r;
    }

    // Parses "rN.64" (a flat address pair rN:rN+1, N < 254); returns -1 if the token is not one.
    int flat_index(const Token& t) {
        const std::string& s = t.text;
        if (s.size() < 5 || s.compare(s.size() - 3, 3, ".64") != 0) return -1;
        Token r = t;
        r.text = s.substr(0, s.size() - 3);
        const int n = reg_index(r);
        if (n + 1 >= int(kMaxRegs)) throw Error(loc_of(t), "register pair '" + s + "' out of range; expected r0.64..r253.64");
        return n;
    }

    // Parses "urN"; returns -1 if the token is not a uniform register name at all.
    int ureg_index(const Token& t) {
        const std::string& s = t.text;
        if (s.size() < 3 || s[0] != 'u' || s[1] != 'r' ||
            !std::all_of(s.begin() + 2, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return -1;
        if (s.size() > 4 || std::stoi(s.substr(2)) >= int(kNumURegs))
            throw Error(loc_of(t), "uniform register '" + s + "' out of range; expected ur0..ur" + std::to_string(kNumURegs - 1));
        return std::stoi(s.substr(2));
    }

    void note_reg(int r, int width) {
        any_reg_ = true;
        max_reg_ = std::max<uint32_t>(max_reg_, uint32_t(r + width - 1));
    }

    static const char* kind_words(char k) {
        switch (k) {
            case 'R': return "a destination register rN";
            case 'P': return "a destination predicate p0..p6";
            case 'D': return "an even register rN holding an fp64 pair rN:rN+1";
            case 'E': return "an even register rN holding an fp64 pair rN:rN+1";
            case 'W': return "the first of 4 consecutive registers rN..rN+3";
            case 'X': return "the first of 4 consecutive registers rN..rN+3";
            case 'V': return "a value: register, immediate, %special or $uniform";
            case 'F': return "an fp32 value: register, immediate or $uniform, optionally -x, |x| or -|x|";
            case 'G': return "an fp64 value: an even register rN (the pair rN:rN+1), an even uniform register urN, or an immediate";
            case 'K': return "a truth table: an integer 0..255 (0x80 = a & b & c, 0x96 = a ^ b ^ c)";
            case 'S': return "a shift: an integer 0..31";
            case 'U': return "a destination uniform register ur0..ur62";
            case 'N': return "a uniform value: urN, an immediate, a $uniform or a per-warp %special "
                             "(%ctaid.*, %ntid.*, %nctaid.*, %warpid, %smid, %clock)";
            case 'Q': return "a predicate p0..p6, pt, or !pN";
            case 'M': return "a memory operand [buffer + rI*S + offset]";
            case 'L': return "a label";
            case 'T': return "a 2D buffer name";
        }
        return "an operand";
    }

    void parse_operands(Instruction& in, const OpInfo& op, const Token& mt) {
        std::vector<char> kinds;
        for (char c : op.signature)
            if (c != ',') kinds.push_back(c);
        size_t count = 0;
        if (!at_end()) {
            while (true) {
                if (count >= kinds.size()) {
                    fail(std::string(op.mnemonic) + " takes " + std::to_string(kinds.size()) + " operand" +
                         (kinds.size() == 1 ? "" : "s") + " (" + std::string(op.signature.empty() ? "none" : op.signature) +
                         "); found more");
                }
                in.ops[count] = parse_operand(kinds[count], op, count);
                ++count;
                if (at_end()) break;
                expect(",", "between operands");
            }
        }
        if (count < kinds.size())
            throw Error(loc_here(), std::string(op.mnemonic) + " takes " + std::to_string(kinds.size()) +
                                        " operand" + (kinds.size() == 1 ? "" : "s") + " (" +
                                        std::string(op.signature) + "), found " + std::to_string(count) +
                                        "; operand " + std::to_string(count + 1) + " should be " +
                                        kind_words(kinds[count]));
        in.nops = static_cast<uint8_t>(count);
        (void)mt;
    }

    Operand parse_operand(char kind, const OpInfo& op, size_t index) {
        if (at_end()) fail(std::string("expected ") + kind_words(kind) + found());
        const Token& t = peek();
        SourceLoc at = loc_of(t);
        auto wrong = [&](const std::string& what) -> Operand {
            throw Error(at, "operand " + std::to_string(index + 1) + " of " + std::string(op.mnemonic) +
                                ": expected " + kind_words(kind) + ", found " + what);
        };
        Operand o;
        switch (kind) {
            case 'R': case 'D': case 'W': case 'E': case 'X': {
                if (t.kind != Tok::Ident) return wrong("'" + t.text + "'");
                int r = reg_index(t);
                if (r < 0) return wrong("'" + t.text + "'");
                int width = (kind == 'D' || kind == 'E') ? 2 : (kind == 'W' || kind == 'X') ? 4 : 1;
                if (width == 2 && r % 2) throw Error(at, "fp64 register pair must start at an even register, found '" + t.text + "'");
                if (r + width - 1 >= int(kMaxRegs))
                    throw Error(at, "register range r" + std::to_string(r) + "..r" + std::to_string(r + width - 1) +
                                        " out of range; expected registers up to r254");
                ++pos_;
                note_reg(r, width);
                o.kind = OperandKind::Reg;
                o.value = uint32_t(r);
                return o;
            }
            case 'P': {
                if (t.kind != Tok::Ident || pred_index(t.text) < 0 || t.text == "pt") return wrong("'" + t.text + "'");
                ++pos_;
                o.kind = OperandKind::Pred;
                o.value = uint32_t(pred_index(t.text));
                return o;
            }
            case 'Q': {
                bool neg = accept("!");
                if (at_end() || peek().kind != Tok::Ident || pred_index(peek().text) < 0)
                    return wrong(at_end() ? "end of line" : "'" + peek().text + "'");
                o.kind = OperandKind::Pred;
                o.negate = neg;
                o.value = uint32_t(pred_index(next().text));
                return o;
            }
            case 'V': return parse_vector_value(op, index, wrong);
            case 'F': return parse_fp32_value(op, index, wrong);
            case 'U': return parse_uniform_dst(wrong);
            case 'N': {
                o = parse_value(t, wrong);
                if (!is_uniform_value(o)) return wrong("'" + t.text + "', which differs between lanes");
                return o;
            }
            case 'G': return parse_fp64_value(wrong);
            case 'K': case 'S': return parse_small_immediate(kind, op, index);
            case 'M': {
                o = parse_mem(op, wrong);
                if (op.pipe == Pipe::Uniform && o.mem.index_reg >= 0)
                    throw Error(at, std::string(op.mnemonic) + " reads a uniform address: [buffer + offset], no register");
                return o;
            }
            case 'L': {
                if (t.kind != Tok::Ident || t.text[0] == '%' || t.text[0] == '$' || t.text[0] == '.')
                    return wrong("'" + t.text + "'");
                ++pos_;
                o.kind = OperandKind::Label;
                pending_.push_back({t.text, at, prog_.code.size(), index});
                return o;
            }
            case 'T': {
                if (t.kind != Tok::Ident) return wrong("'" + t.text + "'");
                int b = find_buffer(t.text);
                if (b < 0) throw Error(at, "unknown buffer '" + t.text + "'; declare it with .buffer before use");
                if (prog_.buffers[b].width == 0)
                    throw Error(at, "buffer '" + t.text + "' is not 2D; tex needs a buffer declared with WxH");
                if (prog_.buffers[b].type != ElemType::F32 && prog_.buffers[b].type != ElemType::U32 &&
                    prog_.buffers[b].type != ElemType::I32)
                    throw Error(at, "tex reads 32-bit texels; buffer '" + t.text + "' is f64");
                ++pos_;
                o.kind = OperandKind::Buffer;
                o.value = uint32_t(b);
                return o;
            }
        }
        return wrong("'" + t.text + "'");
    }

    // A value operand (V): no source modifiers; %clock64 only for cs2r.
    template <class Wrong>
    Operand parse_vector_value(const OpInfo& op, size_t index, Wrong& wrong) {
        const Token& t = peek();
        const SourceLoc at = loc_of(t);
        if (t.kind == Tok::Punct && (t.text == "-" || t.text == "|"))
            throw Error(at, "operand " + std::to_string(index + 1) + " of " + std::string(op.mnemonic) +
                                ": source modifiers (-x, |x|, -|x|) apply to fp32 operands only (fadd, fsub, "
                                "fmul, ffma, fmin, fmax, fabs, fneg, fsetp)");
        Operand o = parse_value(t, wrong);
        if (o.kind == OperandKind::Special && o.value == uint32_t(Special::Clock64) && op.op != Op::Cs2r)
            throw Error(at, "%clock64 is 64 bits: read it with cs2r rD, %clock64 (or use %clock, its low 32 bits)");
        return o;
    }

    // A uniform destination register urN (U).
    template <class Wrong>
    Operand parse_uniform_dst(Wrong& wrong) {
        const Token& t = peek();
        const int u = t.kind == Tok::Ident ? ureg_index(t) : -1;
        if (u < 0) return wrong("'" + t.text + "'");
        ++pos_;
        Operand o;
        o.kind = OperandKind::UReg;
        o.value = uint32_t(u);
        return o;
    }

    // An fp32 source with optional modifiers: -x, |x|, -|x|. On an immediate or a
    // uniform they are folded into its bits; a %special takes none.
    template <class Wrong>
    Operand parse_fp32_value(const OpInfo& op, size_t index, Wrong& wrong) {
        const SourceLoc at = loc_here();
        const bool neg = accept("-");
        const bool abs = accept("|");
        if (at_end()) fail(std::string("expected ") + kind_words('F') + found());
        Operand o = parse_value(peek(), wrong);
        if (abs) expect("|", "closing the absolute value |x|");
        if (!neg && !abs) return o;
        if (o.kind == OperandKind::Special)
            throw Error(at, "operand " + std::to_string(index + 1) + " of " + std::string(op.mnemonic) +
                                ": a %special value takes no source modifier; expected a register, immediate or $uniform");
        if (o.kind == OperandKind::Imm) {
            if (abs) o.value &= 0x7fffffffu;
            if (neg) o.value ^= 0x80000000u;
            return o;
        }
        o.fabs = abs;
        o.fneg = neg;
        return o;
    }

    // An fp64 source: an even register (the pair) or an immediate read as an fp64 value.
    template <class Wrong>
    Operand parse_fp64_value(Wrong& wrong) {
        const Token& t = peek();
        Operand o;
        if (t.kind == Tok::Number) {
            auto v = parse_number(t.text);
            if (!v) throw Error(loc_of(t), "bad number '" + t.text + "'; expected an fp64 value");
            const double d = v->is_float ? parse_double(t.text) : v->as_double;
            uint64_t b;
            std::memcpy(&b, &d, 8);
            ++pos_;
            o.kind = OperandKind::Imm;
            o.fp = o.wide = true;
            o.value = uint32_t(b);
            o.hi = uint32_t(b >> 32);
            return o;
        }
        if (const int u = t.kind == Tok::Ident ? ureg_index(t) : -1; u >= 0) {   // a uniform pair urN:urN+1 (SASS DFMA R, R, UR)
            if (u % 2 || u + 1 >= int(kNumURegs))
                throw Error(loc_of(t), "fp64 uniform pair must start at an even uniform register below ur62, found '" + t.text + "'");
            ++pos_;
            o.kind = OperandKind::UReg;
            o.value = uint32_t(u);
            return o;
        }
        if (t.kind != Tok::Ident || reg_index(t) < 0) return wrong("'" + t.text + "'");
        const int r = reg_index(t);
        if (r % 2) throw Error(loc_of(t), "fp64 register pair must start at an even register, found '" + t.text + "'");
        if (r + 1 >= int(kMaxRegs))
            throw Error(loc_of(t), "register range r" + std::to_string(r) + "..r" + std::to_string(r + 1) +
                                       " out of range; expected registers up to r254");
        ++pos_;
        note_reg(r, 2);
        o.kind = OperandKind::Reg;
        o.value = uint32_t(r);
        return o;
    }

    // A float literal at full double precision (parse_number rounds it to fp32).
    static double parse_double(std::string body) {
        if (!body.empty() && body.back() == 'f') body.pop_back();
        return std::strtod(body.c_str(), nullptr);
    }

    // lop3's truth table (K: 0..255) or a shift (S: 0..31).
    Operand parse_small_immediate(char kind, const OpInfo& op, size_t index) {
        const uint64_t max = kind == 'K' ? 255 : 31;
        const Token& t = peek();
        auto v = t.kind == Tok::Number ? parse_number(t.text) : std::nullopt;
        if (!v || v->is_float || v->as_int < 0 || uint64_t(v->as_int) > max)
            throw Error(loc_of(t), "operand " + std::to_string(index + 1) + " of " + std::string(op.mnemonic) +
                                       ": expected " + kind_words(kind) + ", found '" + t.text + "'");
        ++pos_;
        Operand o;
        o.kind = OperandKind::Imm;
        o.value = uint32_t(v->as_int);
        return o;
    }

    // One value for the whole warp: what a uniform instruction may read.
    static bool is_uniform_value(const Operand& o) {
        if (o.kind == OperandKind::Imm || o.kind == OperandKind::Uniform || o.kind == OperandKind::UReg) return true;
        if (o.kind != OperandKind::Special) return false;
        switch (Special(o.value)) {
            case Special::LaneId: case Special::TidX: case Special::TidY: case Special::TidZ:
            case Special::PixelX: case Special::PixelY: case Special::Clock64: return false;
            default: return true;
        }
    }

    int find_buffer(const std::string& n) const {
        auto it = buffer_index_.find(n);
        return it == buffer_index_.end() ? -1 : int(it->second);
    }

    template <class Wrong>
    Operand parse_value(const Token& t, Wrong& wrong) {
        Operand o;
        SourceLoc at = loc_of(t);
        if (t.kind == Tok::Number) {
            auto v = parse_number(t.text);
            if (!v) throw Error(at, "bad number '" + t.text + "'; expected a 32-bit integer or a float");
            ++pos_;
            o.kind = OperandKind::Imm;
            o.value = v->bits;
            o.fp = v->is_float;
            return o;
        }
        if (t.kind != Tok::Ident) return wrong("'" + t.text + "'");
        if (t.text[0] == '%') {
            static const std::map<std::string, Special> sp = {
                {"%laneid", Special::LaneId},   {"%warpid", Special::WarpId},   {"%tid.x", Special::TidX},
                {"%tid.y", Special::TidY},      {"%tid.z", Special::TidZ},      {"%ctaid.x", Special::CtaidX},
                {"%ctaid.y", Special::CtaidY},  {"%ctaid.z", Special::CtaidZ},  {"%ntid.x", Special::NtidX},
                {"%ntid.y", Special::NtidY},    {"%ntid.z", Special::NtidZ},    {"%nctaid.x", Special::NctaidX},
                {"%nctaid.y", Special::NctaidY}, {"%nctaid.z", Special::NctaidZ}, {"%pixel.x", Special::PixelX},
                {"%pixel.y", Special::PixelY},  {"%clock", Special::Clock},     {"%clock64", Special::Clock64},
                {"%smid", Special::SmId}};
            auto it = sp.find(t.text);
            if (it == sp.end()) {
                std::vector<std::string> names;
                for (auto& [k, v] : sp) names.push_back(k);
                throw Error(at, "unknown special value '" + t.text + "'" + suggest(t.text, names) +
                                    "; expected %laneid, %warpid, %tid.x/y/z, %ctaid.x/y/z, %ntid.x/y/z, "
                                    "%nctaid.x/y/z, %pixel.x/y, %clock, %clock64, %smid");
            }
            ++pos_;
            o.kind = OperandKind::Special;
            o.value = uint32_t(it->second);
            return o;
        }
        if (t.text[0] == '$') {
            auto it = uniform_index_.find(t.text.substr(1));
            if (it != uniform_index_.end()) {
                ++pos_;
                o.kind = OperandKind::Uniform;
                o.value = it->second;
                return o;
            }
            throw Error(at, "unknown uniform '" + t.text + "'; declare it with .uniform before use");
        }
        if (const int u = ureg_index(t); u >= 0) {
            ++pos_;
            o.kind = OperandKind::UReg;
            o.value = uint32_t(u);
            return o;
        }
        int r = reg_index(t);
        if (r < 0) return wrong("'" + t.text + "'");
        ++pos_;
        note_reg(r, 1);
        o.kind = OperandKind::Reg;
        o.value = uint32_t(r);
        return o;
    }

    template <class Wrong>
    Operand parse_mem(const OpInfo& op, Wrong& wrong) {
        Operand o;
        o.kind = OperandKind::Mem;
        const Token& open = peek();
        SourceLoc at = loc_of(open);
        if (!accept("[")) return wrong("'" + open.text + "'");
        bool first = true;
        int64_t offset = 0;
        while (true) {
            int sign = 1;
            if (!first) {
                if (accept("]")) break;
                if (accept("-")) sign = -1;
                else expect("+", "or ']' in the memory operand");
            }
            first = false;
            if (at_end()) fail("expected a buffer, register or offset in the memory operand" + found());
            const Token& t = next();
            if (t.kind == Tok::Number) {
                auto v = parse_number(t.text);
                if (!v || v->is_float)
                    throw Error(loc_of(t), "expected an integer byte offset, found '" + t.text + "'");
                offset += sign * v->as_int;
            } else if (t.kind == Tok::Ident && flat_index(t) >= 0) {
                if (sign < 0 || o.mem.index_reg >= 0 || o.mem.buffer >= 0)
                    throw Error(loc_of(t), "a flat address [rN.64 + offset] takes one register pair and an offset");
                if (op.space != Space::Global)
                    throw Error(loc_of(t), std::string(op.mnemonic) + " cannot take a flat address; only global accesses do");
                int r = flat_index(t);
                note_reg(r, 2);
                o.mem.index_reg = int16_t(r);
                o.mem.flat = true;
            } else if (t.kind == Tok::Ident && reg_index(t) >= 0) {
                if (o.mem.flat) throw Error(loc_of(t), "a flat address [rN.64 + offset] takes no other register");
                if (sign < 0) throw Error(loc_of(t), "a register in a memory operand cannot be subtracted");
                if (o.mem.index_reg >= 0) throw Error(loc_of(t), "at most one register in a memory operand");
                int r = reg_index(t);
                note_reg(r, 1);
                o.mem.index_reg = int16_t(r);
                if (accept("*")) {
                    const Token& s = peek();
                    uint64_t sc = expect_uint("a scale", 1, 16);
                    if (sc != 1 && sc != 2 && sc != 4 && sc != 8 && sc != 16)
                        throw Error(loc_of(s), "scale must be 1, 2, 4, 8 or 16, found " + s.text);
                    o.mem.scale = uint8_t(sc);
                }
            } else if (t.kind == Tok::Ident) {
                if (sign < 0 || o.mem.buffer >= 0)
                    throw Error(loc_of(t), "a memory operand names at most one buffer, first");
                int b = find_buffer(t.text);
                if (b < 0) throw Error(loc_of(t), "unknown buffer '" + t.text + "'; declare it with .buffer before use");
                o.mem.buffer = b;
            } else {
                throw Error(loc_of(t), "unexpected '" + t.text + "' in memory operand");
            }
        }
        if (offset < std::numeric_limits<int32_t>::min() || offset > std::numeric_limits<int32_t>::max())
            throw Error(at, "memory offset out of 32-bit range");
        o.mem.offset = int32_t(offset);
        bool needs_buffer = op.space == Space::Global || op.space == Space::Const;
        if (needs_buffer && o.mem.buffer < 0 && !o.mem.flat)
            throw Error(at, std::string(op.mnemonic) + " needs a buffer in its address, e.g. [data + r1*4]");
        if (!needs_buffer && o.mem.buffer >= 0)
            throw Error(at, std::string(op.mnemonic) + " addresses " +
                                (op.space == Space::Shared ? "shared" : "local") +
                                " memory by offset; a buffer name is not allowed here");
        return o;
    }

    // ---- second pass
    void finish(const std::string& name) {
        for (const auto& p : pending_) {
            auto it = prog_.labels.find(p.name);
            if (it == prog_.labels.end()) {
                std::vector<std::string> names;
                for (auto& [k, v] : prog_.labels) names.push_back(k);
                throw Error(p.loc, "undefined label '" + clip(p.name) + "'" + suggest(p.name, names));
            }
            prog_.code[p.instr].ops[p.operand].value = it->second;
        }
        for (const auto& [label, pc] : prog_.labels)
            if (pc >= prog_.code.size())
                throw Error(label_locs_[label], "label '" + label + "' is at the end of the program; expected an instruction after it");
        if (prog_.code.empty()) throw Error({name, 0, 0}, "no instructions; a kernel needs at least one instruction");
        bool compute = grid_loc_ || block_loc_;
        if (compute && fragment_loc_)
            throw Error(*fragment_loc_, ".fragment conflicts with .grid/.block given at " +
                                            (grid_loc_ ? grid_loc_ : block_loc_)->str() + "; a launch is one or the other");
        if (!compute && !fragment_loc_)
            throw Error({name, 1, 0}, "no launch; expected .grid and .block (compute) or .fragment W H");
        if (compute && !grid_loc_) throw Error(*block_loc_, ".block without .grid; expected both");
        if (compute && !block_loc_) throw Error(*grid_loc_, ".grid without .block; expected both");
        if (tile_loc_ && !fragment_loc_) throw Error(*tile_loc_, ".tile applies to .fragment launches only");
        check_local_per_block();
        if (prog_.kernel.empty()) prog_.kernel = fs::path(name).stem().string();
        uint32_t used = any_reg_ ? max_reg_ + 1 : 1;
        if (prog_.regs_per_thread == 0) {
            prog_.regs_per_thread = used;
        } else if (used > prog_.regs_per_thread) {
            for (const auto& in : prog_.code)
                check_regs_fit(in);
        }
        for (auto& in : prog_.code) derive_reg_use(in);
    }

    void check_local_per_block() const {
        if (local_loc_) check_local_per_block_of(prog_.local_bytes, *local_loc_);
    }

    // Every register the program names below .regs (the program's register use is derived), or an
    // imported kernel's scratch registers above it.
    void check_regs_after_override(const std::string& option) const {
        const uint32_t limit = prog_.regs_per_thread + prog_.scratch_regs;
        for (const Instruction& in : prog_.code) {
            auto check = [&](uint16_t r) {
                if (r < kPredRegBase && r >= limit)
                    throw Error(SourceLoc{option, 0, 0}, "register r" + std::to_string(r) + " (at " + in.loc.str() +
                                                             ") out of range: " + std::to_string(prog_.regs_per_thread) +
                                                             " registers allow r0..r" + std::to_string(prog_.regs_per_thread - 1));
            };
            for (int i = 0; i < in.regs.nsrc; ++i) check(in.regs.src[i]);
            for (int i = 0; i < in.regs.ndst; ++i) check(in.regs.dst[i]);
        }
    }

    void check_local_per_block_of(uint32_t local_bytes, const SourceLoc& at) const {
        if (local_bytes == 0) return;
        const uint64_t threads = prog_.launch.mode == LaunchDecl::Mode::Fragment ? kWarpSize : prog_.launch.block.count();
        const uint64_t bytes = threads * local_bytes;
        if (bytes > kMaxLocalBlockBytes)
            throw Error(at, ".local " + std::to_string(local_bytes) + " x " + std::to_string(threads) +
                                         " threads = " + std::to_string(bytes) + " bytes per block, more than the limit of " +
                                         std::to_string(kMaxLocalBlockBytes >> 20) + " MiB");
    }

    void check_regs_fit(const Instruction& in) {
        Instruction tmp = in;
        derive_reg_use(tmp);
        auto check = [&](uint16_t r) {
            if (r < kPredRegBase && r >= prog_.regs_per_thread)
                throw Error(in.loc, "register r" + std::to_string(r) + " out of range: .regs " +
                                        std::to_string(prog_.regs_per_thread) + " (at " + regs_loc_->str() +
                                        ") allows r0..r" + std::to_string(prog_.regs_per_thread - 1));
        };
        for (int i = 0; i < tmp.regs.nsrc; ++i) check(tmp.regs.src[i]);
        for (int i = 0; i < tmp.regs.ndst; ++i) check(tmp.regs.dst[i]);
    }

    static void derive_reg_use(Instruction& in) {
        RegUse ru;
        auto src = [&](uint16_t r) {
            for (int i = 0; i < ru.nsrc; ++i)
                if (ru.src[i] == r) return;
            ru.src[ru.nsrc++] = r;
        };
        auto dst = [&](uint16_t r) { ru.dst[ru.ndst++] = r; };
        if (in.guard >= 0 && in.guard != int(kPredTrue)) src(uint16_t(kPredRegBase + in.guard));
        const OpInfo& oi = info(in.op);
        size_t k = 0;
        for (char c : oi.signature) {
            if (c == ',') continue;
            const Operand& o = in.ops[k++];
            switch (c) {
                case 'R': dst(uint16_t(o.value)); break;
                case 'P': dst(uint16_t(kPredRegBase + o.value)); break;
                case 'D': dst(uint16_t(o.value)); dst(uint16_t(o.value + 1)); break;
                case 'W': for (uint32_t i = 0; i < 4; ++i) dst(uint16_t(o.value + i)); break;
                case 'E': src(uint16_t(o.value)); src(uint16_t(o.value + 1)); break;
                case 'X': for (uint32_t i = 0; i < 4; ++i) src(uint16_t(o.value + i)); break;
                case 'V': case 'F': case 'N':
                    if (o.kind == OperandKind::Reg) src(uint16_t(o.value));
                    if (o.kind == OperandKind::UReg) src(uint16_t(kURegBase + o.value));
                    break;
                case 'U': dst(uint16_t(kURegBase + o.value)); break;
                case 'G':
                    if (o.kind == OperandKind::Reg) { src(uint16_t(o.value)); src(uint16_t(o.value + 1)); }
                    if (o.kind == OperandKind::UReg) { src(uint16_t(kURegBase + o.value)); src(uint16_t(kURegBase + o.value + 1)); }
                    break;
                case 'Q': if (o.value != kPredTrue) src(uint16_t(kPredRegBase + o.value)); break;
                case 'M':
                    if (o.mem.index_reg >= 0) src(uint16_t(o.mem.index_reg));
                    if (o.mem.flat) src(uint16_t(o.mem.index_reg + 1));
                    break;
                default: break;
            }
        }
        in.regs = ru;
    }
};

}  // namespace

Program assemble_text(const std::string& text, const std::string& name, const std::string& dir) {
    if (sass::has_sass_directive(text)) return sass::import_launch(text, name, dir, {});
    Assembler a;
    return a.run(text, name, dir);
}

void override_uniform(Program& program, const std::string& assignment) {
    SourceLoc where{"--uniform " + assignment, 0, 0};
    size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) throw Error(where, "expected NAME=VALUE");
    std::string name = assignment.substr(0, eq), value = assignment.substr(eq + 1);
    for (auto& u : program.uniforms) {
        if (u.name != name) continue;
        auto v = parse_number(value);
        if (!v) throw Error(where, "expected a number for uniform '" + name + "', found '" + value + "'");
        if (u.type == ElemType::F32) {
            float f = static_cast<float>(v->as_double);
            std::memcpy(&u.bits, &f, 4);
        } else {
            if (v->is_float) throw Error(where, "uniform '" + name + "' is an integer; found '" + value + "'");
            u.bits = v->bits;
        }
        return;
    }
    std::vector<std::string> names;
    for (const auto& u : program.uniforms) names.push_back(u.name);
    throw Error(where, "the trace declares no uniform '" + name + "'" + suggest(name, names));
}

namespace {

// "4,2" -> "4 2"; the option's text as a directive's arguments.
std::string spaced(std::string s, char sep) {
    for (char& c : s)
        if (c == sep) c = ' ';
    return s;
}

}  // namespace

void override_launch(Program& program, const LaunchOverrides& o) {
    const bool compute = !o.grid.empty() || !o.block.empty();
    if (compute && !o.fragment.empty())
        throw Error(SourceLoc{"--fragment " + o.fragment, 0, 0}, "conflicts with --grid/--block; a launch is one or the other");
    if (compute && program.launch.mode == LaunchDecl::Mode::Fragment && (o.grid.empty() || o.block.empty()))
        throw Error(SourceLoc{o.grid.empty() ? "--block " + o.block : "--grid " + o.grid, 0, 0},
                    "the trace is a fragment launch: a compute launch needs both --grid and --block");
    if (!o.grid.empty()) Assembler::apply_directive(program, ".grid " + spaced(o.grid, ','), "--grid " + o.grid);
    if (!o.block.empty()) Assembler::apply_directive(program, ".block " + spaced(o.block, ','), "--block " + o.block);
    if (compute) program.launch.mode = LaunchDecl::Mode::Compute;
    if (!o.fragment.empty()) {
        const std::string wh = spaced(o.fragment, 'x');
        if (wh == o.fragment) throw Error(SourceLoc{"--fragment " + o.fragment, 0, 0}, "expected WxH, e.g. 640x480");
        Assembler::apply_directive(program, ".fragment " + wh, "--fragment " + o.fragment);
    }
    if (!o.shared.empty()) Assembler::apply_directive(program, ".shared " + o.shared, "--shared " + o.shared);
    if (!o.regs.empty()) Assembler::apply_directive(program, ".regs " + o.regs, "--regs " + o.regs);
}

Program assemble_file(const std::string& path) { return assemble_file(path, {}); }

Program assemble_file(const std::string& path, const std::vector<std::string>& sass_stubs) {
    const std::string text = read_text_file(path, "trace file", kMaxTraceFileBytes);
    const std::string dir = fs::path(path).parent_path().string();
    if (sass::has_sass_directive(text)) return sass::import_launch(text, path, dir, {sass_stubs});
    if (!sass_stubs.empty()) throw Error(SourceLoc{"--sass-stub", 0, 0}, "applies to a launch file with a .sass directive; " + path + " has none");
    return assemble_text(text, path, dir);
}

}  // namespace simt::isa
