"""A table is read once per request, also by routes that look at it before the action's
pipeline does (the 5th Avenue plot tap, Urbanisation's actions, the yard's end)."""

import re

from companion import storage
from tests.conftest import act, fresh, new_table


def test_a_plot_tap_reads_its_table_once(client, monkeypatch):
    url = new_table(client, "Ann", "Ben", game="fifth_avenue")
    assert act(client, url, "board/saved").status_code == 303
    assert act(client, url, "setup/draw").status_code == 303
    assert act(client, url, "first", player="Ann").status_code == 303
    fields = fresh(client, url)
    page = client.get(url).get_data(as_text=True)
    target = re.search(r'name="target" value="([^"]+)"', page).group(1)  # an empty plot
    reads = []
    real = storage.get_table
    monkeypatch.setattr(storage, "get_table", lambda db, table_id: reads.append(table_id)
                        or real(db, table_id))
    response = client.post(url + "plot", data={"target": target, **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert len(reads) == 1
