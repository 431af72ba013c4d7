"""The W3C Nu Html Checker (vnu.jar, from npm's `vnu-jar`), run once over many pages: Java takes
seconds to start, and one run checks hundreds of files. scripts/test installs it into the
user's cache and says where in $COMPANION_VNU."""

import json
import os
import shutil
import subprocess
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion-test"
DEFAULT_JAR = CACHE / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
TIMEOUT_S = 600


def jar() -> Path:
    """Where vnu.jar is: $COMPANION_VNU, else where scripts/test installs it."""
    return Path(os.environ.get("COMPANION_VNU") or DEFAULT_JAR)


def missing() -> str | None:
    """Why the checker cannot run here (no jar, no Java), in words naming scripts/test; None
    when it can."""
    if not jar().is_file():
        return (f"The Nu Html Checker is not at {jar()}: run scripts/test, which installs it "
                "(npm's vnu-jar) into the user's cache, or set COMPANION_VNU to a vnu.jar")
    if not shutil.which("java"):
        return ("The Nu Html Checker needs Java: run scripts/test, which installs Debian's "
                "default-jre-headless when java is missing")
    return None


def errors(paths: list[Path]) -> dict[Path, list[dict]]:
    """Every error the checker finds in these HTML files, by file (a file without errors maps to
    []). Each error is vnu's JSON message: `message`, `lastLine`, `extract`, ..."""
    found: dict[Path, list[dict]] = {path.resolve(): [] for path in paths}
    if not paths:
        return found
    run = subprocess.run(
        ["java", "-Xss4m", "-jar", str(jar()), "--format", "json", "--errors-only",
         "--exit-zero-always", *map(str, paths)],
        capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    try:
        messages = json.loads(run.stderr)["messages"]
    except (ValueError, KeyError) as error:
        raise RuntimeError(f"vnu answered no report: {run.stderr[-2000:]}") from error
    for message in messages:
        if message.get("type") not in ("error", "non-document-error"):
            continue
        url = message.get("url", "")
        path = Path(url.removeprefix("file:")).resolve() if url.startswith("file:") else None
        found.setdefault(path, []).append(message)
    return found


def described(message: dict) -> str:
    """One error in a line: where, what, and the markup around it."""
    where = f"line {message['lastLine']}" if "lastLine" in message else "the file"
    extract = " ".join(message.get("extract", "").split())
    return f"{where}: {message['message']}" + (f" [{extract}]" if extract else "")
