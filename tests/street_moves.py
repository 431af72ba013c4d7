"""Street actions as a table logs them, for the tests that play a street game: a card, built
free or bought, the public pile's card, discards and whole turns that build nothing."""


def card(project="office", roof=False, gift=False, income=(), prestige=(), floor=None):
    return {"project": project, "double": False, "roof": roof, "gift": gift, "floor": floor,
            "no_gifts": False, "income": list(income), "prestige": list(prestige)}


def build(player, site, the_card, street=None):
    """The 1st action's free card (or the card bought just before), built."""
    return ("card", {"player": player, "street": street or player, "site": site,
                     "card": the_card})


def bought(player, site, the_card, deck, cost=0, street=None):
    """The 2nd action in one event: a card bought from `deck` (or the public pile), built."""
    return ("card", {"player": player, "street": street or player, "site": site,
                     "card": the_card, "bought_from": deck, "cost": cost})


def public(player, site, the_card, street=None):
    """The 2nd action: the public pile's card, free, built."""
    return bought(player, site, the_card, "public", street=street)


def discard(player):
    return ("discard", {"player": player})


def buy(player, deck, cost=0):
    return ("buy", {"player": player, "deck": deck, "cost": cost})


def passes(player):
    """A turn that builds nothing: the free card discarded, the public pile's card taken and
    discarded."""
    return (discard(player), buy(player, "public"), discard(player))


def takes_public(player):
    """A 2nd action that builds nothing: the public pile's card taken and discarded (all the
    turn of a player whose own deck is empty)."""
    return (buy(player, "public"), discard(player))


OFFICE_2 = card(income=[{"each": "flat", "amount": 2, "project": None}])
ROOF = card(project=None, roof=True, prestige=[{"each": "flat", "amount": 3, "project": None}])
LOSS = card("hotel", income=[{"each": "flat", "amount": -5, "project": None}])


def three_rounds():
    """Mia buys from Ola's deck (#2), Ola takes the upcoins (#3); in round 3 Mia buys the last
    card of Ola's deck (#10) and the table says so (#11), then corrects Ola's account (#12)
    and takes Mia's card off site 1 (#13)."""
    office = card()
    return [build("Mia", 1, office), bought("Mia", 2, office, "Ola", 2),
            ("upcoins", {"player": "Ola"}), public("Ola", 1, office),
            build("Mia", 3, office), public("Mia", 4, office),
            build("Ola", 2, office), public("Ola", 3, office),
            build("Mia", 5, office), bought("Mia", 1, office, "Ola", 0),
            ("deck_empty", {"player": "Ola", "by": "Mia"}),
            ("account", {"player": "Ola", "amount": 11, "reason": "miscounted"}),
            ("remove", {"street": "Mia", "site": 1})]
