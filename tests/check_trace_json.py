#!/usr/bin/env python3
"""check_trace_json.py TRACE.json TIMELINE.csv: loads a `simt-sim --trace-json` file back
(Python's json, as Perfetto would parse it) and checks it against the timeline CSV of the
same run: one complete slice per CSV row with the same warp, state, cycles, pc and lanes,
a named track per warp (process = SM, thread name starting with its sub-partition), a
pc/line argument on every slice, and an issue-rate counter on every SM that issued.
Prints what it checked; exit status 1 with the first difference otherwise."""
import collections
import csv
import json
import sys


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def main():
    trace_path, csv_path = sys.argv[1], sys.argv[2]
    with open(trace_path) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    slices = [e for e in events if e["ph"] == "X"]
    meta = [e for e in events if e["ph"] == "M"]
    counters = [e for e in events if e["ph"] == "C"]
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(slices) != len(rows):
        fail(f"{len(slices)} slices, but the timeline has {len(rows)} rows")
    key = lambda sm, warp, start: (int(sm), int(warp), int(start))
    by_key = {key(r["sm"], r["warp"], r["start"]): r for r in rows}
    for e in slices:
        r = by_key.get(key(e["pid"], e["tid"] - 1, e["ts"]))
        if r is None:
            fail(f"slice {e} has no timeline row")
        if e["name"] != r["state"] or e["dur"] != int(r["end"]) - int(r["start"]) or e["args"]["pc"] != int(r["pc"]):
            fail(f"slice {e} differs from the row {r}")
        if "line" not in e["args"] or ":" not in e["args"]["line"]:
            fail(f"slice {e} has no source line")
        if r["lanes"] and e["args"].get("lanes") != int(r["lanes"]):
            fail(f"slice {e}: lanes differ from the row {r}")
    names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in meta if e["name"] in ("thread_name", "process_name")}
    tracks = {(e["pid"], e["tid"]) for e in slices}
    for pid, tid in tracks:
        if (pid, None) not in names or names[(pid, None)] != f"SM {pid}":
            fail(f"SM {pid} has no process_name 'SM {pid}'")
        if (pid, tid) not in names or not names[(pid, tid)].startswith("SP "):
            fail(f"warp track {pid}/{tid} has no thread_name 'SP ...'")
    sms_issuing = {int(r["sm"]) for r in rows if r["state"] == "selected"}
    sms_counted = {e["pid"] for e in counters if e["name"] == "issue rate"}
    if sms_issuing != sms_counted:
        fail(f"issue-rate counters on SMs {sorted(sms_counted)}, issues on {sorted(sms_issuing)}")
    issued = sum(1 for r in rows if r["state"] == "selected")
    counted = sum(e["args"]["warp instructions per cycle"] * 64 for e in counters)
    if round(counted) != issued:
        fail(f"the counters sum to {counted} issues, the timeline has {issued}")
    states = collections.Counter(e["name"] for e in slices)
    print(f"ok {len(slices)} slices on {len(tracks)} warp tracks of {len({p for p, _ in tracks})} SMs, "
          f"{len(counters)} counter samples; states {dict(sorted(states.items()))}")


if __name__ == "__main__":
    main()
