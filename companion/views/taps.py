"""How a tap came: sent by app.js or not, the ghost of a double tap, what it submitted."""

from __future__ import annotations

import hashlib
import json
import time

from flask import current_app, request, session

from .forms import ActionForm, key_made

# The header app.js sends with an action it answers in place (a CSRF-safe custom header).
SCRIPT_HEADER = "X-Companion"
# This phone's last action answered without JavaScript: its seq and when (`ghost_tap`).
ANSWERED = "answered"


def sent_by_script() -> bool:
    """app.js sent this action and will update the page in place with the answer."""
    return request.headers.get(SCRIPT_HEADER) == "fetch"


def ghost_tap(form: ActionForm) -> bool:
    """Without JavaScript, the second tap of a double tap: it lands on the page the first tap's
    answer loaded, so its form is from that page (made after the action, showing it: its seq is
    the action's), and it arrives sooner after that page was made than anyone sees it and taps
    in reply (GHOST_TAP_SECONDS). The time counts from the page's making (its form's key says
    when), not from the action: a busy server's redirect and page, however slow, are not
    counted, and the browser sends a tap held during the load the moment the page shows. The
    page may show more than the action: another phone's recorded while it loaded (found by an
    audit: the ghost was recorded, a second park). A form from any other page (one opened or
    reloaded, another phone's, one from before the action, or the answer page tapped later)
    is always meant, at whatever speed: a player who knows where to tap is not held back. A
    second tap that lands on the first tap's own page sends its key again: `storage.claim`
    gives it the first answer."""
    answered = session.get(ANSWERED)
    if sent_by_script() or not answered or form.seq.data is None or \
            form.seq.data < answered.get("seq", form.seq.data + 1):
        return False
    made = key_made(form.key.data)
    since = time.time() - made
    return made >= float(answered.get("at", 0)) - 0.001 and \
        0 <= since < current_app.config["GHOST_TAP_SECONDS"]


def submitted_digest() -> str:
    """What was submitted with the key (every field but the CSRF token, in any order): the same
    key with other fields is another button of the same form, not a retry."""
    fields = sorted((k, v) for k, values in request.form.lists() for v in values
                    if k != "csrf_token")
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()
