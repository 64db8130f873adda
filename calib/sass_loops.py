#!/usr/bin/env python3
"""sass_loops.py: finds the timed loops in `cuobjdump -sass` output and counts their instructions.

For each function, the loops that matter are the backward branches lying between its first and
last SR_CLOCKLO read (the timed region); a function without clock reads contributes all of its
loops. Writes an excerpt file (opcode histogram and listing per loop) and appends CSV rows:
  <kernel>,sass_loop_instructions,<n>,instr,...        all instructions in the first timed loop
  <kernel>,sass_loop_count_<OP>,<n>,instr,...          instructions of the row's main opcode
  <kernel>,latency_per_sass_<OP>,<cycles>,cycles,...   cycles_per_iter / count (latency rows)
  <kernel>,all_instr_ipc_per_smsp_wN,<ipc>,...         FFMA IPC scaled to every loop instruction
The CSV rows name their kernel and main opcode in the notes field: kernel=NAME;main=OP.
Leaves out: nested-loop structure beyond "innermost backward branch", predication analysis.
"""
import argparse
import collections
import csv
import re

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
LABEL = re.compile(r"^\s*(\.L_x_\d+):")
FUNC = re.compile(r"Function\s*:\s*(\S+)")
BRA = re.compile(r"\bBRA(?:\.\S+)?\s+(?:`\()?(\.L_x_\d+|0x[0-9a-f]+)")


def parse(path):
    funcs = collections.OrderedDict()
    cur = None
    pending = []
    for line in open(path, errors="replace"):
        m = FUNC.search(line)
        if m:
            cur = m.group(1)
            funcs[cur] = {"insns": [], "labels": {}}
            pending = []
            continue
        if cur is None:
            continue
        m = LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = INSN.search(line)
        if m:
            addr = int(m.group(1), 16)
            text = m.group(2).strip()
            funcs[cur]["insns"].append((addr, text))
            for lab in pending:
                funcs[cur]["labels"][lab] = addr
            pending = []
    return funcs


def opcode(text):
    toks = text.split()
    if toks and toks[0].startswith("@"):
        toks = toks[1:]
    return toks[0] if toks else "?"


def loops(fn):
    insns, labels = fn["insns"], fn["labels"]
    clocks = [a for a, t in insns if "SR_CLOCKLO" in t]
    lo, hi = (clocks[0], clocks[-1]) if len(clocks) >= 2 else (None, None)
    out = []
    for a, t in insns:
        m = BRA.search(t)
        if not m:
            continue
        tgt = m.group(1)
        tgt = labels.get(tgt) if tgt.startswith(".L") else int(tgt, 16)
        if tgt is None or tgt > a:
            continue
        if lo is not None and not (lo <= tgt and a <= hi):
            continue
        body = [(x, s) for x, s in insns if tgt <= x <= a]
        out.append(body)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sass", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    funcs = parse(args.sass)

    with open(args.out, "w") as f:
        f.write("# Timed loops of each calibration kernel (cuobjdump -sass, sm_90).\n")
        f.write("# A loop = instructions from a backward branch's target to the branch, between the clock reads.\n\n")
        for name, fn in funcs.items():
            ls = loops(fn)
            f.write("=" * 100 + "\nFunction %s: %d instructions, %d timed loop(s)\n" % (name, len(fn["insns"]), len(ls)))
            clocks = [t for a, t in fn["insns"] if "SR_CLOCKLO" in t]
            if clocks:
                f.write("  clock reads: %s\n" % " | ".join(clocks))
            for i, body in enumerate(ls):
                hist = collections.Counter(opcode(t) for _, t in body)
                f.write("-- loop %d: 0x%04x..0x%04x, %d instructions: %s\n" % (
                    i, body[0][0], body[-1][0], len(body),
                    ", ".join("%s x%d" % kv for kv in sorted(hist.items(), key=lambda kv: -kv[1]))))
                show = body if len(body) <= 48 else body[:28] + [(None, "... (%d more) ..." % (len(body) - 40))] + body[-12:]
                for a, t in show:
                    f.write("    %s  %s\n" % ("/*%04x*/" % a if a is not None else "        ", t))
            f.write("\n")

    rows = list(csv.reader(open(args.csv)))
    seen = set()
    extra = []
    for r in rows:
        if len(r) < 5:
            continue
        kern, param, value, unit, notes = r[0], r[1], r[2], r[3], ",".join(r[4:])
        mk = re.search(r"kernel=([A-Za-z0-9_]+)", notes)
        mm = re.search(r"main=([A-Za-z0-9_.]+)", notes)
        if not mk or not mm or mk.group(1) not in funcs:
            continue
        fname, op = mk.group(1), mm.group(1)
        ls = loops(funcs[fname])
        if not ls:
            continue
        body = ls[0] if len(ls) == 1 else max(ls, key=len)
        n_main = sum(1 for _, t in body if opcode(t) == op or opcode(t).startswith(op + "."))
        total = len(body)
        key = (kern, fname)
        if key not in seen:
            seen.add(key)
            extra.append([kern, "sass_loop_instructions", str(total), "instr", "kernel=%s;timed loop; %d loop(s) found" % (fname, len(ls))])
            extra.append([kern, "sass_loop_count_%s" % op, str(n_main), "instr", "kernel=%s" % fname])
        if n_main == 0:
            continue
        try:
            v = float(value)
        except ValueError:
            continue
        if param == "cycles_per_iter":
            extra.append([kern, "latency_per_sass_%s" % op, "%.4f" % (v / n_main), "cycles",
                          "cycles_per_iter / %d %s in the loop (loop of %d instructions)" % (n_main, op, total)])
        m = re.match(r"ffma_ipc_per_smsp_w(\d+)", param)
        if m:
            extra.append([kern, "all_instr_ipc_per_smsp_w%s" % m.group(1), "%.4f" % (v * total / n_main),
                          "warp-instr/clk/SMSP", "FFMA IPC x %d loop instructions / %d FFMA" % (total, n_main)])
    with open(args.csv, "a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        for e in extra:
            w.writerow(e)
    print("sass_loops: %d functions, %d rows added" % (len(funcs), len(extra)))


if __name__ == "__main__":
    main()
