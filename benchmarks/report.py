"""Figures, and the table they are printed as: plain text on the terminal, markdown on disk."""

from __future__ import annotations

import os
import platform
import shlex
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

COLUMNS = ("figure", "value", "baseline", "ratio", "target", "met?")
DECIMALS = {"taps": 0, "req/s": 0, "polls/s": 0, "ms": 1, "µs": 1, "KB": 1, "MB": 1, "%": 1,
            "/ 100": 0}


@dataclass(frozen=True)
class Figure:
    """One measured figure beside its bare baseline (None: there is no bare equivalent)."""

    section: str
    name: str
    value: float | str
    unit: str = ""
    baseline: float | None = None
    target: str = "–"
    met: bool | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or isinstance(self.value, str) or not self.baseline:
            return None
        return self.value / self.baseline

    def cells(self) -> tuple[str, ...]:
        ratio = "–" if self.ratio is None else f"{self.ratio:.2f}"
        met = {True: "yes", False: "NO", None: "–"}[self.met]
        return (self.name, amount(self.value, self.unit), amount(self.baseline, self.unit),
                ratio, self.target, met)


def amount(value: float | str | None, unit: str) -> str:
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    digits = DECIMALS.get(unit, 2)
    if unit == "ms" and value < 10:
        digits = 2
    return f"{value:,.{digits}f} {unit}".strip()


def text_table(figures: list[Figure]) -> str:
    """The figures as an aligned plain-text table, a blank line between sections."""
    rows = [COLUMNS, *[f.cells() for f in figures]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines, section = [], None
    for figure, row in zip([None, *figures], rows, strict=True):
        if figure is not None and figure.section != section:
            section = figure.section
            lines.append(f"\n== {section}")
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    return "\n".join(lines).lstrip("\n")


def markdown_table(figures: list[Figure]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for figure in figures:
        cells = [c.replace("|", "\\|") for c in figure.cells()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes(figures: list[Figure]) -> list[str]:
    return [f"- {f.name}: {f.note}" for f in figures if f.note]


def machine() -> str:
    return (f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), "
            f"Python {platform.python_version()}, {platform.system()} {platform.release()}")


def busy(load: float) -> str:
    """A warning when other work shares the machine: the figures come out lower and noisier."""
    cpus = len(os.sched_getaffinity(0))
    if load < 0.5 * cpus:
        return ""
    return (f"the machine is busy (load average {load:.1f} on {cpus} CPUs): figures will be "
            "lower and noisier than on a quiet machine")


def write_markdown(path: Path, figures: list[Figure], command: str, elapsed: float,
                   loads: tuple[float, float], methods: list[str]) -> None:
    """RESULTS.md: when, where and how, the table, the notes behind figures, the method."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    sections = [
        "# Benchmark results",
        "",
        f"- Date: {now}",
        f"- Machine: {machine()}",
        f"- Command: `{command}` (took {elapsed:.0f} s)",
        f"- Load average (1 min) before the run: {loads[0]:.2f}; after it: {loads[1]:.2f} "
        "(the benchmark's own servers and wrk included)",
        *[f"- Note: {warning}" for warning in [busy(loads[0])] if warning],
        "",
    ]
    for section in dict.fromkeys(f.section for f in figures):
        chosen = [f for f in figures if f.section == section]
        sections += [f"## {section}", "", markdown_table(chosen), "", *notes(chosen), ""]
    sections += ["## How these were measured", "", *methods, ""]
    path.write_text("\n".join(sections))


def write_steps(path: Path, figures: list[Figure], command: str, elapsed: float,
                loads: tuple[float, float], methods: list[str]) -> None:
    """Steps measured alone (`run.py --only`): their sections of an existing RESULTS.md
    replaced (or added before the method), each saying when, how and under what load; the
    other sections stay as the last whole run measured them; the method brought up to date."""
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    warning = busy(loads[0])
    for section in dict.fromkeys(f.section for f in figures):
        chosen = [f for f in figures if f.section == section]
        text = with_block(text, f"## {section}", [
            f"_Measured alone on {now}: `{command}` (took {elapsed:.0f} s); load average "
            f"(1 min) before: {loads[0]:.2f}, after: {loads[1]:.2f}"
            f"{f' ({warning})' if warning else ''}. The other sections are from the whole "
            "run dated above._", "", markdown_table(chosen), "", *notes(chosen), ""])
    path.write_text(with_block(text, "## How these were measured", ["", *methods, ""]))


def with_block(text: str, heading: str, lines: list[str]) -> str:
    """`text` with the block under `heading` (up to the next "## ") replaced by `lines`, or
    added before the method's block (or at the end) when there is none."""
    rows = text.split("\n")
    if heading in rows:
        start = rows.index(heading)
    else:
        start = rows.index("## How these were measured") if (
            "## How these were measured" in rows) else len(rows)
        rows[start:start] = [heading]
    end = next((i for i in range(start + 1, len(rows)) if rows[i].startswith("## ")), len(rows))
    body = lines if lines[:1] == [""] else ["", *lines]
    return "\n".join([*rows[:start + 1], *body, *rows[end:]])


def command_line() -> str:
    return shlex.join(["python", "benchmarks/run.py", *sys.argv[1:]])
