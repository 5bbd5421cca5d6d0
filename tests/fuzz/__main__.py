"""The long differential fuzzer: ``python -m tests.fuzz -n 5000`` (or ``make fuzz N=5000``).

Draws ``N`` programs with hypothesis (seeded: the same seed gives the same
programs), runs each under PyTorch and under course_lib, and prints the counts:
programs, identical ones (and how many of those differ only in bits no print
showed), documented last-bit differences by family, and the real mismatches by
class.  Then each class is shrunk to a minimal program (``reduce.py``) and
written out: ``OUT/findings.json`` (both sides' outputs, statement by
statement) and ``OUT/findings.md`` (the same, to read).  Exit status 0.
"""

import argparse
import collections
import json
import os
import sys
import time

from hypothesis import HealthCheck, Phase, given, seed, settings

from .compare import Engines, classify, hidden_last_bits, rows_at, side_by_side
from .known import known_issue
from .programs import programs
from .reduce import reduce_program


def explore(engines, n, seed_value, max_ops, progress=True):
    """Run ``n`` programs; ``(counts, examples)``: (class key, known label) -> count, and -> (program, mismatch,
    known label) of the shortest program in the class.  A class is split by the known difference it shows."""
    counts = collections.Counter()
    examples = {}
    started = time.monotonic()

    @seed(seed_value)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(programs(max_ops=max_ops))
    def one(program):
        t, c = engines.run(program.sources)
        m = classify(program, t, c)
        if m is None:
            counts["identical (hidden last-bit differences)" if hidden_last_bits(t, c) else "identical"] += 1
        else:
            label = known_issue(m, *rows_at(m, t, c))
            group = (m.key, label)
            counts[group] += 1
            old = examples.get(group)
            if old is None or len(program.stmts) < len(old[0].stmts):
                examples[group] = (program, m, label)
        done = sum(counts.values())
        if progress and done % 250 == 0:
            print(f"  {done} programs, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)

    one()
    return counts, examples


def summary(counts, examples):
    total = sum(counts.values())
    identical = counts["identical"] + counts["identical (hidden last-bit differences)"]
    documented = {k: v for k, v in counts.items() if k in examples and examples[k][1].expected}
    real = {k: v for k, v in counts.items() if k in examples and not examples[k][1].expected}
    lines = [f"programs: {total}",
             f"identical: {identical} ({100 * identical / max(total, 1):.1f}%), of which "
             f"{counts['identical (hidden last-bit differences)']} differ only in bits no print shows",
             f"documented last-bit differences: {sum(documented.values())} programs in {len(documented)} classes",
             f"identical outside the documented last-bit classes: "
             f"{100 * (identical + sum(documented.values())) / max(total, 1):.2f}%",
             f"real mismatches: {sum(real.values())} programs in {len(real)} classes, of which "
             f"{sum(v for k, v in real.items() if examples[k][2] is None)} programs in "
             f"{sum(1 for k in real if examples[k][2] is None)} classes are NEW (not in tests/fuzz/known.py)"]
    for title, group in (("documented last-bit classes", documented), ("mismatch classes", real)):
        lines.append(f"{title}:")
        for k, v in sorted(group.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            known = examples[k][2]
            tag = "" if examples[k][1].expected else f"   [{known.split(':')[0]}]" if known else "   [NEW]"
            lines.append(f"  {v:5d}  {k[0]}{tag}")
    return "\n".join(lines)


def _row_text(row):
    out = []
    for side in ("torch", "course_lib"):
        r = row[side]
        if isinstance(r, dict) and "out" in r:
            text = r["out"].rstrip("\n")
            if r["exc"]:
                text += ("\n" if text else "") + f"{r['exc'][0]}: {r['exc'][1]}"
            for w in r["warn"]:
                text += ("\n" if text else "") + f"{w[0]}: {w[1]}"
        else:
            text = json.dumps(r, indent=1)
        out.append(f"{side}:\n" + "\n".join("    " + line for line in (text or "(nothing)").splitlines()))
    return "\n".join(out)


def write_findings(out_dir, counts, examples, reduced, meta):
    os.makedirs(out_dir, exist_ok=True)
    classes = []
    for key, (program, m, known) in sorted(examples.items(), key=lambda kv: (-counts[kv[0]], str(kv[0]))):
        small, t, c = reduced.get(key, (program, None, None))
        mm = (classify(small, t, c) if t is not None else None) or m
        index = mm.index
        rows = side_by_side(small, t, c, upto=index if 0 <= index < len(small.stmts) else None) if t else []
        classes.append({"class": key[0], "programs": counts[key], "documented_last_bit": m.expected,
                        "kind": m.kind, "family": m.family, "op": m.op, "origin_op": m.origin_op, "ulps": m.ulps,
                        "known": known, "script": small.script(),
                        "statements": small.sources, "rows": rows})
    with open(os.path.join(out_dir, "findings.json"), "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "summary": summary(counts, examples).splitlines(), "classes": classes}, f, indent=1,
                  ensure_ascii=False)
        f.write("\n")
    md = ["# Differential fuzzer findings (generated by `python -m tests.fuzz`)", "",
          "```", summary(counts, examples), "```", ""]
    for cls in classes:
        md += [f"## {cls['class']} ({cls['programs']} programs)" + (" - documented last-bit" if
                                                                     cls["documented_last_bit"] else ""), ""]
        if not cls["documented_last_bit"]:
            md += [f"Known: {cls['known']}" if cls["known"] else "NEW: not in tests/fuzz/known.py", ""]
        md += ["```python", cls["script"], "```", ""]
        if cls["rows"]:
            md += ["```", _row_text(cls["rows"][-1] if cls["rows"][-1]["stmt"] != "<final state>" or
                                    len(cls["rows"]) < 2 else cls["rows"][-1]), "```", ""]
    with open(os.path.join(out_dir, "findings.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="programs to run (default 2000)")
    ap.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    ap.add_argument("--max-ops", type=int, default=7, help="statements after the creations (default 7)")
    ap.add_argument("--out", default="fuzz-findings", help="folder for findings.json and findings.md")
    ap.add_argument("--no-reduce", action="store_true", help="skip shrinking the classes to minimal programs")
    ap.add_argument("--budget", type=int, default=150, help="runs per class while shrinking (default 150)")
    args = ap.parse_args(argv)
    started = time.monotonic()
    with Engines() as engines:
        counts, examples = explore(engines, args.n, args.seed, args.max_ops)
        explored = time.monotonic() - started
        print(summary(counts, examples))
        print(f"({explored:.0f} s for {sum(counts.values())} programs)")
        reduced = {}
        if not args.no_reduce:
            for key, (program, *_) in examples.items():
                reduced[key] = reduce_program(program, engines, budget=args.budget)
        meta = {"n": args.n, "seed": args.seed, "max_ops": args.max_ops, "explore_s": round(explored),
                "total_s": round(time.monotonic() - started)}
        write_findings(args.out, counts, examples, reduced, meta)
    print(f"minimal programs of {len(examples)} classes in {args.out}/findings.json and findings.md "
          f"({time.monotonic() - started:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
