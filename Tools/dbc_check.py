#!/usr/bin/env python3
"""Independent check that frames agree with Tools/adasis-v2.dbc.

Usage: dbc_check.py FRAMES.log EXPECTED.jsonl [--dbc Tools/adasis-v2.dbc]

FRAMES.log is a candump -L log; EXPECTED.jsonl has one JSON object per frame with the raw value of
every field (reserved bits excluded). Each frame is decoded with cantools through the DBC (raw,
unscaled) and every field compared. Exit 0 when all agree, 1 with a readable diff otherwise.
"""
import argparse, json, os, sys

try:
    import cantools
except ImportError:
    sys.exit("dbc_check: the Python package cantools is missing: pip install cantools")

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("frames"); parser.add_argument("expected")
    parser.add_argument("--dbc", default=os.path.join(here, "adasis-v2.dbc"))
    args = parser.parse_args()
    db = cantools.database.load_file(args.dbc)
    with open(args.frames) as f:
        frames = [l.split() for l in f if l.strip()]
    with open(args.expected) as f:
        expected = [json.loads(l) for l in f if l.strip()]
    if len(frames) != len(expected):
        sys.exit(f"dbc_check: {len(frames)} frames but {len(expected)} expected records")
    problems = 0
    for number, (fields, want) in enumerate(zip(frames, expected), 1):
        ident, data = fields[2].split("#")
        decoded = db.decode_message(int(ident, 16), bytes.fromhex(data), decode_choices=False, scaling=False)
        for name, value in want.items():
            if decoded.get(name) != value:
                problems += 1
                print(f"frame {number} ({fields[2]}): {name}: DBC gives {decoded.get(name)}, encoder wrote {value}")
        for name in decoded:
            if name not in want:
                problems += 1
                print(f"frame {number} ({fields[2]}): DBC signal {name} not produced by the encoder")
    if problems:
        sys.exit(1)
    print(f"dbc_check: {len(frames)} frames agree with {os.path.basename(args.dbc)}")

main()
