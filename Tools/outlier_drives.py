#!/usr/bin/env python3
"""Makes outlier variants of the ground-truth drives: the 5 m-noise traces with some fixes moved far off.

Real receivers in a street canyon do not only scatter their fixes by a few metres: a reflected signal
(multipath) or a bad satellite now and then puts a fix tens of metres away, for one fix or a few in a row.
The drives of Data/drives have Gaussian noise only, so this writes, for every drive <name> there, the
clean truth <name>.csv unchanged and <name>-noisy.csv with, after its first three fixes, each fix moved with
probability --rate by a distance drawn uniformly from --min-m to --max-m in a random direction; a moved fix
starts a burst of 1 to --burst fixes in a row (each its own distance and direction). Speed, heading and the
truth labels stay as they were (a receiver's Doppler speed and heading do not share the position's
multipath error). <name>.outliers lists the times of the moved fixes. Deterministic for a given --seed.

Usage:
  Tools/outlier_drives.py --drives Data/drives --out DIR [--rate 0.03] [--min-m 30] [--max-m 80]
      [--burst 1] [--seed 47]
Then score DIR like Data/drives (Tools/evaluate_drives.py --truth-dir DIR ...); Tools/evaluate does.
"""
import argparse
import csv
import math
import os
import random
import shutil
import sys

METRES_PER_DEGREE = 6371008.8 * math.pi / 180


def moved(row, distance, bearing):
    """`row` with lat/lon moved `distance` metres towards `bearing` (radians from north)."""
    lat, lon = float(row["lat"]), float(row["lon"])
    lat2 = lat + distance * math.cos(bearing) / METRES_PER_DEGREE
    lon2 = lon + distance * math.sin(bearing) / (METRES_PER_DEGREE * math.cos(math.radians(lat)))
    return dict(row, lat=f"{lat2:.7f}", lon=f"{lon2:.7f}")


def with_outliers(rows, rng, rate, low, high, burst):
    """(rows with outliers, times of the moved fixes)."""
    result, times, left = [], [], 0
    for index, row in enumerate(rows):
        if index >= 3 and left == 0 and rng.random() < rate:
            left = rng.randint(1, burst)
        if left > 0:
            row = moved(row, rng.uniform(low, high), rng.uniform(0, 2 * math.pi))
            times.append(row["time_s"])
            left -= 1
        result.append(row)
    return result, times


def main(argv=None):
    """Command line entry; returns the exit code (0 written, 2 bad input)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--drives", default="Data/drives", help="directory of <name>.csv and <name>-noisy.csv")
    parser.add_argument("--out", required=True, help="directory to write the variants to (created)")
    parser.add_argument("--rate", type=float, default=0.03, help="probability that a fix starts a burst")
    parser.add_argument("--min-m", type=float, default=30, help="least distance a fix is moved, metres")
    parser.add_argument("--max-m", type=float, default=80, help="greatest distance a fix is moved, metres")
    parser.add_argument("--burst", type=int, default=1, help="most outliers in a row")
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args(argv)
    problems = []
    if not 0 <= args.rate <= 1:
        problems.append(f"--rate {args.rate} is not a probability (0 to 1)")
    if not 0 <= args.min_m <= args.max_m:
        problems.append(f"--min-m {args.min_m} and --max-m {args.max_m} must satisfy 0 <= min <= max")
    if args.burst < 1:
        problems.append(f"--burst {args.burst} must be 1 or more")
    names = sorted(f[:-len("-noisy.csv")] for f in os.listdir(args.drives) if f.endswith("-noisy.csv")) \
        if os.path.isdir(args.drives) else []
    if not names:
        problems.append(f"no <name>-noisy.csv in {args.drives}; pass --drives Data/drives")
    if problems:
        print("outlier_drives: " + "; ".join(problems), file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    for name in names:
        with open(os.path.join(args.drives, f"{name}-noisy.csv"), newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            fields, rows = reader.fieldnames, list(reader)
        rows, times = with_outliers(rows, rng, args.rate, args.min_m, args.max_m, args.burst)
        with open(os.path.join(args.out, f"{name}-noisy.csv"), "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        with open(os.path.join(args.out, f"{name}.outliers"), "w", encoding="utf-8") as handle:
            handle.write("".join(f"{time}\n" for time in times))
        shutil.copyfile(os.path.join(args.drives, f"{name}.csv"), os.path.join(args.out, f"{name}.csv"))
        print(f"{name}: {len(times)} of {len(rows)} fixes moved", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
