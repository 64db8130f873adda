#!/usr/bin/python3
"""plot_validation.py: the simulator-vs-hardware scatter plot of `validate --csv`.

    ./build/validate --csv v.csv && tools/plot_validation.py v.csv -o docs/validation.png

Reads the CSV that `./build/validate --csv FILE` writes
(group,case,hardware,simulator,unit,error_pct,tolerance_pct,status) and draws every
measurement as a point (x = measured on hardware, y = simulated) on log-log axes, with the
y = x line and a +-10 % band, one colour per group, and the median and 90th percentile of
|error| in the title. Units differ between rows (cycles, GB/s, ratios): a log axis puts them
on one picture, and the distance from y = x is the relative error whatever the unit.
Rows whose values are not both > 0 cannot be drawn on log axes: they are counted and named.

Needs Debian's python3-matplotlib (scripts/setup.sh installs it). The output is the same for
the same CSV (fixed size, fixed colours, no date in the metadata).
Errors: "FILE:LINE: error: ..." on stderr and exit status 1.
"""
import argparse
import math

from plot_common import PALETTE, fail, pyplot, read_header, save_png

COLUMNS = ["group", "case", "hardware", "simulator", "unit", "error_pct", "tolerance_pct", "status"]
# One fixed colour per group, in first-seen order (PALETTE, plot_common.py).


def read_rows(path):
    header, records = read_header(path, "validate", "the header " + ",".join(COLUMNS))
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        fail(f"{path}:1", f"missing column \"{missing[0]}\" (expected the header {','.join(COLUMNS)})")
    idx = {c: header.index(c) for c in COLUMNS}
    rows = []
    for line_no, rec in records:
        if len(rec) < len(header):
            fail(f"{path}:{line_no}", f"too few columns ({len(rec)} of {len(header)})")
        row = {c: rec[idx[c]] for c in COLUMNS}
        for c in ("hardware", "simulator", "error_pct"):
            try:
                row[c] = float(row[c])
            except ValueError:
                fail(f"{path}:{line_no}", f"column \"{c}\": \"{row[c]}\" is not a number")
        rows.append(row)
    if not rows:
        fail(path, "no rows after the header (is this a validate --csv file?)")
    return rows


def quantile(sorted_values, q):
    """The q-quantile by linear interpolation (numpy's default), of a sorted list."""
    if len(sorted_values) == 1:
        return sorted_values[0]
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="the CSV written by ./build/validate --csv FILE")
    ap.add_argument("-o", "--output", default="validation.png", help="the PNG to write (default validation.png)")
    ap.add_argument("--band", type=float, default=10.0, help="the +- band around y = x, in percent (default 10)")
    ap.add_argument("--title", default="simt-sim vs hardware", help="the first line of the title")
    args = ap.parse_args()
    if not (0 < args.band < 100):
        fail("--band", f"{args.band} is not between 0 and 100 percent")
    rows = read_rows(args.csv)
    plt = pyplot("tools/plot_validation.py")

    drawable = [r for r in rows if r["hardware"] > 0 and r["simulator"] > 0]
    skipped = [r for r in rows if r not in drawable]
    errors = sorted(abs(r["error_pct"]) for r in rows)
    median, p90 = quantile(errors, 0.5), quantile(errors, 0.9)
    within = sum(1 for e in errors if e <= args.band)

    groups = []
    for r in drawable:
        if r["group"] not in groups:
            groups.append(r["group"])
    fig, ax = plt.subplots(figsize=(7.5, 6.5), dpi=100)
    lo = min(min(r["hardware"], r["simulator"]) for r in drawable) / 2
    hi = max(max(r["hardware"], r["simulator"]) for r in drawable) * 2
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    b = args.band / 100
    ax.fill_between(xs, [x * (1 - b) for x in xs], [x * (1 + b) for x in xs], color="#888888", alpha=0.35,
                    linewidth=0, label=f"\u00b1{args.band:g} %")
    ax.plot(xs, xs, color="#444444", linewidth=1, label="y = x")
    for i, g in enumerate(groups):
        pts = [r for r in drawable if r["group"] == g]
        ax.scatter([r["hardware"] for r in pts], [r["simulator"] for r in pts], s=22, color=PALETTE[i % len(PALETTE)],
                   edgecolors="white", linewidths=0.5, label=f"{g} ({len(pts)})", zorder=3)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel("measured on hardware (each row's own unit)")
    ax.set_ylabel("simulated (same unit)")
    ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    ax.set_title(f"{args.title}\n{len(rows)} measurements, {within} within \u00b1{args.band:g} %;  "
                 f"|error| median {median:.1f} %, P90 {p90:.1f} %", fontsize=11)
    ax.legend(loc="upper left", fontsize=8, frameon=True)
    if skipped:
        names = ", ".join(r["case"] for r in skipped[:4]) + (", \u2026" if len(skipped) > 4 else "")
        ax.text(0.99, 0.01, f"not drawn (value <= 0): {len(skipped)}: {names}", transform=ax.transAxes,
                ha="right", va="bottom", fontsize=7, color="#666666")
    save_png(fig, args.output)
    print(f"wrote {args.output}: {len(drawable)} points in {len(groups)} groups, |error| median {median:.1f} %, "
          f"P90 {p90:.1f} %" + (f", {len(skipped)} not drawn" if skipped else ""))


if __name__ == "__main__":
    main()
