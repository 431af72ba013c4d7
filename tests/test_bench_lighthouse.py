"""benchmarks/lighthouse.py: which of Lighthouse's runs count, and what the notes say of them."""

import json
import sys

import pytest

from benchmarks import lighthouse

# Stands in for lighthouse_run.mjs: given the report to write and the exit status before the
# runner's own arguments (NODE_MODULES URL OUTPUT ...), writes the report to OUTPUT, says a
# last line on stderr and exits so.
FAKE = """import sys
report, code, runner, modules, url, out = sys.argv[1:7]
open(out, "w").write(report)
print("After the run: Error: Protocol error (Page.enable): Session closed.", file=sys.stderr)
sys.exit(int(code))
"""


def whole(*categories):
    return {"configSettings": {"onlyCategories": list(categories)},
            "categories": {name: {"score": 1} for name in categories}}


def test_a_report_counts_only_when_it_scores_every_category_asked(tmp_path):
    path = tmp_path / "report.json"
    assert lighthouse.report_in(path) == {}
    path.write_text("")
    assert lighthouse.report_in(path) == {}
    path.write_text(json.dumps(whole("accessibility", "performance"))[:40])
    assert lighthouse.report_in(path) == {}
    half = whole("accessibility", "performance")
    del half["categories"]["performance"]
    path.write_text(json.dumps(half))
    assert lighthouse.report_in(path) == {}
    path.write_text(json.dumps(whole("accessibility", "performance")))
    assert lighthouse.report_in(path) == whole("accessibility", "performance")


def audit_with(tmp_path, monkeypatch, report, code):
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE)
    monkeypatch.setattr(lighthouse, "RETRY_PAUSE_S", 0)
    monkeypatch.setattr(lighthouse, "ATTEMPTS", 2)
    runner = lighthouse.Lighthouse(tmp_path / "unused", "http://127.0.0.1:9", tmp_path / "h.json",
                                   tmp_path)
    real = lighthouse.subprocess.run
    monkeypatch.setattr(lighthouse.subprocess, "run", lambda command, **kw: real(
        [sys.executable, str(fake), report, str(code), *command[1:]], **kw))
    return runner.audit(lighthouse.Page("home", "/"), "performance", dark=False)


def test_a_whole_report_is_kept_when_lighthouse_fails_on_its_way_out(tmp_path, monkeypatch):
    found = audit_with(tmp_path, monkeypatch, json.dumps(whole("performance")), 3)
    assert found["categories"] == {"performance": {"score": 1}}
    assert found["retried"] == []
    assert lighthouse.retries(found) == [
        "Lighthouse ended with an error after its whole report (exit 3: After the run: Error: "
        "Protocol error (Page.enable): Session closed.)"]


def test_a_run_without_a_whole_report_is_run_again_then_fails(tmp_path, monkeypatch):
    with pytest.raises(RuntimeError, match="^lighthouse failed 2 times: exit 1: After the run"):
        audit_with(tmp_path, monkeypatch, "", 1)


def test_a_run_that_ends_well_says_nothing(tmp_path, monkeypatch):
    found = audit_with(tmp_path, monkeypatch, json.dumps(whole("performance")), 0)
    assert found["exited"] == "" and lighthouse.retries(found) == []
