"""benchmarks/report.py: a step measured alone (`run.py --only`) replaces its own section of
RESULTS.md and the method, and leaves the other sections as the whole run wrote them."""

from benchmarks.report import Figure, write_markdown, write_steps


def test_a_step_measured_alone_replaces_only_its_section(tmp_path):
    results = tmp_path / "RESULTS.md"
    whole = [Figure("Pages", "table page", 1.0, "ms"), Figure("Players", "GET /players", 9.0, "ms")]
    write_markdown(results, whole, "python benchmarks/run.py", 300, (1.0, 2.0), ["- old method"])
    alone = [Figure("Players", "GET /players, 100 of 20,000", 4.0, "ms", target="≤ 50 ms",
                    met=True, note="with the browser's cookie")]
    write_steps(results, alone, "python benchmarks/run.py --only 'players pages'", 60,
                (0.5, 0.7), ["- new method"])
    text = results.read_text()
    assert "| table page | 1.00 ms |" in text  # another step's figure stays
    assert "GET /players | 9.00 ms" not in text
    assert "| GET /players, 100 of 20,000 | 4.00 ms" in text
    assert "_Measured alone on " in text and "--only 'players pages'" in text
    assert "- new method" in text and "- old method" not in text
    assert text.index("## Players") < text.index("## How these were measured")
    assert text.count("## Players") == 1 and text.endswith("- new method\n")


def test_a_new_section_goes_before_the_method(tmp_path):
    results = tmp_path / "RESULTS.md"
    write_markdown(results, [Figure("Pages", "table page", 1.0, "ms")], "run", 1, (0, 0), ["- m"])
    write_steps(results, [Figure("Flood", "GET / p99", 5.0, "ms")], "run --only x", 1, (0, 0),
                ["- m"])
    text = results.read_text()
    assert text.index("## Pages") < text.index("## Flood") < text.index("## How these were")
