// trace_json.cpp: the Chrome trace event writer (see trace_json.hpp).
#include "sim/report/trace_json.hpp"

#include <cstdio>

namespace simt::report {

std::string json_quote(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            q += '\\';
            q += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            q += buf;
        } else {
            q += c;
        }
    }
    return q + "\"";
}

ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, const isa::Program& program, const std::string& title)
    : out_(out), lanes_([this](const timing::StateInterval& iv, int lanes) { write(iv, lanes); }) {
    for (uint32_t pc = 0; pc < program.code.size(); ++pc) {
        const auto& loc = program.code[pc].loc;
        pc_args_.push_back(",\"line\":" + json_quote(loc.file + ":" + std::to_string(loc.line)) +
                           ",\"text\":" + json_quote(pc < program.text.size() ? program.text[pc] : ""));
    }
    out_ << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"simt-sim\",\"run\":" << json_quote(title)
         << ",\"time_unit\":\"1 us = 1 cycle\"},\n\"traceEvents\":[";
}

void ChromeTraceWriter::begin_event() {
    out_ << (first_ ? "\n" : ",\n");
    first_ = false;
}

void ChromeTraceWriter::on_warp_dispatched(uint64_t, const timing::WarpId& w) {
    if (sms_.insert(w.sm).second) {
        begin_event();
        out_ << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << w.sm << ",\"args\":{\"name\":\"SM " << w.sm
             << "\"}}";
        begin_event();
        out_ << "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << w.sm << ",\"args\":{\"sort_index\":"
             << w.sm << "}}";
    }
    const uint64_t tid = w.warp + 1;
    begin_event();
    out_ << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << w.sm << ",\"tid\":" << tid
         << ",\"args\":{\"name\":\"SP " << w.sub_partition << " \xc2\xb7 warp " << w.warp << " (block "
         << w.block << ")\"}}";
    begin_event();
    out_ << "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << w.sm << ",\"tid\":" << tid
         << ",\"args\":{\"sort_index\":" << (uint64_t(w.sub_partition) << 40) + w.warp << "}}";
}

void ChromeTraceWriter::on_interval(const timing::StateInterval& iv) { lanes_.on_interval(iv); }

void ChromeTraceWriter::write(const timing::StateInterval& iv, int lanes) {
    begin_event();
    out_ << "{\"ph\":\"X\",\"cat\":\"warp_state\",\"name\":\"" << timing::stall_name(iv.state)
         << "\",\"pid\":" << iv.id.sm << ",\"tid\":" << iv.id.warp + 1 << ",\"ts\":" << iv.start
         << ",\"dur\":" << iv.end - iv.start << ",\"args\":{\"pc\":" << iv.pc
         << (iv.pc < pc_args_.size() ? pc_args_[iv.pc] : std::string());
    if (lanes >= 0) out_ << ",\"lanes\":" << lanes;
    out_ << "}}";
    ++slices_;
}

void ChromeTraceWriter::on_issue(const timing::IssueEvent& e) {
    lanes_.on_issue(e);
    ++issues_[{e.id.sm, e.cycle / kIssueBucket}];
}

void ChromeTraceWriter::on_finish(const timing::Stats& s) {
    lanes_.finish();
    // Per SM, a value at the start of every bucket from the first issue to the end (zeros included).
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> span;  // sm -> first, last bucket with issues
    for (const auto& [key, n] : issues_) {
        auto [it, fresh] = span.try_emplace(key.first, key.second, key.second);
        if (!fresh) it->second.second = key.second;
    }
    for (const auto& [sm, range] : span) {
        for (uint64_t b = range.first; b <= range.second + 1; ++b) {
            auto it = issues_.find({sm, b});
            const uint64_t n = b > range.second || it == issues_.end() ? 0 : it->second;
            begin_event();
            char rate[32];
            std::snprintf(rate, sizeof rate, "%.6g", double(n) / double(kIssueBucket));
            out_ << "{\"ph\":\"C\",\"name\":\"issue rate\",\"pid\":" << sm << ",\"ts\":" << b * kIssueBucket
                 << ",\"args\":{\"warp instructions per cycle\":" << rate << "}}";
        }
    }
    out_ << "\n],\n\"cycles\":" << s.cycles << "}\n";
}

}  // namespace simt::report
