"""How a tap came: sent by app.js or not, the ghost of a double tap, what it submitted."""

from __future__ import annotations

import hashlib
import json
import time

from flask import current_app, request, session

from .forms import ActionForm, key_made, key_page, page_made

# The header app.js sends with an action it answers in place (a CSRF-safe custom header).
SCRIPT_HEADER = "X-Companion"
# The page this phone's last action answered without JavaScript loaded: when it was made
# (`ghost_tap`).
ANSWERED = "answered"


def sent_by_script() -> bool:
    """app.js sent this action and will update the page in place with the answer."""
    return request.headers.get(SCRIPT_HEADER) == "fetch"


def answer_page_made() -> None:
    """The page being made is the one an action's answer loaded, without JavaScript (its
    `tables.just_recorded` note taken): remember when (`forms.page_made`, its keys say it)."""
    session[ANSWERED] = page_made()


def ghost_tap(form: ActionForm) -> bool:
    """Without JavaScript, the second tap of a double tap, or a tap where the page moved: it
    lands on the page the first tap's answer loaded, so its form is from that page (its key
    says when it was made, `answer_page_made`), and it arrives sooner after that page was made
    than GHOST_TAP_SECONDS, as app.js holds a tap where the page moved. The time counts from
    the page's making, not from the action: a busy server's redirect and page, however slow,
    are not counted, and the browser sends a tap held during the load the moment the page
    shows. The page may show more than the action: another phone's recorded while it loaded
    (found by an audit: the ghost was recorded, a second park). A form from any other page (one
    opened or reloaded since, a fold-out's included: found at a table, a card's site tapped
    within a second of its builder's page; another phone's; one from before the action) is
    always meant, at whatever speed: a player who knows where to tap is not held back. A
    second tap that lands on the first tap's own page sends its key again: `storage.claim`
    gives it the first answer."""
    answered = session.get(ANSWERED)
    if sent_by_script() or not isinstance(answered, int) or key_page(form.key.data) != answered:
        return False
    return 0 <= time.time() - key_made(form.key.data) < current_app.config["GHOST_TAP_SECONDS"]


def submitted_digest() -> str:
    """What was submitted with the key (every field but the CSRF token, in any order): the same
    key with other fields is another button of the same form, not a retry."""
    fields = sorted((k, v) for k, values in request.form.lists() for v in values
                    if k != "csrf_token")
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()
