"""Counting what a player does on the phone, as issue 15 counts it: a tap, a key press and a
choice from a list are one each; and, as issue 26 counts it, a scroll is one too (a control not
wholly on screen, between what a tap recorded at the top and the score strip at the foot, is
scrolled to first). A task is played through a `Taps`, which does each step the
way a thumb would and counts it; the browser tests hold each task to its target and
`benchmarks/taps.py` prints the counts beside the targets."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page

from tests.browser.helpers import tap_and_load, tap_once_quiet

# Whether a control is wholly on screen: below the note of what a tap recorded (while it floats
# in the top half) and above the score strip (tests/browser/helpers.wait_until_quiet's geometry).
IN_VIEW = ("e => { const r = e.getBoundingClientRect();"
           " const strip = document.querySelector('.score-strip');"
           " const foot = innerHeight - (strip ? strip.offsetHeight : 0);"
           " const note = document.querySelector('.recorded');"
           " const seen = note && getComputedStyle(note).visibility === 'visible'"
           "   && note.getBoundingClientRect();"
           " const head = seen && seen.top < innerHeight / 2 ? seen.bottom : 0;"
           " return r.top >= head && r.bottom <= foot; }")


@dataclass
class Taps:
    """A page and the taps, key presses and choices made on it so far (each step logged)."""

    page: Page
    count: int = 0
    steps: list[str] = field(default_factory=list)

    def tap(self, target: Locator, what: str = "") -> None:
        """One tap on a button, link, chip or check box, waiting for its answer."""
        self.scroll_to(target)
        tap_and_load(self.page, target)
        self._counted(1, what or "tap")

    def touch(self, target: Locator, what: str = "") -> None:
        """One tap that only changes the form on the screen (a chip, a check box, a stepper's
        − or +): nothing is sent, so nothing is waited for (a scroll to it counts too)."""
        self.scroll_to(target)
        tap_once_quiet(self.page, target)
        self._counted(1, what or "tap on the form")

    def enter(self, target: Locator, text: str, what: str = "") -> None:
        """A tap into a field, a backspace for each character it held, then a key per
        character typed."""
        held = target.input_value()
        self.scroll_to(target)
        target.tap()
        target.fill(text)
        self._counted(1 + len(held) + len(text), what or f"type {text!r}")

    def choose(self, target: Locator, value: str, what: str = "") -> None:
        """One choice from a list (a select), however it is shown."""
        self.scroll_to(target)
        target.select_option(value)
        self._counted(1, what or f"choose {value!r}")

    def scroll_to(self, target: Locator) -> None:
        """A swipe, counted as a tap, when the control is not wholly on screen (above the score
        strip, below what a tap recorded while that floats at the top): it is brought to the
        middle of the screen."""
        if not target.evaluate(IN_VIEW):
            target.evaluate("e => e.scrollIntoView({block: 'center'})")
            self._counted(1, "scroll")

    def held_to(self, task: str, target: int) -> None:
        """The task took at most `target` taps; the count is kept for `benchmarks/taps.py` when
        it runs the tests (the file named by TAPS_REPORT gets one JSON line per task)."""
        report = os.environ.get("TAPS_REPORT")
        if report:
            with open(report, "a", encoding="utf-8") as kept:
                kept.write(json.dumps({"task": task, "taps": self.count, "target": target,
                                       "steps": self.steps}) + "\n")
        assert self.count <= target, f"{task}: {self}"

    def _counted(self, n: int, what: str) -> None:
        self.count += n
        self.steps.append(f"{what} ({n})")

    def __str__(self) -> str:
        return f"{self.count} taps: " + ", ".join(self.steps)
