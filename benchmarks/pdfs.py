"""PDF rendering: each game's score sheet and blank pad beside a bare WeasyPrint render.

Each side runs in a fresh process of its own, so memory is measured per process: after a
warm-up, RENDERS renders go through the documents in shuffled rounds; each render is timed,
and VmRSS is read before and after. `python benchmarks/pdfs.py app|bare RENDERS WARM_UP` runs
one side alone and prints JSON.
"""

from __future__ import annotations

import gc
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import games
import screens
from report import Figure

from companion import storage

SECTION = "PDF"
MEMORY_LIMIT_MB = 10
PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")
STREAM = re.compile(rb"stream\r?\n(.*?)endstream", re.DOTALL)


def rss_mb(pid: int | str = "self") -> float:
    """A process's resident memory (this one's by default), from /proc/<pid>/status (VmRSS,
    in kB)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024  # type: ignore[union-attr]


def measure(documents: dict[str, Callable[[], bytes]], renders: int,
            warm_up: int) -> dict[str, Any]:
    """`warm_up` renders of each document (the first counts its pages), then `renders`
    renders in shuffled rounds: the median time per document, and the growth of RSS."""
    pages = {name: page_count(render()) for name, render in documents.items()}
    for render in list(documents.values()) * (warm_up - 1):
        render()
    gc.collect()
    before = rss_mb()
    times: dict[str, list[float]] = {name: [] for name in documents}
    for name in shuffled_rounds(list(documents), renders):
        start = time.perf_counter()
        documents[name]()
        times[name].append(time.perf_counter() - start)
    gc.collect()
    return {
        "documents": {name: {"median_ms": 1000 * statistics.median(t), "renders": len(t),
                             "pages": pages[name]} for name, t in times.items()},
        "rss_before_mb": before,
        "rss_growth_mb": rss_mb() - before,
        "renders": renders,
    }


def shuffled_rounds(names: list[str], count: int) -> list[str]:
    """`count` names in rounds of all of them, each round in its own (seeded) random order:
    in a fixed order, the garbage collector's full passes (about 40 ms here) keep falling on
    the same document and skew its median."""
    rng = random.Random(0)
    order: list[str] = []
    while len(order) < count:
        order += rng.sample(names, len(names))
    return order[:count]


def page_count(pdf: bytes) -> int:
    """The pages of a PDF, whose page objects may sit in compressed object streams."""
    parts = [pdf]
    for stream in STREAM.finditer(pdf):
        try:
            parts.append(zlib.decompressobj().decompress(stream.group(1)))
        except zlib.error:
            continue
    return sum(len(PAGE.findall(part)) for part in parts)


# The bare side ---------------------------------------------------------------------------

BARE_HTML = """<!doctype html><html><head><meta charset="utf-8"><style>
@page {{ size: {size}; margin: 10mm; }}
body {{ font-family: "DejaVu Sans", sans-serif; font-size: 9pt; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border: 0.6pt solid #444; padding: 0.3em; text-align: center; }}
</style></head><body><h1>Score pad</h1><table>
<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></body></html>"""


def bare_html(size: str, rows: int = 16, columns: int = 6) -> str:
    """A one-page table: a header row, then `rows` rows of `columns` cells."""
    head = "".join(f"<th>Player {c}</th>" for c in range(columns))
    body = "".join("<tr>" + "".join(f"<td>{r * c}</td>" for c in range(columns)) + "</tr>"
                   for r in range(rows))
    return BARE_HTML.format(size=size, head=head, rows=body)


def bare_documents() -> dict[str, Callable[[], bytes]]:
    """WeasyPrint alone, with one FontConfiguration for the process as companion/pdf.py has."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()

    def render(html: str) -> Callable[[], bytes]:
        return lambda: bytes(HTML(string=html).write_pdf(font_config=fonts))

    return {size: render(bare_html(size)) for size in ("A4", "A5")}


# The app side -----------------------------------------------------------------------------

def app_documents(instance: Path) -> dict[str, Callable[[], bytes]]:
    """Every game's score sheet (of a scripted game) and blank pad, at the sizes the table
    page links to, fetched through the Flask test client: view, replay, template, WeasyPrint."""
    # Renders measure the PDFs, not the rate limit on score sheets.
    app = games.app_for(instance, {"WTF_CSRF_ENABLED": False,
                                   "RATE_LIMITS": {"sheet": (10**9, 1)}})
    client = app.test_client()
    database = storage.connect(app.config["DATABASE"])
    documents: dict[str, Callable[[], bytes]] = {}
    for slug in games.PLAYERS:
        table = games.seed(database, slug, mid_game=False)
        links = screens.Assets(client.get(table.url).get_data(as_text=True)).anchors
        sheet = first(links, "sheet.pdf", f"{table.url}sheet.pdf?size=A4")
        pad = first(links, "/pad/", f"/pad/{slug}.pdf?size=A5")
        documents[f"{slug} score sheet ({table.label}) {size_of(sheet)}"] = fetch(client, sheet)
        documents[f"{slug} blank pad {size_of(pad)}"] = fetch(client, pad)
    return documents


def first(links: list[str], part: str, default: str) -> str:
    return next((link for link in links if part in link), default)


def size_of(url: str) -> str:
    found = re.search(r"size=(A[45])", url, re.IGNORECASE)
    return found.group(1).upper() if found else "A5"


def fetch(client: Any, url: str) -> Callable[[], bytes]:
    def render() -> bytes:
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
        return bytes(response.data)

    return render


def child(side: str, renders: int, warm_up: int) -> None:
    with tempfile.TemporaryDirectory(prefix="companion-pdf-") as tmp:
        documents = app_documents(Path(tmp)) if side == "app" else bare_documents()
        print(json.dumps(measure(documents, renders, warm_up)))


# The parent: both children, then the figures ----------------------------------------------

def run_child(side: str, renders: int, warm_up: int) -> dict[str, Any]:
    here = Path(__file__).resolve()
    command = [sys.executable, str(here), side, str(renders), str(warm_up)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=900,
                         cwd=here.parent.parent)
    if out.returncode != 0:
        raise RuntimeError(f"PDF benchmark ({side}) failed:\n{out.stderr[-3000:]}")
    return dict(json.loads(out.stdout.splitlines()[-1]))


def run(renders: int, warm_up: int) -> list[Figure]:
    bare = run_child("bare", renders, warm_up)
    app = run_child("app", renders, warm_up)
    figures = []
    for name, doc in app["documents"].items():
        size = name.rsplit(" ", 1)[1]
        base = bare["documents"][size]["median_ms"]
        pages = f"{doc['pages']} page{'s' if doc['pages'] > 1 else ''}"
        figures.append(Figure(
            SECTION, f"{name}: median render", doc["median_ms"], "ms", base, "≤ 1.5 × bare",
            doc["median_ms"] <= 1.5 * base,
            f"{pages}, {doc['renders']} renders; bare: one-page {size} table"))
    growth = app["rss_growth_mb"]
    figures.append(Figure(
        SECTION, f"memory growth over {renders} renders", growth, "MB", bare["rss_growth_mb"],
        f"≤ {MEMORY_LIMIT_MB} MB", growth <= MEMORY_LIMIT_MB,
        f"one process, VmRSS after a warm-up ({app['rss_before_mb']:.0f} MB) and after "
        f"{renders} renders of all the documents; baseline: the bare renders"))
    return figures


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
