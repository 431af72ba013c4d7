"""Driving wrk: Lua scripts generated into a temporary directory, results read back as JSON."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

CONNECTIONS = 16  # one wrk thread per connection, so a thread's Lua state is its connection's

# Every script: thread ids, a status count per thread, and one JSON line with the results.
COMMON = r"""
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function count(status)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

function done(summary, latency, requests)
  local merged, parts = {}, {}
  for _, thread in ipairs(threads) do
    for key, n in pairs(thread:get("statuses")) do merged[key] = (merged[key] or 0) + n end
  end
  for key, n in pairs(merged) do table.insert(parts, string.format('"%s": %d', key, n)) end
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests": %d, "duration_us": %d, "p50_us": %.0f, "p99_us": %.0f, ' ..
    '"timeouts": %d, "socket_errors": %d, "statuses": {%s}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.timeout, errors.connect + errors.read + errors.write, table.concat(parts, ", ")))
end
"""

GET = r"""
function init(args)
  statuses = {}
end

function response(status, headers, body)
  count(status)
end
"""


@dataclass(frozen=True)
class Load:
    """What one wrk run measured."""

    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    statuses: dict[str, int]
    errors: int

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def share(self, status: int) -> float:
        return self.statuses.get(str(status), 0) / max(1, self.requests)


def lua_string(text: str) -> str:
    return json.dumps(text)  # a JSON string literal is a valid Lua string literal here (ASCII)


def simple_script(directory: Path, name: str, cookie: str | None = None,
                  method: str = "GET", body: str | None = None) -> Path:
    """The same request every time (a phone's session cookie, a form body), statuses counted."""
    lines = [f"wrk.method = {lua_string(method)}"]
    if cookie:
        lines.append(f"wrk.headers[\"Cookie\"] = {lua_string(cookie)}")
    if body is not None:
        lines.append(f"wrk.body = {lua_string(body)}")
        lines.append('wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"')
    path = directory / f"{name}.lua"
    path.write_text(COMMON + GET + "\n".join(lines) + "\n")
    return path


def run(url: str, script: Path, seconds: int, connections: int = CONNECTIONS,
        env: dict[str, str] | None = None) -> Load:
    """wrk -t16 -c16 --latency (or as many `connections`, a thread each) for `seconds`, with
    `script` (and `env`, such as a preloaded library); the results of its done()."""
    command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds}s", "--latency",
               "--timeout", "5s", "-s", str(script), url]
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60,
                         env=None if env is None else {**os.environ, **env})
    line = next((x for x in out.stdout.splitlines() if x.startswith("BENCH_JSON ")), None)
    if out.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({out.returncode}): {out.stdout[-500:]} {out.stderr}")
    data = json.loads(line.removeprefix("BENCH_JSON "))
    return Load(data["requests"], data["duration_us"] / 1e6, data["p50_us"] / 1000,
                data["p99_us"] / 1000, data["statuses"], data["timeouts"] + data["socket_errors"])

