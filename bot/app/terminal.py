"""``cribbage-bot play``: a game of cribbage in the terminal against computer players.

It runs through the same session manager and store as the Discord bot, and keeps its games
in a database of its own (:data:`TERMINAL_DB`, or the one ``--db`` names): a game left
unfinished there is resumed next time, and a finished one is there for ``cribbage-bot replay``
and ``review`` (the end of the game prints both commands). You sit in seat 1; computers take
the other seats. With ``--auto`` a computer plays your seat as well and the whole game is
printed unattended. The seats are named as replay and review name them
(:func:`bot.app.replay_cli.seat_names`).

Commands at a prompt (line editing and history where Python has ``readline``): card numbers or
codes (``1 4``, ``5h qs``), Enter to cut at random, ``?`` for the coach, ``s`` for the scores,
``q`` to concede, ``h`` for help.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import enum
import hashlib
import os
import random
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final, TextIO

from bot.ai import choose_action, coach
from bot.app.config import database_label
from bot.app.narrator import Narrator
from bot.app.replay_cli import TERMINAL_DB, TERMINAL_PLAYER, seat_names
from bot.engine import (
    Action,
    Card,
    Cut,
    Discard,
    Game,
    NextDeal,
    Phase,
    Play,
    Shown,
    Variant,
)
from bot.sessions import (
    LEVELS,
    AddComputer,
    AskCoach,
    Cancel,
    Finished,
    Forfeit,
    GameSessionManager,
    GameView,
    Move,
    OpenLobby,
    Outcome,
    PrivateView,
    Refusal,
    ShowHand,
    Start,
    StepEvent,
)
from db import Store, StoreError
from db.pg import is_url


class _Input(enum.Enum):
    END = "end of input"


END_OF_INPUT: Final = _Input.END
HUMAN = TERMINAL_PLAYER
"""The terminal player's user id (seat 1, the host)."""
CHANNEL = 1

HELP_HINT = " Type h for help."
HELP = """\
  cards     numbers from your hand (1 4) or codes (5h qs, 10d, a♠)
  Enter     cut the pack at random (when cutting)
  ?         ask the coach
  s         the scores
  q         concede the game
  h         this help"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register ``cribbage-bot play``'s arguments on ``parser``."""
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument(
        "--partnerships", action="store_true", help="four players in two partnerships"
    )
    parser.add_argument("--target", type=int, choices=(121, 61), default=121)
    parser.add_argument("--level", choices=LEVELS, default="standard", help="computer level")
    parser.add_argument(
        "--auto", action="store_true", help="computers take every seat; print the whole game"
    )
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help=f"the database the game is kept in (default: {TERMINAL_DB} in this directory); "
        "an unfinished game there is resumed",
    )
    parser.add_argument("--seed", type=int, help="deal and decide reproducibly")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cribbage-bot play",
        description="Play cribbage in the terminal against computer players.",
    )
    add_arguments(parser)
    return parser


# --------------------------------------------------------------------------- the table


def _decision_seed(base: int | None, game: Game, seat: int) -> int | None:
    """A reproducible seed per decision when the game has one (``--seed``)."""
    if base is None:
        return None
    where = f"{base}:{game.deal_number}:{game.phase.value}:{len(game.played)}:{seat}"
    return int.from_bytes(hashlib.blake2b(where.encode(), digest_size=8).digest(), "big")


def make_strategy(seed: int | None) -> Callable[[Game, int, str], Action]:
    def strategy(game: Game, seat: int, level: str) -> Action:
        return choose_action(game, seat, level=level, seed=_decision_seed(seed, game, seat))

    return strategy


class Table:
    """One terminal game: sets it up through the manager, then plays it to the end."""

    def __init__(
        self, args: argparse.Namespace, manager: GameSessionManager, inp: TextIO, out: TextIO
    ) -> None:
        self.args = args
        self.manager = manager
        self.inp = inp
        self.out = out
        self.variant = Variant(args.players, args.partnerships, args.target)
        self._game_id: int | None = None
        seats: list[None] = [None] * self.variant.players
        self.narrator = Narrator(seat_names(seats), self.variant, out)  # renamed once seated
        self.last_discard: tuple[tuple[Card, ...], tuple[Card, ...], bool] | None = None
        self.cuts = random.Random(args.seed)  # Enter cuts at random: reproducibly with --seed

    @property
    def game_id(self) -> int:
        """The game played (set by :meth:`_open`)."""
        if self._game_id is None:
            raise RuntimeError("no game is open yet")
        return self._game_id

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    async def run(self) -> int:
        await self.manager.resume()
        outcome = await self._open()
        if outcome is None:
            return 1
        self._tell(outcome)
        while outcome.finished is None:
            mine = self.manager.hands.private_view(ShowHand(self.game_id, HUMAN))
            if isinstance(mine, Refusal):
                self.say(mine.message)
                return 1
            if not mine.must_act:  # computers move at once; nothing to wait for
                self.say("(waiting on the other players)")
                return 1
            action = await self._choose(mine, outcome.view)
            if action is END_OF_INPUT:
                self.say()
                self.say(f"(end of input: the game stops here; {carry_on(self.args)})")
                return 1
            if action is None:
                conceded = await self.manager.play.forfeit(Forfeit(self.game_id, HUMAN))
                if isinstance(conceded, Outcome):
                    self._tell(conceded)
                self.say("You conceded the game.")
                self._where_to_see_it()
                return 0
            result = await self.manager.play.act(Move(self.game_id, HUMAN, action, step=mine.step))
            if isinstance(result, Refusal):
                self.say(result.message)
                continue
            if isinstance(action, Discard):
                kept = tuple(c for c in mine.hand if c not in action.cards)
                dealer = outcome.view.dealer
                own = dealer is not None and self.variant.side_of(dealer) == self.variant.side_of(0)
                self.last_discard = (kept, action.cards, own)
            outcome = result
            self._tell(outcome)
        self._where_to_see_it()
        return 0

    def _where_to_see_it(self) -> None:
        """The game's number, and the commands that show it again."""
        db = f" --db {shlex.quote(database_label(database_of(self.args)))}"
        whose = "the computers'" if self.args.auto else "your"
        self.say()
        self.say(f"This was game {self.game_id}. To see it again:")
        self.say(f"  cribbage-bot replay {self.game_id}{db}   deal by deal")
        self.say(f"  cribbage-bot review {self.game_id}{db}   {whose} play against the expert's")

    async def _open(self) -> Outcome | _Resumed | None:
        """Resume this file's unfinished game, or open a lobby, seat computers, start."""
        manager = self.manager
        level = self.args.level
        current = manager.live.in_channel(CHANNEL)
        if current is not None and current.status.value == "active":
            self._game_id = current.game_id
            self.variant = current.variant
            self._names(current)
            self.say(f"Resuming game {current.game_id} ({current.variant.name}).{HELP_HINT}")
            self.say(self._scores_line(current))
            return _Resumed(current)
        if current is not None:
            await manager.lobbies.cancel(Cancel(current.game_id, HUMAN))
        lobby = await manager.lobbies.open(
            OpenLobby(guild_id=None, channel_id=CHANNEL, host_id=HUMAN, variant=self.variant)
        )
        if isinstance(lobby, Refusal):
            self.say(lobby.message)
            return None
        self._game_id = lobby.game_id
        for _ in range(1, self.variant.players):
            view = await manager.lobbies.add_computer(AddComputer(self.game_id, HUMAN, level))
            if isinstance(view, Refusal):
                self.say(view.message)
                return None
        outcome = await manager.lobbies.start(Start(self.game_id, HUMAN))
        if isinstance(outcome, Refusal):
            self.say(outcome.message)
            return None
        self._names(outcome.view)
        who = "computers" if self.args.auto else "you (Player 1)"
        hint = "" if self.args.auto else HELP_HINT
        self.say(f"Cribbage, {self.variant.name}: {who} against {level} computer players.{hint}")
        return outcome

    def _names(self, view: GameView) -> None:
        self.narrator = Narrator(seat_names(view.seats), self.variant, self.out)

    def _tell(self, outcome: Outcome | _Resumed) -> None:
        for step_event in outcome.events:
            event = step_event.event
            self.narrator.tell(event)
            if (
                isinstance(event, Shown)
                and event.seat == 0
                and not event.crib
                and self.last_discard is not None
                and not self.args.auto
            ):
                kept, thrown, own = self.last_discard
                self.last_discard = None
                note = coach.discard_review(
                    kept,
                    thrown,
                    dealer=own,
                    players=self.variant.players,
                    partnerships=self.variant.partnerships,
                )
                if note:
                    self.say(f"  [coach, to you] {note}")

    def _scores_line(self, view: GameView) -> str:
        parts = [f"{self.narrator.side(side)} {score}" for side, score in enumerate(view.scores)]
        return f"Scores (to {self.variant.target}): " + ", ".join(parts)

    # ------------------------------------------------------------------ your turn

    async def _choose(self, mine: PrivateView, view: GameView) -> Action | _Input | None:
        """The player's next action; ``None`` to concede; END_OF_INPUT when input runs out."""
        if mine.phase is Phase.NEXT_DEAL:  # the show is printed: on to the next deal at once
            return NextDeal()
        if self.args.auto:
            strategy = make_strategy(self.args.seed)
            choice = await self.manager.hands.consult(
                self.game_id, HUMAN, lambda game, seat: strategy(game, seat, self.args.level)
            )
            return END_OF_INPUT if isinstance(choice, Refusal) else choice
        self._show_position(mine, view)
        while True:
            line = self._read_line(self._prompt(mine, view))
            if line is None:
                return END_OF_INPUT
            text = line.strip()
            if text.lower() in ("q", "quit", "concede"):
                return None
            if text.lower() in ("h", "help"):
                self.say(HELP)
                continue
            if text.lower() in ("s", "scores"):
                self.say(self._scores_line(self.manager.live.view(self.game_id) or view))
                continue
            if text in ("?", "hint", "coach"):
                advice = await self.manager.hands.advise(AskCoach(self.game_id, HUMAN))
                self.say(advice if isinstance(advice, str) else advice.message)
                continue
            action, problem = self._read_action(text, mine)
            if action is not None:
                return action
            self.say(problem)

    def _read_line(self, prompt: str) -> str | None:
        """A line typed after ``prompt``; ``None`` at the end of input. At a terminal through
        :func:`input`, which edits the line and keeps its history when ``readline`` is loaded
        (:func:`line_editing`)."""
        if self.inp is sys.stdin and self.out is sys.stdout and self.inp.isatty():
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        return self.inp.readline() or None

    def _show_position(self, mine: PrivateView, view: GameView) -> None:
        if mine.phase is Phase.DISCARD:
            self.say(self._scores_line(view))
        if mine.phase is Phase.PLAY:
            pile = " ".join(str(c) for c in view.pile) or "-"
            self.say(f"Starter {view.starter}. Count {view.count} (cards since 0: {pile})")
        if mine.phase in (Phase.DISCARD, Phase.PLAY):
            cards = "  ".join(f"{i}) {c}" for i, c in enumerate(mine.hand, 1))
            self.say(f"Your hand: {cards}")

    def _prompt(self, mine: PrivateView, view: GameView) -> str:
        if mine.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_FOR_STARTER):
            what = "for the deal" if mine.phase is Phase.CUT_FOR_DEAL else "for the starter"
            depths = [a.depth for a in mine.legal_actions if isinstance(a, Cut)]
            return f"Cut {what} (Enter, or a depth {depths[0]}-{depths[-1]}): "
        if mine.phase is Phase.DISCARD:
            k = self.variant.discards
            dealer = view.dealer
            whose = "your" if dealer in (0, None) else f"{self.narrator.names[dealer]}'s"
            return f"Lay away {k} card{'s' if k > 1 else ''} to {whose} crib: "
        return "Your card: "

    def _read_action(self, text: str, mine: PrivateView) -> tuple[Action | None, str]:
        legal = mine.legal_actions
        if mine.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_FOR_STARTER):
            if not text:
                return self.cuts.choice(legal), ""
            if text.isdigit() and Cut(int(text)) in legal:
                return Cut(int(text)), ""
            return None, "Press Enter to cut, or give a depth in range."
        cards = self._read_cards(text, mine.hand)
        if cards is None:
            return None, "Name cards by their number in your hand (1 4) or code (5h qs)."
        if mine.phase is Phase.DISCARD:
            action = Discard(cards)
            if action in legal:
                return action, ""
            k = self.variant.discards
            return None, f"Lay away exactly {k} different card{'s' if k > 1 else ''}."
        if len(cards) == 1 and Play(cards[0]) in legal:
            return Play(cards[0]), ""
        if len(cards) == 1:
            return None, f"The {cards[0]} would take the count past 31."
        return None, "Play one card."

    @staticmethod
    def _read_cards(text: str, hand: tuple[Card, ...]) -> list[Card] | None:
        out = []
        for part in text.replace(",", " ").split():
            if part.isdigit() and 1 <= int(part) <= len(hand):
                out.append(hand[int(part) - 1])
                continue
            try:
                card = Card.parse(part)
            except ValueError:
                return None
            if card not in hand:
                return None
            out.append(card)
        return out or None


class _Resumed:
    """Stands in for an outcome when a stored game is resumed (nothing new to tell)."""

    def __init__(self, view: GameView) -> None:
        self.view = view
        self.events: tuple[StepEvent, ...] = ()
        self.finished: Finished | None = None


def database_of(args: argparse.Namespace) -> Path | str:
    """The database the game is kept in: ``--db`` (a file, or a PostgreSQL URL), else
    :data:`TERMINAL_DB`."""
    if args.db is None:
        return TERMINAL_DB
    return str(args.db) if is_url(args.db) else Path(args.db)


def carry_on(args: argparse.Namespace) -> str:
    """Where an unfinished game stays, and the command that carries it on."""
    db = database_label(database_of(args))
    again = "cribbage-bot play" + ("" if args.db is None else f" --db {shlex.quote(db)}")
    return f"it is kept in {db}; {again} carries it on"


async def play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    try:
        store = await Store.open(database_of(args))
    except StoreError as err:
        print(err, file=sys.stderr)
        return 2
    try:
        return await Table(args, open_manager(store, args.seed), inp, out).run()
    finally:
        await store.close()


@contextlib.contextmanager
def _interrupted_at_the_prompt() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt where it lands, the prompt's wait for a line included.
    (Under Python's own handler :func:`asyncio.run` only cancels the game's task, which a wait
    for input never notices, so Ctrl-C would do nothing until Enter.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _raise_keyboard_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _raise_keyboard_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def line_editing() -> None:
    """Arrows and history at the prompt: loading ``readline`` (where Python has it) makes
    :func:`input` edit the line."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def open_manager(store: Store, seed: int | None) -> GameSessionManager:
    """The session manager of a terminal game: computers decide (and shuffle, with a ``seed``)
    reproducibly; the coach advises. It serves the tables of no Discord server (a terminal
    table has none), so a database shared with the bot keeps its Discord games to the bot."""
    if seed is None:
        return GameSessionManager(
            store, strategy=make_strategy(seed), coach=coach.hint, owns=_terminal_tables
        )
    seeds = random.Random(seed)
    return GameSessionManager(
        store,
        strategy=make_strategy(seed),
        coach=coach.hint,
        seed_source=lambda: seeds.getrandbits(64),
        owns=_terminal_tables,
    )


def _terminal_tables(guild_id: int | None) -> bool:
    return guild_id is None


def run(
    args: argparse.Namespace, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Play one game in the terminal: 0 when the game ends (or is conceded), 1 when it stops
    unfinished, 2 when the command cannot run."""
    out = stdout or sys.stdout
    if args.partnerships and args.players != 4:
        print("cribbage-bot play: --partnerships needs --players 4", file=sys.stderr)
        return 2
    if stdin is None and sys.stdin.isatty():
        line_editing()
    try:
        with _interrupted_at_the_prompt():
            return asyncio.run(play(args, stdin or sys.stdin, out))
    except KeyboardInterrupt:
        print(f"\nInterrupted; {carry_on(args)}.", file=out)
        return 130
    except BrokenPipeError:  # | head: the reader has gone (as replay_cli.emit explains)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def main(
    argv: list[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """``cribbage-bot play`` on its own parser; the exit status (see :func:`run`)."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    return run(args, stdin=stdin, stdout=stdout)
