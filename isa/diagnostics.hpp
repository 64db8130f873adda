// diagnostics.hpp: the one error type every user-facing failure travels in.
//
// Bad input (a trace, a config, a CSV, a command-line value) is reported as
// "file:line:col: error: message", never as a crash. Everything that can be
// wrong because of what the user wrote throws simt::Error; main() catches it,
// prints what() and exits with status 1. Internal invariants use assert.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace simt {

// Where something came from: a file and a 1-based line and column.
// line == 0 means "the whole file" (e.g. it could not be opened);
// col == 0 means "the whole line".
struct SourceLoc {
    std::string file;
    uint32_t line = 0;
    uint32_t col = 0;

    std::string str() const {
        std::string s = file.empty() ? std::string("<input>") : file;
        if (line) s += ":" + std::to_string(line);
        if (line && col) s += ":" + std::to_string(col);
        return s;
    }
};

class Error : public std::runtime_error {
public:
    Error(const SourceLoc& loc, const std::string& message)
        : std::runtime_error(loc.str() + ": error: " + message), loc_(loc), message_(message) {}
    // For errors with no source position (e.g. a missing command-line argument).
    explicit Error(const std::string& message)
        : std::runtime_error("error: " + message), message_(message) {}

    const SourceLoc& loc() const { return loc_; }
    const std::string& message() const { return message_; }

private:
    SourceLoc loc_;
    std::string message_;
};

}  // namespace simt
