"""benchmarks/phone.py: each tap's server part, read from gunicorn's access log of the run."""

from benchmarks import phone, servers


def test_the_server_part_of_each_kind_of_tap_comes_from_its_own_requests(tmp_path):
    timed = tmp_path / "served.log"
    timed.write_text("GET /yard/t1/ 3\nPOST /yard/t1/buy 12\nGET /yard/t1/seq 1\n"
                     "POST /yard/t1/undo 9\nPOST /yard/t1/redo 8\nGET /yard/t1/seq 2\n"
                     "POST /yard/t1/buy 14\n")
    assert servers.served_times(timed, since=7) == []
    kinds = phone.server_times(servers.served_times(timed, since=1))
    assert dict(kinds) == {"action": [12, 14], "bare": [1, 2], "undo": [9], "redo": [8]}
    assert servers.served_times(tmp_path / "none.log") == []
