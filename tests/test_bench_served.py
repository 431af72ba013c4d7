"""benchmarks/phone.py: each tap's server part, read from the server's own access log of the
run (`python -m companion --access-log FILE`), as its AccessLog writes it."""

import time

from benchmarks import phone, servers
from companion.polls import ACCESS
from companion.serving import log_access


def test_the_server_part_of_each_kind_of_tap_comes_from_its_own_requests(app, tmp_path):
    timed = tmp_path / "access.log"
    log = log_access(app, str(timed))
    for method, path, ms in [("GET", "/yard/t1/", 3), ("POST", "/yard/t1/buy", 12),
                             ("GET", "/yard/t1/seq", 1), ("POST", "/yard/t1/undo", 9),
                             ("POST", "/yard/t1/redo", 8), ("GET", "/yard/t1/seq", 2),
                             ("POST", "/yard/t1/buy", 14)]:
        log.write({ACCESS: ("127.0.0.1", method, path)}, time.gmtime(),
                  time.monotonic() - ms / 1000, "200", 100)
    log.stream.close()
    assert servers.access_times(timed, since=7) == []
    kinds = {kind: [round(ms) for ms in times] for kind, times in
             phone.server_times(servers.access_times(timed, since=1)).items()}
    assert kinds == {"action": [12, 14], "bare": [1, 2], "undo": [9], "redo": [8]}
    assert servers.access_times(tmp_path / "none.log") == []
