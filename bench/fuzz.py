"""A stranger's files: 10,000 mutated inputs across the public formats, through the doors that read
them (``azulcam score`` for records and positions, ``azulcam layout`` for layouts, the profile,
observation, journal and correction readers), and the count of each outcome.

Every input is one of the project's own valid ones (the committed records, a position taken up
mid-game, the renderer's true profiles, the shipped layouts, what a perfect camera sees, a watch's
journal, a person's corrections) with one to three mutations (tests/support/fuzzing.py). An input is ``read`` (a legal
result: exit 0, a report, a game), ``refused`` (a clear one-line refusal, counted by its code), or
an internal error: a crash, or an answer that is not one. Exits 1 if there was any.

    python bench/fuzz.py [--inputs 10000] [--seed 0] [--show 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _fuzzing():
    """tests/support/fuzzing.py: the mutations and doors the property tests use."""
    sys.path.insert(0, str(ROOT / "tests"))
    import support.fuzzing

    return support.fuzzing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000, help="mutated inputs in all, shared among the formats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=3, help="refusal codes listed per format")
    args = parser.parse_args()
    fuzzing = _fuzzing()
    names = list(fuzzing.DOORS)
    rng = random.Random(args.seed)
    outcomes: dict[str, Counter] = {name: Counter() for name in names}
    internal: list[str] = []
    for name in names:
        fuzzing.DOORS[name][0]()  # the valid inputs, made once
    start = time.perf_counter()
    for k in range(args.inputs):
        name = names[k % len(names)]
        try:
            outcomes[name][fuzzing.attempt(name, rng)] += 1
        except Exception as exc:  # noqa: BLE001  (what this bench counts)
            outcomes[name][("internal error", type(exc).__name__)] += 1
            internal.append(f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
    seconds = time.perf_counter() - start

    print(f"{args.inputs} mutated inputs (seed {args.seed}), {seconds:.1f} s")
    print(f"{'format':<12} {'inputs':>7} {'read':>6} {'refused':>8} {'internal':>9}  most frequent refusals")
    for name in names:
        counts = outcomes[name]
        by = Counter()
        for (outcome, _), n in counts.items():
            by[outcome] += n
        refusals = Counter({what: n for (outcome, what), n in counts.items() if outcome == "refused"})
        common = ", ".join(f"{what} {n}" for what, n in refusals.most_common(args.show))
        print(f"{name:<12} {sum(counts.values()):>7} {by['read']:>6} {by['refused']:>8} {by['internal error']:>9}  {common}")
    total = Counter()
    for counts in outcomes.values():
        for (outcome, _), n in counts.items():
            total[outcome] += n
    print(f"{'all':<12} {args.inputs:>7} {total['read']:>6} {total['refused']:>8} {total['internal error']:>9}")
    for line in internal[:20]:
        print("  internal error:", line)
    return 1 if internal else 0


if __name__ == "__main__":
    sys.exit(main())
