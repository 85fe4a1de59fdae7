#!/usr/bin/env python3
"""How soon a receiver that starts listening mid-drive holds the horizon (candump logs of `adasis replay`).

An ECU that boots after the head unit, or restarts, learns what was sent before it joined only from the
provider's retransmission. For each log and each join time T = 20, 40, … s (until 15 s before the log ends),
this tool rebuilds the horizon with `adasis reconstruct --at T+D` twice — from the whole log (a receiver
listening from the start) and from the frames at or after T (the late one) — and compares:
  main path   the SEGMENT and STUB lines of the main path between the vehicle and 500 m ahead;
  every path  every content line of every path placed in the tree.
Prints, per delay D, the share of the first receiver's items the late one holds, and at how many joins it
holds all of the main path's.

Usage:
  Tools/evaluate_late_join.py --adasis .build/debug/adasis LOG... [--delays 2,10]
"""
import argparse
import re
import subprocess
import sys

AHEAD_M = 500
JOIN_STEP_S = 20
TAIL_S = 15


class LateJoinError(Exception):
    pass


def frame_time(line, where):
    """The timestamp of a candump -L line."""
    try:
        return float(line.split()[0].strip("()"))
    except (IndexError, ValueError):
        raise LateJoinError(f"{where}: not a candump -L line: {line.strip()[:60]!r}") from None


def reconstruct(adasis, lines, at):
    """`adasis reconstruct - --at AT` of the given log lines, its standard output."""
    result = subprocess.run([adasis, "reconstruct", "-", "--at", str(at)], input="".join(lines),
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise LateJoinError(f"adasis reconstruct failed: {result.stderr.strip()[:200]}")
    return result.stdout


def items(output):
    """(main-path items within AHEAD_M of the vehicle, items of every placed path) of a reconstruction."""
    position = re.search(r"position: path (\d+), offset (\d+) m", output)
    main_index, vehicle = (int(position.group(1)), int(position.group(2))) if position else (None, None)
    main, every, path = set(), set(), None
    for line in output.split("\n"):
        header = re.match(r"path (\d+)(.*)", line)
        if header:
            path = None if "not placed" in header.group(2) else int(header.group(1))
            continue
        content = re.match(r"\s+(-?\d+) m\s+(.*)", line)
        if path is None or not content:
            continue
        offset, what = int(content.group(1)), content.group(2).split(",")[0]
        every.add((path, offset, what))
        if path == main_index and vehicle <= offset <= vehicle + AHEAD_M and what.startswith(("SEGMENT", "STUB")):
            main.add((offset, what))
    return main, every


def evaluate(adasis, logs, delays):
    """{delay: dict(joins, complete, main_held, main_total, every_held, every_total)}."""
    results = {}
    for delay in delays:
        row = dict(joins=0, complete=0, main_held=0, main_total=0, every_held=0, every_total=0)
        for log in logs:
            with open(log) as handle:
                lines = [line for line in handle if line.strip()]
            if not lines:
                raise LateJoinError(f"{log}: no frames")
            times = [frame_time(line, f"{log}:{number}") for number, line in enumerate(lines, start=1)]
            join = JOIN_STEP_S
            while join < times[-1] - TAIL_S:
                late = [line for line, time in zip(lines, times) if time >= join]
                want_main, want_every = items(reconstruct(adasis, lines, join + delay))
                have_main, have_every = items(reconstruct(adasis, late, join + delay))
                join += JOIN_STEP_S
                if not want_main:
                    continue
                row["joins"] += 1
                row["complete"] += want_main <= have_main
                row["main_held"] += len(want_main & have_main)
                row["main_total"] += len(want_main)
                row["every_held"] += len(want_every & have_every)
                row["every_total"] += len(want_every)
        results[delay] = row
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adasis", default=".build/debug/adasis")
    parser.add_argument("--delays", default="2,10", help="seconds after joining, comma-separated")
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args(argv)
    try:
        delays = [float(value) for value in args.delays.split(",")]
    except ValueError:
        print(f"evaluate_late_join: --delays {args.delays!r} is not a list of seconds (e.g. 2,10)", file=sys.stderr)
        return 2
    try:
        results = evaluate(args.adasis, args.logs, delays)
    except (OSError, LateJoinError) as error:
        print(f"evaluate_late_join: {error}", file=sys.stderr)
        return 2
    print("| after joining | joins | main path's next 500 m held | joins holding all of it | every path's content held |")
    print("|---|---|---|---|---|")
    for delay, row in results.items():
        def share(held, total):
            return f"{100 * held / total:.1f} % ({held} of {total})" if total else "–"
        print(f"| {delay:g} s | {row['joins']} | {share(row['main_held'], row['main_total'])} | {row['complete']} | "
              f"{share(row['every_held'], row['every_total'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
