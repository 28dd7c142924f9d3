"""Set up exact positions of the engine for rules tests (through its own to_dict/from_dict)."""

from bot.engine import FULL_PACK, Card, Game, Play, Variant, parse_cards


def position(
    variant: Variant,
    *,
    dealer: int,
    kept: list[str],
    starter: str,
    crib: str | None = None,
    scores: list[int] | None = None,
    held: list[str] | None = None,
    pile: str = "",
    turn: int | None = None,
) -> Game:
    """A game in the play: ``kept[seat]`` is each seat's four cards for the show.

    By default it is right after the starter. With ``held`` each seat still holds only those
    cards (the others of ``kept`` were laid), ``pile`` the cards laid since the last reset, and
    ``turn`` the seat to lay next.
    """
    game = Game.new(variant, seed=1, first_dealer=dealer)
    hands = [parse_cards(h) for h in kept]
    starter_card = Card.parse(starter)
    used = {c for h in hands for c in h} | {starter_card}
    rest = [c for c in FULL_PACK if c not in used]
    crib_cards = parse_cards(crib) if crib else rest[:4]
    rest = [c for c in rest if c not in crib_cards]
    holding = [parse_cards(h) for h in held] if held is not None else hands
    pile_cards = parse_cards(pile)
    laid = [(seat, c) for seat, h in enumerate(hands) for c in h if c not in holding[seat]]
    state = game.to_dict()
    state.update(
        phase="play",
        hands=[[c.code for c in h] for h in holding],
        played=[[seat, c.code] for seat, c in laid],
        pile=[c.code for c in pile_cards],
        count=sum(c.value for c in pile_cards),
        kept=[[c.code for c in sorted(h)] for h in hands],
        crib=[c.code for c in crib_cards],
        pack=[c.code for c in rest],
        discarded=list(range(variant.players)),
        starter=starter_card.code,
        turn=(dealer + 1) % variant.players if turn is None else turn,
        scores=scores or [0] * variant.sides,
    )
    restored = Game.from_dict(state)
    assert sum(len(h) for h in hands) + len(crib_cards) + len(rest) + 1 == 52
    return restored


def play(game: Game, *cards: str) -> list:
    """Lay these cards in turn; each must belong to the seat whose turn it is."""
    events = []
    for text in cards:
        seat = game.to_act[0]
        events += game.apply(seat, Play(Card.parse(text)))
    return events


def random_two_handed(rng) -> tuple[Game, list[Card], list[Card]]:
    """A two-handed game right after the starter, on nine random cards: the game, the pone's
    four cards (seat 1, to lead) and the dealer's (seat 0)."""
    cards = rng.sample(FULL_PACK, 9)
    pone, dealer, starter = cards[:4], cards[4:8], cards[8]
    game = position(
        Variant(players=2),
        dealer=0,
        kept=[" ".join(c.code for c in dealer), " ".join(c.code for c in pone)],
        starter=starter.code,
    )
    return game, pone, dealer
