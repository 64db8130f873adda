// yaml_reader.hpp: checked reading of a YAML mapping tree into typed values.
//
// A Section is one mapping of the config file (the top level, `sm`,
// `memory.l1` ...) together with the list of keys it may hold. Building it
// rejects a non-mapping, a non-scalar key, a duplicate key and an unknown key
// (suggesting the nearest known one); reading a key rejects a missing key, a
// value of the wrong type and a value out of range. Every error is a
// simt::Error at the file:line:column of the offending text and names the key
// path (`memory.l1.hit_latency`), or names the `--set` that supplied the value.
//
// Left out: defaults (every key is required), YAML merge keys, and any
// meaning of the values; the checks that relate two fields live in config.cpp.
#pragma once

#include "isa/diagnostics.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace simt::cfg {

using KeyList = std::vector<std::string_view>;

// State shared by every Section of one load: the file name, which key paths
// were replaced by a `--set` (path -> "path=value"), and where each value read
// so far was written, so a check that involves two fields can point at one
// and name the other.
class Reader {
public:
    Reader(std::string file, std::map<std::string, std::string> overrides);

    const std::string& file() const { return file_; }
    SourceLoc at(const YAML::Mark& mark) const;

    // Throws "<path>: <what>" at `mark`, or at the --set that replaced `path`.
    [[noreturn]] void fail(const std::string& path, const YAML::Mark& mark,
                           const std::string& what) const;
    // Same, for a value already read (its position was recorded).
    [[noreturn]] void fail_field(const std::string& path, const std::string& what) const;
    // "" for a value from the file, "from --set a.b=c" for an override.
    std::string origin_note(const std::string& path) const;

    void record(const std::string& path, const YAML::Mark& mark);

private:
    std::string file_;
    std::map<std::string, std::string> overrides_;
    std::map<std::string, YAML::Mark> fields_;
};

class Section {
public:
    // The top-level mapping of a document.
    static Section root(Reader& reader, const YAML::Node& doc, KeyList keys);

    // The sub-mapping under `key`, which may hold exactly `keys`.
    Section section(std::string_view key, KeyList keys) const;

    bool has(std::string_view key) const;
    uint32_t u32(std::string_view key, uint32_t min,
                 uint32_t max = std::numeric_limits<uint32_t>::max()) const;
    uint64_t u64(std::string_view key, uint64_t min,
                 uint64_t max = std::numeric_limits<uint64_t>::max()) const;
    // A finite number >= min (> min when min_exclusive) and <= max.
    double number(std::string_view key, double min, bool min_exclusive, double max) const;
    bool boolean(std::string_view key) const;
    std::string text(std::string_view key) const;   // a non-empty string
    // Index of the value in `names`.
    size_t choice(std::string_view key, const KeyList& names) const;

    const std::string& path() const { return path_; }
    std::string child_path(std::string_view key) const;
    // Throws "<path>: <what>" at this mapping's key (for errors about the
    // mapping as a whole, e.g. two keys that exclude each other).
    [[noreturn]] void fail(const std::string& what) const;
    // Throws "<path>.<key>: <what>" at the value of `key` (already read).
    [[noreturn]] void fail_key(std::string_view key, const std::string& what) const;

private:
    struct Entry {
        YAML::Node key;
        YAML::Node value;
    };

    Section(Reader& reader, const YAML::Node& node, std::string path, YAML::Mark mark,
            KeyList keys);
    void check_keys(const YAML::Node& node);
    const Entry& entry(std::string_view key) const;             // missing -> error
    const Entry& scalar(std::string_view key, const char* expected) const;
    uint64_t whole(std::string_view key, uint64_t min, uint64_t max, uint64_t type_max) const;
    [[noreturn]] void fail_value(std::string_view key, const Entry& e,
                                 const std::string& what) const;

    Reader* reader_;
    std::string path_;     // "" for the top level
    YAML::Mark mark_;      // where the mapping's key (or the document) starts
    KeyList keys_;
    std::map<std::string, Entry, std::less<>> entries_;
};

// Helpers shared with the override code.
std::string describe_node(const YAML::Node& node);   // "a mapping", "'abc'" ...
// The known name nearest to `name` (edit distance), or "" when none is close.
std::string nearest(std::string_view name, const std::vector<std::string>& known);
std::string did_you_mean(std::string_view name, const std::vector<std::string>& known,
                         std::string_view prefix = "");

}  // namespace simt::cfg
