"""The lock files (requirements/*.txt, written by scripts/lock) pin every dependency that
pyproject.toml names, at a version its range admits, with hashes: a lock cannot silently go stale,
and an audit (`pip-audit -r requirements/all.txt`) can be run elsewhere on exactly what is
installed here (issue 27)."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
EXTRAS = PYPROJECT["project"].get("optional-dependencies", {})
BUILD = PYPROJECT["build-system"]["requires"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def canonical(name):
    """A package's name as the index compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock):
    """{name: (version, number of hashes)} of one lock file."""
    found = {}
    for entry in re.split(r"\n(?=\S)", (ROOT / "requirements" / lock).read_text()):
        match = PIN.match(entry)
        if match:
            found[canonical(match.group(1))] = (match.group(2), entry.count("--hash=sha256:"))
    return found


def wanted(lock):
    """What pyproject.toml asks a lock file to pin: the app's dependencies and its build backend,
    and an extra's own for requirements/EXTRA.txt (all of them for requirements/all.txt)."""
    extras = {"app.txt": [], "all.txt": list(EXTRAS)}.get(lock, [lock.removesuffix(".txt")])
    return [Requirement(r) for r in
            [*PYPROJECT["project"]["dependencies"], *BUILD,
             *(r for extra in extras for r in EXTRAS[extra])]]


LOCKS = ["app.txt", "all.txt", *(f"{extra}.txt" for extra in EXTRAS)]


@pytest.mark.parametrize("lock", LOCKS)
def test_every_dependency_of_pyproject_is_pinned_in_the_lock(lock):
    locked = pins(lock)
    missing = [str(r) for r in wanted(lock) if canonical(r.name) not in locked]
    outside = [f"{r} (locked {locked[canonical(r.name)][0]})" for r in wanted(lock)
               if canonical(r.name) in locked
               and not r.specifier.contains(locked[canonical(r.name)][0], prereleases=True)]
    assert (missing, outside) == ([], []), "run scripts/lock"


@pytest.mark.parametrize("lock", LOCKS)
def test_every_pin_has_its_hashes(lock):
    assert pins(lock) and [name for name, (_, hashes) in pins(lock).items() if not hashes] == []


@pytest.mark.parametrize("lock", [lock for lock in LOCKS if lock != "all.txt"])
def test_every_lock_pins_a_shared_package_at_one_version(lock):
    everything = pins("all.txt")
    assert {n: v for n, (v, _) in pins(lock).items() if everything[n][0] != v} == {}


def test_the_build_backend_is_locked_as_pyproject_asks():
    listed = (ROOT / "requirements" / "build.in").read_text().splitlines()
    assert [line for line in listed if line and not line.startswith("#")] == BUILD


def test_setup_installs_from_the_lock_with_its_hashes():
    setup = (ROOT / "scripts" / "setup").read_text()
    assert 'lock="requirements/${extra:-app}.txt"' in setup
    assert '--require-hashes -r "$lock"' in setup
    assert "--no-deps --no-build-isolation -e ." in setup
