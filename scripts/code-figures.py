#!/usr/bin/env python3
"""Figures for the library surface review: function lengths and file sizes.

Usage: scripts/code-figures.py [ROOT]   (default: the repository)

A function runs from its `fn` line to the closing brace at the same indentation, which
rustfmt guarantees; test modules and tests/ are left out, as they are not the library.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
FN = re.compile(r"^(\s*)(pub(\([a-z]+\))? )?(const )?(unsafe )?fn (\w+)")
rows, files = [], []
for base in ("crates/vmdkit/src", "crates/vmdkit-cli/src"):
    for dirpath, _, names in os.walk(os.path.join(root, base)):
        for name in names:
            if not name.endswith(".rs") or name == "tests.rs":
                continue
            path = os.path.join(dirpath, name)
            lines = open(path, encoding="utf-8").read().split("\n")
            files.append((len(lines) - 1, os.path.relpath(path, root)))
            for i, line in enumerate(lines):
                m = FN.match(line)
                if not m or line.rstrip().endswith(";"):
                    continue
                indent = m.group(1)
                for j in range(i, len(lines)):
                    if lines[j] == indent + "}" or (j == i and line.rstrip().endswith("}")):
                        rows.append((j - i + 1, f"{os.path.relpath(path, root)}:{i + 1} {m.group(6)}"))
                        break
rows.sort(reverse=True)
print(f"functions: {len(rows)}; over 60 lines: {sum(1 for n, _ in rows if n > 60)}; "
      f"over 100 lines: {sum(1 for n, _ in rows if n > 100)}")
for n, where in rows[:12]:
    print(f"  {n:4} {where}")
files.sort(reverse=True)
print(f"library and CLI source files: {len(files)}; over 600 lines: "
      f"{sum(1 for n, p in files if n > 600 and 'crates/vmdkit/' in p)} (library)")
for n, p in files[:5]:
    print(f"  {n:4} {p}")
