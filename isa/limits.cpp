// limits.cpp: checked file reading and bounded name suggestions (see limits.hpp).
#include "isa/limits.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace simt::isa {
namespace {

namespace fs = std::filesystem;

std::string size_text(uint64_t bytes) {
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

[[noreturn]] void fail(const std::string& path, const std::string& what, const SourceLoc* at,
                       const std::string& problem) {
    if (at) throw Error(*at, what + " '" + path + "': " + problem);
    throw Error(SourceLoc{path, 0, 0}, what + ": " + problem);
}

[[noreturn]] void fail_open(const std::string& path, const std::string& what, const SourceLoc* at, int err) {
    const std::string reason = err ? std::string(": ") + std::strerror(err) : std::string();
    if (at) throw Error(*at, "cannot open " + what + " '" + path + "'" + reason);
    throw Error(SourceLoc{path, 0, 0}, "cannot open " + what + reason);
}

}  // namespace

void check_input_file(const std::string& path, const std::string& what, uint64_t max_bytes, const SourceLoc* at) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) fail_open(path, what, at, ec ? ec.value() : ENOENT);
    if (fs::is_directory(st)) fail(path, what, at, "it is a directory, expected a file");
    if (!fs::is_regular_file(st)) {
        fail(path, what, at, "not a regular file (a device, pipe or socket cannot be read to its end)");
    }
    const uint64_t size = fs::file_size(path, ec);
    if (ec) fail_open(path, what, at, ec.value());
    if (size > max_bytes) {
        fail(path, what, at, std::to_string(size) + " bytes, more than the limit of " + size_text(max_bytes));
    }
}

std::string read_text_file(const std::string& path, const std::string& what, uint64_t max_bytes,
                           const SourceLoc* at) {
    check_input_file(path, what, max_bytes, at);
    std::ifstream in(path, std::ios::binary);
    if (!in) fail_open(path, what, at, errno);
    // Read at most max_bytes + 1, so a file that grew since the check is still caught.
    std::error_code ec;
    const uint64_t size = fs::file_size(path, ec);
    std::string text(size_t(std::min<uint64_t>(ec ? 0 : size, max_bytes)) + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    if (in.bad()) fail(path, what, at, "read error");
    text.resize(size_t(in.gcount()));
    if (text.size() > max_bytes) {
        fail(path, what, at, "more than the limit of " + size_text(max_bytes) + " (the file grew while read)");
    }
    return text;
}

size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t limit) {
    if (a.size() > b.size()) std::swap(a, b);
    if (b.size() - a.size() > limit) return limit + 1;
    const size_t inf = limit + 1;
    // Only cells with |i - j| <= limit can hold a distance <= limit (Ukkonen's band).
    std::vector<size_t> prev(b.size() + 1, inf), cur(b.size() + 1, inf);
    for (size_t j = 0; j <= std::min(b.size(), limit); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        const size_t lo = i > limit ? i - limit : 1, hi = std::min(b.size(), i + limit);
        std::fill(cur.begin() + long(lo - 1), cur.begin() + long(hi + 1), inf);
        if (lo == 1) cur[0] = i <= limit ? i : inf;
        size_t best = cur[lo - 1];
        for (size_t j = lo; j <= hi; ++j) {
            const size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0);
            cur[j] = std::min({sub, prev[j] + 1, cur[j - 1] + 1, inf});
            best = std::min(best, cur[j]);
        }
        if (best > limit) return inf;
        std::swap(prev, cur);
    }
    return std::min(prev[b.size()], inf);
}

std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates, size_t limit) {
    if (word.size() > kMaxNameSuggestLength) return "";
    std::string best;
    size_t best_d = limit + 1;
    for (const std::string& c : candidates) {
        const size_t d = bounded_edit_distance(word, c, std::min(limit, best_d - 1));
        if (d < best_d) {
            best_d = d;
            best = c;
        }
        if (best_d == 0) break;
    }
    return best;
}

std::string clip(std::string_view name) {
    if (name.size() <= 80) return std::string(name);
    return std::string(name.substr(0, 60)) + "... (" + std::to_string(name.size()) + " characters)";
}

}  // namespace simt::isa
