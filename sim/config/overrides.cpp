// overrides.cpp: `--set key.path=value` applied to the YAML tree (see overrides.hpp).
#include "sim/config/overrides.hpp"

#include "isa/diagnostics.hpp"
#include "sim/config/yaml_reader.hpp"

namespace simt::cfg {

namespace {

struct Override {
    std::string text;                 // "a.b.c=value", as given
    std::vector<std::string> path;    // {"a", "b", "c"}
    std::string value;
};

[[noreturn]] void fail(const std::string& text, const std::string& what) {
    throw Error(SourceLoc{"--set " + text, 0, 0}, what);
}

std::string trim(const std::string& s) {
    const char* ws = " \t";
    size_t b = s.find_first_not_of(ws);
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::string joined(const std::vector<std::string>& path, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += (i ? "." : "") + path[i];
    return s;
}

Override parse(const std::string& text) {
    size_t eq = text.find('=');
    if (eq == std::string::npos) fail(text, "expected key.path=value (e.g. sm.sub_partitions=2)");
    Override o{text, {}, trim(text.substr(eq + 1))};
    std::string path = trim(text.substr(0, eq));
    if (path.empty()) fail(text, "missing the key path before '='");
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        std::string seg = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (seg.empty()) fail(text, "empty key name in '" + path + "'");
        o.path.push_back(seg);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    if (o.value.empty()) fail(text, "missing the value after '='");
    return o;
}

YAML::Node load_value(const Override& o) {
    try {
        return YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
        fail(o.text, "the value '" + o.value + "' is not valid YAML: " + e.msg);
    }
}

// The value as one YAML scalar (quoted or plain), or an error.
YAML::Node parse_value(const Override& o) {
    YAML::Node v = load_value(o);
    if (!v.IsScalar()) {
        fail(o.text, "expected a single value, got " + describe_node(v) + " ('" + o.value + "')");
    }
    return v;
}

std::string listed(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
    return s;
}

std::vector<std::string> keys_of(const YAML::Node& map) {
    std::vector<std::string> keys;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (it->first.IsScalar()) keys.push_back(it->first.Scalar());
    }
    return keys;
}

// The value node of `key` in `map` (first occurrence), or an invalid iterator.
YAML::iterator find_key(YAML::Node& map, const std::string& key) {
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == key) return it;
    }
    return map.end();
}

[[noreturn]] void fail_missing(const Override& o, size_t depth, YAML::Node& map) {
    std::string parent = joined(o.path, depth);
    std::string full = joined(o.path, depth + 1);
    std::string hint = did_you_mean(o.path[depth], keys_of(map), parent.empty() ? "" : parent + ".");
    if (hint.empty()) hint = " (" + (parent.empty() ? "top-level keys" : parent + " has") + ": " + listed(keys_of(map)) + ")";
    fail(o.text, "the config has no key '" + full + "'" + hint +
                     "; --set may only replace keys the config file gives");
}

// pipes.<name>.lanes replaces pipes.<name>.interval and the other way round.
bool swap_rate_key(const Override& o, YAML::Node& map, const YAML::Node& value) {
    const std::string& key = o.path.back();
    if (o.path.size() != 3 || o.path[0] != "pipes" || (key != "lanes" && key != "interval")) return false;
    const std::string other = key == "lanes" ? "interval" : "lanes";
    if (find_key(map, other) == map.end()) return false;
    map.remove(other);
    map[key] = value;
    return true;
}

void apply(YAML::Node& root, const Override& o) {
    YAML::Node node = root;
    for (size_t depth = 0; depth < o.path.size(); ++depth) {
        if (!node.IsMap()) {
            fail(o.text, "'" + joined(o.path, depth) + "' is a value, not a section");
        }
        auto it = find_key(node, o.path[depth]);
        const bool last = depth + 1 == o.path.size();
        if (it == node.end()) {
            if (last && swap_rate_key(o, node, parse_value(o))) return;
            fail_missing(o, depth, node);
        }
        if (!last) {
            node.reset(it->second);  // rebind; `node = ...` would overwrite the tree
            continue;
        }
        if (it->second.IsMap() || it->second.IsSequence()) {
            fail(o.text, "'" + joined(o.path, depth + 1) + "' is a section; set one of its keys (" +
                             listed(keys_of(it->second)) + ")");
        }
        it->second = parse_value(o);
    }
}

}  // namespace

std::map<std::string, std::string> apply_overrides(YAML::Node& root,
                                                   const std::vector<std::string>& overrides) {
    std::map<std::string, std::string> origins;
    for (const std::string& text : overrides) {
        Override o = parse(text);
        apply(root, o);
        origins[joined(o.path, o.path.size())] = text;
    }
    return origins;
}

}  // namespace simt::cfg
