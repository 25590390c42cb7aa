#!/usr/bin/env python3
"""The constant tables of scenarios/software/aes128.c and des.c are what gen_tables.py prints: each printed
definition stands in its C file, character for character."""
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "software"
failed = False
for which, source in (("aes", "aes128.c"), ("des", "des.c")):
    printed = subprocess.run([sys.executable, str(root / "gen_tables.py"), which], check=True,
                             capture_output=True, text=True).stdout
    text = (root / source).read_text()
    definitions = [d.strip() for d in printed.split("\n\n") if d.strip()]
    missing = [d.splitlines()[0] for d in definitions if d not in text]
    if not definitions or missing:
        failed = True
        print(f"{source}: not as gen_tables.py {which} prints: {missing or 'nothing printed'}")
    else:
        print(f"{source}: {printed.count('static const')} tables as gen_tables.py {which} prints them")
sys.exit(1 if failed else 0)
