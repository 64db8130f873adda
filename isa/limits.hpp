// limits.hpp: the input limits every user can rely on, and the checked file
// reading and name suggestions that enforce them.
//
// Every file simt-sim reads (a trace, an included file, a config, a buffer's
// CSV, a timeline) must be a regular file of bounded size: /dev/zero, a FIFO
// or a directory is refused with a located error instead of read forever.
// The limits below are generous for any real kernel or machine description,
// and small enough that a hostile input ends within seconds and a few GiB of
// memory. README.md § Limits lists them; a test pins each one.
//
// Left out: limits of the timing model's config values (sim/config checks
// those) and the run-time budgets (max_warp_instructions, max_cycles).
#pragma once

#include "isa/diagnostics.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simt::isa {

// ---- assembler: sizes of a program
constexpr uint64_t kMaxTraceFileBytes = 16ull << 20;      // one trace or included file
constexpr uint64_t kMaxExpandedSourceBytes = 64ull << 20;  // all text parsed, each .include counting
                                                           // its file's size + 4 KiB
constexpr uint32_t kMaxIncludeDepth = 32;                  // nested .include files
constexpr uint32_t kMaxInstructions = 1u << 20;            // instructions after .include expansion
constexpr uint32_t kMaxNameSuggestLength = 64;             // longer names get no "did you mean"

// ---- memory a trace declares
constexpr uint64_t kMaxBufferBytes = 1ull << 30;   // one .buffer
constexpr uint64_t kMaxDataValues = 1u << 16;     // a .buffer ... data V1 V2 ... table (larger: a file)
constexpr uint64_t kMaxGlobalBytes = 2ull << 30;   // all .buffer declarations together
constexpr uint64_t kMaxSharedBytes = 1ull << 20;   // .shared per block
constexpr uint64_t kMaxLocalBytes = 512ull << 10;  // .local per thread (CUDA's limit)
constexpr uint64_t kMaxLocalBlockBytes = 64ull << 20;  // .local x threads of one block
constexpr uint64_t kMaxResidentBytes = 2ull << 30;     // .shared, .local, registers of all resident blocks

// ---- execution
constexpr uint32_t kMaxSimtStack = 1024;  // SIMT-stack entries of a warp / calls of a thread

// ---- other files
constexpr uint64_t kMaxConfigFileBytes = 1ull << 20;
constexpr uint64_t kMaxCsvFileBytes = 4ull << 30;   // a buffer's `file` initialiser

// Reads a whole file that must be a regular file of at most `max_bytes`.
// `what` names it in errors ("trace file", "config"); `at` is where the
// request was written (an .include directive), or empty to locate errors at
// the file itself. Throws simt::Error.
std::string read_text_file(const std::string& path, const std::string& what, uint64_t max_bytes,
                           const SourceLoc* at = nullptr);

// Checks that `path` names a regular file of at most `max_bytes` without
// reading it (for readers that stream, e.g. CSV). Throws simt::Error.
void check_input_file(const std::string& path, const std::string& what, uint64_t max_bytes,
                      const SourceLoc* at = nullptr);

// Levenshtein distance of a and b when it is at most `limit`, else limit + 1;
// O(min(|a|, |b|) * limit) time.
size_t bounded_edit_distance(std::string_view a, std::string_view b, size_t limit);

// The candidate nearest to `word` within `limit` edits (the first of equals),
// or "" when none is that close or `word` is longer than kMaxNameSuggestLength.
std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates, size_t limit);

// `name` shortened for an error message: at most 80 characters, with "...".
std::string clip(std::string_view name);

}  // namespace simt::isa
