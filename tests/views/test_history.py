"""The history page reads like a score pad: who did what, with the points it gave."""

import re

from tests.tables import FINISHED, seed
from tests.yard_moves import buy

GERMAN = {"Accept-Language": "de"}


def lines(client, slug, table_id, **headers):
    """The history's lines, oldest first, as plain text with single spaces (without their
    Change links)."""
    page = client.get(f"/{slug}/{table_id}/history", headers=headers).get_data(as_text=True)
    page = re.sub(r'<a class="[^"]*change-link[^"]*"[^>]*>.*?</a>', "", page)
    listed = page[page.index('<ol class="history"'):]
    items = re.findall(r"<li[^>]*>(.*?)</li>", listed[:listed.index("</ol>")], re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in reversed(items)]


def test_each_line_gives_the_points_the_action_scored(app, client):
    names, actions = FINISHED["yard"]
    table_id = seed(app, "yard", names, actions)
    said = lines(client, "yard", table_id)
    scoring_a = next(line for line in said if "Scoring A" in line)
    assert "Paul +5 · Tobi +4" in scoring_a
    assert not any("+" in line for line in said if "bought a park" in line)


def test_undone_actions_are_struck_and_give_no_points(app, client):
    names, _ = FINISHED["yard"]
    table_id = seed(app, "yard", names, [
        buy("Paul", "park"),
        ("score", {"scoring": "A"}), ("undo", {})])
    said = lines(client, "yard", table_id)
    assert said[1].startswith("#2 Scoring A (undone)") and "+5" not in said[1]
    assert said[2].startswith("#3 Undo: Scoring A") and "+5" not in said[2]


def test_fifth_avenue_plots_are_named_by_colour_in_english_and_german(app, client):
    names, actions = FINISHED["fifth_avenue"]
    table_id = seed(app, "fifth_avenue", names, actions)
    said = lines(client, "fifth_avenue", table_id)
    assert said[3].startswith("#4 Ann placed an initial skyscraper in 52nd St West, on the "
                              "orange plot")
    assert "Ann placed a perfume shop in 52nd St West, on the gray plot: business 1 of 12." in (
        said[7])
    german = lines(client, "fifth_avenue", table_id, **GERMAN)
    assert "Bauplatz {plot}" not in " ".join(german)
    assert german[3].startswith("#4 Ann setzt ein Start-Hochhaus in 52nd St West, auf Bauplatz")
    assert "plot" not in german[3]


def test_the_street_history_starts_with_the_prestige_of_the_starting_money(app, client):
    names, actions = FINISHED["street"]
    table_id = seed(app, "street", names, actions)
    said = lines(client, "street", table_id)
    assert said[0] == "#0 At the start Mia +3 · Ola +3"
    assert lines(client, "street", table_id, **GERMAN)[0] == "#0 Zu Beginn Mia +3 · Ola +3"
