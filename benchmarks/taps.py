"""Taps per task (issue 15): the browser tests that play each task (tests/browser/test_*_taps.py,
real Chromium at 390x844) are run, and each task's count of taps, key presses and choices is
reported beside its target."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import report

ROOT = Path(__file__).resolve().parent.parent
SECTION = "taps per task (real Chromium, 390x844)"


def run() -> list[report.Figure]:
    with tempfile.TemporaryDirectory(prefix="companion-taps-") as tmp:
        kept = Path(tmp) / "taps.jsonl"
        tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests/browser").glob(
            "test_*_taps.py"))
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                       cwd=ROOT, env={**os.environ, "TAPS_REPORT": str(kept)}, check=False)
        lines = kept.read_text(encoding="utf-8").splitlines() if kept.exists() else []
    return [figure(json.loads(line)) for line in lines]


def figure(task: dict) -> report.Figure:
    return report.Figure(SECTION, task["task"], float(task["taps"]), "taps",
                         target=f"≤ {task['target']}", met=task["taps"] <= task["target"],
                         note="; ".join(task["steps"])[:300])


if __name__ == "__main__":  # python benchmarks/taps.py
    print(report.text_table(run()))
