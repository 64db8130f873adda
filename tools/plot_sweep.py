#!/usr/bin/python3
"""plot_sweep.py: a sweep's result as a picture: a report field against the swept value, per config.

    ./build/simt-sim sweep SPEC.yaml -o s.csv && tools/plot_sweep.py s.csv -o sweep.png

Reads the CSV that `simt-sim sweep` writes (point, the axis columns sweep.config,
sweep.trace, set.KEY, uniform.NAME, sweep.policy, sweep.max_instructions, sweep.max_cycles,
then error and every field of the JSON report) and draws y (default `cycles`) against x
(default: the first axis column after config and trace whose value changes), one line per
config, or per config and every other axis that changes (trace, other --set values), with
markers at the points. x is numeric when every value is a number, else the values are
categories in the order of the file (e.g. policies). Failed points (a non-empty `error`)
are not drawn: they are counted in a corner.

Needs Debian's python3-matplotlib (scripts/setup.sh installs it). The output is the same for
the same CSV (fixed size, fixed colours, no date in the metadata).
Errors: "FILE:LINE: error: ..." on stderr and exit status 1.
"""
import argparse

from plot_common import PALETTE, fail, pyplot, read_header, save_png

AXIS_PREFIXES = ("sweep.", "set.", "uniform.")
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
STYLES = ["-", "--", ":", "-."]


def read_csv(path):
    header, records = read_header(path, "sweep", "the header of simt-sim sweep")
    for c in ("point", "error", "sweep.config", "sweep.trace"):
        if c not in header:
            fail(f"{path}:1", f"missing column \"{c}\" (is this a simt-sim sweep CSV?)")
    rows = []
    for line_no, rec in records:
        if len(rec) != len(header):
            fail(f"{path}:{line_no}", f"{len(rec)} columns, the header has {len(header)}")
        rows.append((line_no, dict(zip(header, rec))))
    if not rows:
        fail(path, "no rows after the header (did the sweep run?)")
    return header, rows


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def value_label(column, value):
    """An axis value for a legend: a trace by its file name, others as name=value."""
    if column == "sweep.trace":
        return value.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return f"{column.split('.', 1)[1]}={value}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="the CSV written by simt-sim sweep")
    ap.add_argument("-o", "--output", default="sweep.png", help="the PNG to write (default sweep.png)")
    ap.add_argument("--x", help="the column on the x axis (default: the first swept axis after config and trace)")
    ap.add_argument("--y", default="cycles", help="the report field on the y axis (default cycles)")
    ap.add_argument("--log-y", action="store_true", help="a logarithmic y axis")
    ap.add_argument("--title", help="the title (default: y against x)")
    args = ap.parse_args()
    header, rows = read_csv(args.csv)
    axes = [c for c in header[1:header.index("error")] if c.startswith(AXIS_PREFIXES)]
    varying = [c for c in axes if len({r[c] for _, r in rows}) > 1]
    if args.x is None:
        candidates = [c for c in varying if c not in ("sweep.config", "sweep.trace")] or varying or axes
        args.x = candidates[0]
    for c, what in ((args.x, "--x"), (args.y, "--y")):
        if c not in header:
            fail(what, f"no column \"{c}\" in {args.csv} (axes: {', '.join(axes)})")
    ok = [(n, r) for n, r in rows if not r["error"]]
    failed = len(rows) - len(ok)
    if not ok:
        fail(args.csv, f"all {len(rows)} points failed; nothing to draw (see the error column)")
    for n, r in ok:
        if number(r[args.y]) is None:
            fail(f"{args.csv}:{n}", f"column \"{args.y}\": \"{r[args.y]}\" is not a number")
    # x: numbers when all are, else categories in first-seen order.
    numeric = all(number(r[args.x]) is not None for _, r in ok)
    categories = []
    for _, r in ok:
        if r[args.x] not in categories:
            categories.append(r[args.x])
    xpos = (lambda v: number(v)) if numeric else (lambda v: categories.index(v))
    # One series per config and every other axis that changes, in first-seen order.
    series_keys = ["config"] + [c for c in varying if c not in (args.x, "sweep.config")]
    series = {}
    for _, r in ok:
        key = tuple(r[c] for c in series_keys)
        series.setdefault(key, []).append((xpos(r[args.x]), number(r[args.y])))
    plt = pyplot("tools/plot_sweep.py")
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=100)
    configs, others = [], []  # colour per config; marker and line style per combination of the other axes
    for key in series:
        configs += [key[0]] if key[0] not in configs else []
        others += [key[1:]] if key[1:] not in others else []
    for key, pts in series.items():
        pts.sort()
        label = " \u00b7 ".join(k if c == "config" else value_label(c, k) for c, k in zip(series_keys, key))
        ci, oi = configs.index(key[0]), others.index(key[1:])
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color=PALETTE[ci % len(PALETTE)],
                marker=MARKERS[oi % len(MARKERS)], linestyle=STYLES[oi % len(STYLES)], markersize=5, linewidth=1.4,
                label=label)
    if numeric and all(float(v).is_integer() for v in map(number, categories)) and len(categories) <= 20:
        ax.set_xticks(sorted(number(v) for v in categories))
    if not numeric:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels(categories)
    if args.log_y:
        ax.set_yscale("log")
    ax.set_xlabel(args.x)
    ax.set_ylabel(args.y)
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.set_title(args.title or f"{args.y} against {args.x}  ({len(ok)} points)", fontsize=11)
    ax.legend(fontsize=8, frameon=True)
    if failed:
        ax.text(0.99, 0.01, f"not drawn: {failed} failed point{'s' if failed > 1 else ''}", transform=ax.transAxes,
                ha="right", va="bottom", fontsize=7, color="#666666")
    save_png(fig, args.output)
    print(f"wrote {args.output}: {len(ok)} points in {len(series)} series, x = {args.x}, y = {args.y}"
          + (f", {failed} failed not drawn" if failed else ""))


if __name__ == "__main__":
    main()
