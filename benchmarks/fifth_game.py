"""What adding a small game costs (issue 47), measured: `python benchmarks/fifth_game.py`.

`fifth_game.patch` adds Tally (three rounds, each player scores a number, the highest total
wins, a tie is broken by the last round) as a new engineer would, by the README's "Adding a
fifth game". This applies it to a temporary worktree of HEAD, prints each file it adds or edits
with its lines, and runs every fast test for Tally (the tests that loop over the games pick it
up from the registry; the HTML checks want COMPANION_VNU, as `scripts/test` sets it). A patch
that no longer applies says so: make it again from a branch (`git diff main > ...patch`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATCH = ROOT / "benchmarks" / "fifth_game.patch"


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout


def file_table(tree: Path) -> list[tuple[str, int, int]]:
    """(path, lines added, lines removed) of every file the patch touches."""
    git("add", "-A", cwd=tree)
    rows = [line.split("\t") for line in git("diff", "--cached", "--numstat", cwd=tree).split("\n")
            if line]
    return [(path, int(added), int(removed)) for added, removed, path in rows]


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        git("worktree", "add", "--detach", str(tree), "HEAD", cwd=ROOT)
        try:
            git("apply", str(PATCH), cwd=tree)
            rows = file_table(tree)
            for path, added, removed in rows:
                print(f"{path:36} +{added} -{removed}")
            rules = sum(a for p, a, _ in rows if p.startswith("companion/rules/tally"))
            tests = sum(a for p, a, _ in rows if p.startswith("tests/rules/"))
            rest = sum(a + r for p, a, r in rows) - rules - tests
            print(f"{len(rows)} files; its rules {rules} lines, their tests {tests}, "
                  f"everything else {rest}")
            env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
            return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                   "-m", "not browser", "-k", "tally", "tests"],
                                  cwd=tree, env=env).returncode
        finally:
            git("worktree", "remove", "--force", str(tree), cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main())
