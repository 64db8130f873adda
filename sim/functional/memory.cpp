// memory.cpp: laying out and initialising the global buffers (see memory.hpp).
//
// Random and perm initialisers use splitmix64 (Steele, Lea, Flood 2014) seeded
// with the buffer's seed, and integer ranges by a 128-bit multiply-shift, so
// the contents are identical on every platform and standard library (no
// std::*_distribution). perm builds a single cycle with Sattolo's algorithm.
// CSV files are read with the Fast C++ CSV parser (io::CSVReader), in its
// default configuration: every translation unit must include <libfccp/csv.h>
// with the same macros (CSV_IO_NO_THREAD changes class layouts: an ODR trap).
#include "sim/functional/memory.hpp"

#include "isa/limits.hpp"
#include "sim/functional/semantics.hpp"

#include <libfccp/csv.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace simt::func {
namespace {

using isa::BufferDecl;
using isa::BufferInit;
using isa::ElemType;

struct SplitMix64 {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) for n > 0.
    uint64_t below(uint64_t n) { return uint64_t((static_cast<unsigned __int128>(next()) * n) >> 64); }
    // Uniform in [0, 1) with 53 random bits.
    double unit() { return double(next() >> 11) * 0x1.0p-53; }
};

const char* type_name(ElemType t) {
    switch (t) {
    case ElemType::U32: return "u32";
    case ElemType::I32: return "i32";
    case ElemType::F32: return "f32";
    default: return "f64";
    }
}

// Stores element i of a buffer from a double (iota, const, perm) with the
// conversion of the element type: integers wrap modulo 2^32 after truncation.
void store_number(Bytes& bytes, ElemType t, uint64_t i, double v) {
    uint8_t* p = bytes.data() + i * isa::elem_bytes(t);
    if (t == ElemType::F64) { std::memcpy(p, &v, 8); return; }
    uint32_t w = 0;
    if (t == ElemType::F32) w = sem::bits(float(v));
    else if (std::isfinite(v) && std::fabs(v) < 9.0e18) w = uint32_t(int64_t(v));   // truncate, wrap
    std::memcpy(p, &w, 4);
}

void init_random(const BufferDecl& b, Bytes& bytes) {
    SplitMix64 rng{b.init.seed};
    const double lo = b.init.a, hi = b.init.b;
    if (!(hi > lo)) {
        throw Error(b.loc, "random range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                               ") of buffer '" + b.name + "' is empty");
    }
    // The assembler checks the range; a Program built otherwise is checked here,
    // so that the integer arithmetic below cannot overflow.
    const bool integer = b.type == ElemType::U32 || b.type == ElemType::I32;
    if (integer && !(std::fabs(lo) <= 4294967296.0 && std::fabs(hi) <= 4294967296.0)) {
        throw Error(b.loc, "random range of integer buffer '" + b.name + "' exceeds +-2^32");
    }
    for (uint64_t i = 0; i < b.count; ++i) {
        if (b.type == ElemType::F32 || b.type == ElemType::F64) {
            double v = lo + rng.unit() * (hi - lo);
            if (b.type == ElemType::F32) {
                float f = float(v);
                if (double(f) >= hi) f = std::nextafter(float(hi), float(lo));
                if (double(f) < lo) f = std::nextafter(float(lo), float(hi));
                v = f;
            } else if (v >= hi) {
                v = std::nextafter(hi, lo);
            }
            store_number(bytes, b.type, i, v);
        } else {
            const int64_t ilo = int64_t(std::ceil(lo)), ihi = int64_t(std::ceil(hi));
            const uint64_t span = ihi > ilo ? uint64_t(ihi - ilo) : 1;
            store_number(bytes, b.type, i, double(ilo + int64_t(rng.below(span))));
        }
    }
}

void init_perm(const BufferDecl& b, Bytes& bytes) {
    std::vector<uint64_t> next(b.count);
    for (uint64_t i = 0; i < b.count; ++i) next[i] = i;
    SplitMix64 rng{b.init.seed};
    for (uint64_t i = b.count; i > 1; --i) std::swap(next[i - 1], next[rng.below(i - 1)]);   // Sattolo
    for (uint64_t i = 0; i < b.count; ++i) store_number(bytes, b.type, i, double(next[i]));
}

// Parses one CSV cell as a value of type t into element i; false when malformed.
bool parse_cell(const char* s, ElemType t, Bytes& bytes, uint64_t i) {
    const char* end = s + std::strlen(s);
    uint8_t* p = bytes.data() + i * isa::elem_bytes(t);
    if (t == ElemType::F32 || t == ElemType::F64) {
        double v = 0;
        auto r = std::from_chars(s, end, v);
        if (r.ec != std::errc() || r.ptr != end) return false;
        if (t == ElemType::F64) std::memcpy(p, &v, 8);
        else { const uint32_t w = sem::bits(float(v)); std::memcpy(p, &w, 4); }
        return true;
    }
    int base = 10;
    if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; s += 2; }
    uint32_t w = 0;
    if (t == ElemType::I32 && base == 10) {
        int32_t v = 0;
        auto r = std::from_chars(s, end, v);
        if (r.ec != std::errc() || r.ptr != end) return false;
        w = uint32_t(v);
    } else {
        auto r = std::from_chars(s, end, w, base);
        if (r.ec != std::errc() || r.ptr != end) return false;
    }
    std::memcpy(p, &w, 4);
    return true;
}

void init_file(const BufferDecl& b, const std::string& dir, Bytes& bytes) {
    namespace fs = std::filesystem;
    // The assembler already resolves the path against the including file; a
    // path that does not exist as given is tried relative to `dir`.
    fs::path path(b.init.path);
    std::error_code ec;
    if (path.is_relative() && !fs::exists(path, ec)) path = fs::path(dir) / path;
    const std::string file = path.lexically_normal().string();
    const std::string buffer = " (.buffer " + b.name + " at " + b.loc.str() + ")";
    isa::check_input_file(file, "CSV file", isa::kMaxCsvFileBytes, &b.loc);
    try {
        io::CSVReader<1, io::trim_chars<' ', '\t'>, io::no_quote_escape<','>> csv(file);
        try {
            csv.read_header(io::ignore_no_column, "value");
        } catch (const io::error::base&) {
            throw Error(SourceLoc{file, 1, 0}, "expected the header line 'value'" + buffer);
        }
        char* cell = nullptr;
        uint64_t i = 0;
        while (csv.read_row(cell)) {
            const SourceLoc at{file, csv.get_file_line(), 0};
            if (i >= b.count)
                throw Error(at, "more rows than the " + std::to_string(b.count) + " elements of the buffer" + buffer);
            if (!cell || !parse_cell(cell, b.type, bytes, i))
                throw Error(at, std::string("expected a ") + type_name(b.type) + " value, got '" +
                                    (cell ? cell : "") + "'" + buffer);
            ++i;
        }
        if (i != b.count) {
            throw Error(SourceLoc{file, csv.get_file_line(), 0},
                        "expected " + std::to_string(b.count) + " values, the file has " + std::to_string(i) + buffer);
        }
    } catch (const io::error::base& e) {
        uint32_t line = 0;
        if (auto* l = dynamic_cast<const io::error::with_file_line*>(&e)) line = l->file_line > 0 ? uint32_t(l->file_line) : 0;
        throw Error(SourceLoc{file, line, 0}, std::string("malformed CSV: ") + e.what() + buffer);
    }
}

void init_buffer(const BufferDecl& b, const std::string& dir, Bytes& bytes) {
    switch (b.init.kind) {
    case BufferInit::Kind::Zero: break;
    case BufferInit::Kind::Iota:
        for (uint64_t i = 0; i < b.count; ++i) store_number(bytes, b.type, i, b.init.a + double(i) * b.init.b);
        break;
    case BufferInit::Kind::Const:
        for (uint64_t i = 0; i < b.count; ++i) store_number(bytes, b.type, i, b.init.a);
        break;
    case BufferInit::Kind::Random: init_random(b, bytes); break;
    case BufferInit::Kind::Perm: init_perm(b, bytes); break;
    case BufferInit::Kind::File: init_file(b, dir, bytes); break;
    case BufferInit::Kind::Data:
        for (uint64_t i = 0; i < b.count; ++i) store_number(bytes, b.type, i, b.init.values[i]);
        break;
    }
}

}  // namespace

GlobalMemory::GlobalMemory(const isa::Program& program, const std::string& trace_dir) : program_(program) {
    bases_ = isa::buffer_bases(program.buffers);
    for (const BufferDecl& b : program.buffers) {
        bytes_.emplace_back(b.bytes());
        init_buffer(b, trace_dir, bytes_.back());
    }
}

int GlobalMemory::find(uint64_t addr, uint32_t bytes) const {
    auto it = std::upper_bound(bases_.begin(), bases_.end(), addr);
    if (it == bases_.begin()) return -1;
    const int i = int(it - bases_.begin()) - 1;
    return addr + bytes <= bases_[i] + bytes_[i].size() ? i : -1;
}

void GlobalMemory::dump_csv(std::ostream& out) const {
    out << "buffer,index,value\n";
    char num[64];
    for (size_t i = 0; i < bytes_.size(); ++i) {
        const BufferDecl& b = program_.buffers[i];
        const uint8_t* p = bytes_[i].data();
        for (uint64_t k = 0; k < b.count; ++k) {
            char* end = num;
            if (b.type == ElemType::F64) {
                double v; std::memcpy(&v, p + k * 8, 8);
                end = std::to_chars(num, num + sizeof num, v).ptr;
            } else {
                uint32_t w; std::memcpy(&w, p + k * 4, 4);
                if (b.type == ElemType::F32) end = std::to_chars(num, num + sizeof num, sem::f32(w)).ptr;
                else if (b.type == ElemType::I32) end = std::to_chars(num, num + sizeof num, int32_t(w)).ptr;
                else end = std::to_chars(num, num + sizeof num, w).ptr;
            }
            out << b.name << ',' << k << ',' << std::string_view(num, size_t(end - num)) << '\n';
        }
    }
}

}  // namespace simt::func
