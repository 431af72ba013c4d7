"""A full garbage collection in a process that serves as a worker does, after a flood's pages:
with what the process started with left out of collections (`gc.freeze()`, as
`companion.serving.Worker.init_process` does) or not. Run by `players_bench.flood` in a fresh
process for each side: `python benchmarks/gc_pause.py INSTANCE TABLE_URL [--freeze]` prints the
median milliseconds of COLLECTIONS full collections and the objects they go through."""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from pathlib import Path

import games

REQUESTS = 200  # of the long table's history and of the home page, before collecting
COLLECTIONS = 20


def pause(instance: Path, table_url: str, freeze: bool) -> dict[str, float]:
    app = games.app_for(instance, {"TESTING": True})
    if freeze:
        gc.freeze()
    client = app.test_client()
    for _ in range(REQUESTS):
        for url in (table_url + "history", "/"):
            assert client.get(url).status_code == 200, url
    times = []
    for _ in range(COLLECTIONS):
        began = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - began) * 1000)
    return {"ms": statistics.median(times), "objects": len(gc.get_objects())}


if __name__ == "__main__":
    print(json.dumps(pause(Path(sys.argv[1]), sys.argv[2], "--freeze" in sys.argv[3:])))
