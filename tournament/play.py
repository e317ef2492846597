"""Sparring: a person plays a game against a bot in the terminal, as ``cardarena play``
runs it (docs/play.md).

The person sees what their seat may see and nothing more: the board is the game's
``render`` of ``observation_dict(seat)``, and every other move is told as
``action_view`` lets that seat see it.  A game is its seed and its history of actions.
Each chance outcome and each bot's seed derive from the seed and the number of the
step, so replaying a history rebuilds the position exactly, and a game undone, saved
or loaded goes on as it would have gone.
"""
import itertools
import json
import os
import random
import shlex
import signal
import sys
import threading
import time

import pyspiel

import core
import search
from tournament import levels
from tournament import review as reviews
from tournament.narrate import ChanceRuns
from tournament.runner import Terminated
from tournament.tables import write_file

FORMAT = "cardarena play"


class SaveFileError(core.CardArenaError):
    """A saved game that cannot be resumed: missing, unreadable, not a saved game, or
    one whose game, bot or moves this program refuses."""


class Match:
    """A person in ``seat`` of ``game`` against a bot of the ``bot`` spec in every other
    seat, dealt from ``seed``.  ``history`` holds every action and chance outcome so
    far, and ``state`` the position they lead to."""

    def __init__(self, game, bot, seat, seed, history=()):
        self.game = search.engine_game(game) if isinstance(game, str) else game
        players = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise core.PlayerError(f"a seat of {self.game.name} is from 0 to {players - 1}, "
                                   f"not {seat!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise core.ParameterError(f"a seed is an integer, not {seed!r}")
        self.seat, self.seed = seat, seed
        # One bot made now checks the spec and gives its normal form, which is saved.
        self.bot = search.make_bot(bot, self.game, (seat + 1) % players, seed).spec
        self._replay(history)

    def _replay(self, history):
        self.history = []
        self.state = self.game.new_initial_state()
        for i, action in enumerate(history):
            try:
                self.apply(action)
            except core.IllegalActionError:
                # Not the engine's message, which lists the legal moves: at the bot's
                # step or a draw they name cards the person may not see.
                raise core.IllegalActionError(f"step {i + 1} of the history: action "
                                              f"{action!r} is not legal there") from None

    @property
    def save_path(self):
        """Where ``quit`` saves: a file in the current directory named by the game
        string (parameters and all), the bot's spec, the person's seat and the seed,
        so that games against other bots or from other seats are saved apart."""
        return f"cardarena-{self.game}-{self.bot}-seat{self.seat}-{self.seed}.json"

    def apply(self, action):
        """Play ``action`` (or a chance outcome); raises ``core.IllegalActionError``
        and changes nothing if it is not legal."""
        self.state.apply_action(action)
        # OpenSpiel's bots answer with numpy integers, which a save cannot write as JSON.
        self.history.append(int(action))

    def _seed(self, purpose):
        # A string seed goes through SHA-512, so the streams do not depend on the
        # process's hash randomisation.
        return random.Random(f"{self.seed} {purpose} {len(self.history)}").getrandbits(63)

    def chance_outcome(self):
        """The outcome chance draws at this step, each outcome as likely as the rules
        make it."""
        outcomes = self.state.chance_outcomes()
        rng = random.Random(self._seed("chance"))
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]

    def bot_action(self, deadline=None):
        """The move the bot in the seat to move plays at this step, by ``deadline``
        (a ``search.Deadline``) if given."""
        bot = search.make_bot(self.bot, self.game, self.state.current_player(),
                              self._seed("bot"), deadline)
        return bot.step(self.state)

    def hint(self, deadline=None):
        """``(action, confidence)``: what a bot of this match's spec would play in the
        person's seat here, and how sure it is, in words, found by ``deadline`` if
        given.  It uses a stream of its own, so asking changes nothing that follows."""
        legal = self.state.legal_actions()
        seed = self._seed("hint")
        bot = search.make_bot(self.bot, self.game, self.seat, seed, deadline)
        # The bot is shown a world drawn from what the person knows: a bot that reads
        # the true state (cheater) would otherwise hint at the hidden cards.
        action = bot.step(self.state.determinized(self.seat, seed))
        if len(legal) == 1:
            return action, "your only legal move"
        return action, _confidence(bot, action)

    def judge(self, action, iterations=reviews.ITERATIONS, seed=0):
        """How the reviewer rates the person's playing ``action`` here, a decision
        with a choice: a :class:`tournament.review.Decision`.  It is the same rating
        ``review`` gives the step once the move is played."""
        reviewer = reviews.Reviewer(self.game, self.seat, iterations, seed)
        return reviewer.judge(self.state, len(self.history), action)

    def review(self, iterations=reviews.ITERATIONS, seed=0):
        """The :class:`tournament.review.Review` of the person's decisions so far."""
        return reviews.Reviewer(self.game, self.seat, iterations, seed).review(self.history)

    def forced(self):
        """Whether the person is to move and has one legal move."""
        return self.state.current_player() == self.seat \
            and len(self.state.legal_actions()) == 1

    def undo(self):
        """Go back to the person's previous decision (a move with a choice): False, with
        nothing changed, if there is none."""
        state = self.game.new_initial_state()
        back = None
        for i, action in enumerate(self.history):
            if state.current_player() == self.seat and len(state.legal_actions()) > 1:
                back = i
            state.apply_action(action)
        if back is None:
            return False
        self._replay(self.history[:back])
        return True

    def result(self):
        """How the game ended for the person, in words, with every seat's return;
        None while it goes on."""
        if not self.state.is_terminal():
            return None
        returns = self.state.returns()
        sides = self.game.teams()
        totals = [sum(returns[p] for p in side) for side in sides]
        best = [side for side, total in zip(sides, totals) if total == max(totals)]
        if len(best) == len(sides):
            verdict = "A draw."
        elif self.seat in best[0] and len(best) == 1:
            verdict = "You win." if len(best[0]) == 1 else "Your side wins."
        elif any(self.seat in side for side in best):
            verdict = "You share the win."
        else:
            winners = [p for side in best for p in side]
            verb = "wins" if len(winners) == 1 else "win"
            verdict = f"{_players(winners).capitalize()} ({self.bot}) {verb}."
        scores = ", ".join(f"player {p} {r:+g}" for p, r in enumerate(returns))
        return f"{verdict} Returns: {scores}."

    def to_dict(self):
        """Everything a saved game holds: the seed and the history rebuild the rest."""
        return {"format": FORMAT, "game": str(self.game), "bot": self.bot, "seat": self.seat,
                "seed": self.seed, "history": list(self.history)}

    def save(self, path):
        """Write the game to ``path`` as JSON; raises ``OSError`` if it cannot."""
        write_file(os.path.expanduser(path), json.dumps(self.to_dict()) + "\n")

    @classmethod
    def load(cls, path):
        """The game saved in ``path``; raises :class:`SaveFileError` saying what is
        wrong with it."""
        try:
            with open(os.path.expanduser(path)) as f:
                data = json.load(f)
        except OSError as e:
            raise SaveFileError(f"cannot read {path}: {e.strerror}") from None
        except ValueError as e:
            raise SaveFileError(f"{path} is not a saved game: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFileError(f"{path} is not a saved game of cardarena play")
        if "seed" not in data:
            # The web page's record of a game still going keeps its secret seed, which
            # would tell the cards to come: the game goes on here with draws of its own.
            data["seed"] = random.SystemRandom().randrange(10**6)
        kinds = {"game": str, "bot": str, "seat": int, "seed": int, "history": list}
        for key, kind in kinds.items():
            if not isinstance(data.get(key), kind) or isinstance(data[key], bool):
                raise SaveFileError(f"{path}: {key} is missing or not {kind.__name__}")
        try:
            return cls(data["game"], data["bot"], data["seat"], data["seed"], data["history"])
        except core.CardArenaError as e:
            raise SaveFileError(f"{path}: {e}") from None


def _confidence(bot, action):
    """How sure ``bot`` is of the ``action`` it just chose, in words."""
    result = bot.last
    if result is None:
        return f"{bot.spec} gives no confidence"
    value = f"expected score {result.values[action]:.2f} of 1"
    if isinstance(bot.searcher, search.MCTS):
        share = result.policy()[action]
        return f"{share:.0%} of {sum(result.visits.values())} visits, {value}"
    return value


def _real(path):
    """One name for every way of writing a file's path."""
    return os.path.realpath(os.path.expanduser(path))


def describe(state, action, observer):
    """``action`` (legal in ``state``, or a chance outcome) in words as ``observer`` sees
    it: its name; or, for one ``observer`` cannot see, the kind that every action it
    cannot tell apart from it shares, then ``??`` ("draw ??"); or just ``??``.  The
    kind, not the name's first word: a name may begin with the very card it hides.
    Actions ``observer`` cannot tell apart are told in the same words."""
    view = state.action_view(action, observer)
    if view == action:
        return state.action_to_string(action)
    alike = [a for a in state.legal_actions() if state.action_view(a, observer) == view]
    kinds = {state.action_kind(a) for a in alike}
    return f"{kinds.pop()} ??" if len(kinds) == 1 else "??"


def board(state, seat):
    """What ``seat`` sees of ``state``, as the game renders an observation."""
    return state.game.render(state.observation_dict(seat))


class Spinner:
    """A turning bar and the seconds spent, shown on ``stream`` while a bot thinks if
    ``stream`` is a terminal, and wiped when it is done.  A think shorter than one
    frame shows nothing."""

    FRAMES = "|/-\\"

    def __init__(self, stream, label):
        self.stream, self.label = stream, label
        self.done = threading.Event()
        self.thread = None

    def __enter__(self):
        if self.stream.isatty():
            self.thread = threading.Thread(target=self._spin, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        if self.thread is not None:
            self.done.set()
            self.thread.join()

    def _spin(self):
        start = time.monotonic()
        shown = False
        for frame in itertools.cycle(self.FRAMES):
            if self.done.wait(0.1):
                break
            self.stream.write(f"\r{self.label} {frame} {time.monotonic() - start:.1f}s")
            self.stream.flush()
            shown = True
        if shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


HELP = """\
  N            play move number N
  hint         what the bot would play in your place, and how sure it is
  review       rate each of your decisions so far, and the luck of the cards
  undo         go back to your previous decision
  save [FILE]  save the game (to {path} if no FILE is given)
  load [FILE]  resume a saved game (from {path} if no FILE is given)
  help         this list
  quit         save the game to {path} and stop (to a new name if that file holds
               a save this game did not make); end of input (Ctrl-D) does the same"""


class Console:
    """The sparring loop on a terminal: it plays chance and the bots, tells their moves,
    shows the person the board and their moves, and reads their choices and commands
    with ``read`` (``input`` by default), until the game ends or the person stops.

    With ``tutor`` (a loss on the [0, 1] scale of tournament/review.py), a move that
    gives up more is not played at once: the person is told and asked again, and
    plays it by choosing it a second time.  With ``offer_review`` the person is
    offered a review once the game ends.  Reviews and the tutor search
    ``iterations`` per position."""

    def __init__(self, match, out=sys.stdout, status=sys.stderr, read=input, tutor=None,
                 offer_review=False, iterations=reviews.ITERATIONS):
        self.match, self.out, self.status, self.read = match, out, status, read
        self.tutor, self.offer_review, self.iterations = tutor, offer_review, iterations
        # The move the tutor warned of, with the match and history it was warned at:
        # chosen again there, it is played.
        self.warned = None
        # Chance events come in runs (a deal, a draw of several cards): each run of
        # one kind is told on one line, gathered until something else happens.
        self.chance = ChanceRuns(out)
        # The files this game was saved to or loaded from: quit may write over these,
        # and over no other save.
        self.own = set()

    def run(self, loaded=None):
        """Play until the game ends (0) or the person stops: 0 once the game is saved,
        1 if end of input finds it cannot be; stopped by Ctrl-C or SIGTERM, it saves
        and returns 130 or 143, as a shell expects (1 if it could not save).
        ``loaded`` names the file the match came from, for the greeting."""
        if loaded:
            self.own.add(_real(loaded))
        self._intro(f"Loaded {loaded}: " if loaded else "")
        try:
            while True:
                self._advance()
                if self.match.state.is_terminal():
                    self._result()
                    if self.offer_review:
                        self._offer_review()
                    return 0
                self._show()
                code = self._ask()
                if code is not None:
                    return code
        except KeyboardInterrupt as stop:
            self._flush()
            self.out.write("\n")
            if not self._save_on_exit():
                return 1
            return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)

    def _write(self, text):
        self._flush()
        self.out.write(text + "\n")

    def _flush(self):
        self.chance.flush()
        self.out.flush()

    def _intro(self, prefix):
        m = self.match
        side = next(s for s in m.game.teams() if m.seat in s)
        partners = [p for p in side if p != m.seat]
        others = [p for p in range(m.game.num_players) if p not in side]
        team = f"; your partner{'s are' if len(partners) > 1 else ' is'} " \
            f"{_players(partners)}, played by {m.bot}" if partners else ""
        seats = f" as {_players(others)}" if len(others) > 1 or partners else ""
        self._write(f"{prefix}{m.game.long_name} ({m.game}): you are player {m.seat} against "
                    f"{m.bot}{seats}{team}, seed {m.seed}.")
        self._write("Type a move's number to play it; help lists the commands.")

    def _advance(self):
        """Play chance, the bots and the person's forced moves up to the person's next
        choice or the end of the game, telling each move."""
        m = self.match
        while not m.state.is_terminal():
            player = m.state.current_player()
            if m.state.is_chance_node():
                action = m.chance_outcome()
                self.chance.tell(describe(m.state, action, m.seat))
            elif player != m.seat:
                self._flush()
                with Spinner(self.status, f"player {player} is thinking"):
                    action = m.bot_action()
                self._write(f"  player {player}: {describe(m.state, action, m.seat)}")
            elif m.forced():
                action = m.state.legal_actions()[0]
                self._write(f"  you: {m.state.action_to_string(action)} (your only move)")
            else:
                return
            m.apply(action)

    def _show(self):
        m = self.match
        view = m.state.observation_dict(m.seat)
        where = [f"turn {view['turn'] + 1}"] if isinstance(view.get("turn"), int) else []
        where += [view["phase"]] if isinstance(view.get("phase"), str) else []
        self._write(f"\n== Your move (player {m.seat}){', ' + ', '.join(where) if where else ''}")
        self._write(board(m.state, m.seat))
        for i, action in enumerate(m.state.legal_actions(), 1):
            self._write(f"  {i:2}. {m.state.action_to_string(action)}")

    def _ask(self):
        """Read lines until one plays a move or changes the game (None) or stops the
        program (its exit status)."""
        m = self.match
        legal = m.state.legal_actions()
        while True:
            try:
                line = self.read(f"your move (1-{len(legal)}, or help)> ")
            except EOFError:
                self._write("")
                return 0 if self._save_on_exit() else 1
            word, _, arg = line.strip().partition(" ")
            arg = arg.strip()
            command = word.lower()
            try:
                number = int(word)
            except ValueError:
                number = None
            if arg and command not in ("save", "load"):
                # "1 2" or "undo 2" asks for more than its first word does.
                self._write(f"{line.strip()!r}: only save and load take something after "
                            "them; type a move's number or a command alone.")
            elif number is not None:
                if 1 <= number <= len(legal):
                    if self._tutor_objects(number, legal):
                        continue
                    self._write(f"  you: {m.state.action_to_string(legal[number - 1])}")
                    m.apply(legal[number - 1])
                    return None
                self._write(f"There is no move {number}: choose one from 1 to {len(legal)}.")
            elif not word:
                self._write(f"Type a move's number, from 1 to {len(legal)}, or help.")
            elif command == "hint":
                with Spinner(self.status, "thinking of a hint"):
                    action, confidence = m.hint()
                self._write(f"hint: {legal.index(action) + 1}. "
                            f"{m.state.action_to_string(action)}: {confidence}")
            elif command == "review":
                self._review()
            elif command == "undo":
                if m.undo():
                    self._write("Back to your previous decision.")
                    return None
                self._write("Nothing to undo: this is your first decision.")
            elif command == "save":
                self._save(arg or m.save_path)
            elif command == "load":
                if self._load(arg or m.save_path):
                    return None
            elif command in ("help", "?"):
                self._write("Commands:\n" + HELP.format(path=m.save_path))
            elif command in ("quit", "exit"):
                if self._save_on_exit():
                    return 0
                self._write("The game goes on: save FILE saves it elsewhere, and end of "
                            "input (Ctrl-D) stops without saving.")
            else:
                self._write(f"{line.strip()!r} is neither a move number nor a command; "
                            "help lists the commands.")

    def _tutor_objects(self, number, legal):
        """Whether the tutor stops move ``number``: it gives up more than the
        threshold, and the person has not chosen it again after a warning."""
        m = self.match
        action = legal[number - 1]
        if self.tutor is None or self.warned == (m, m.history, action):
            return False
        try:
            with Spinner(self.status, "the tutor is thinking"):
                decision = m.judge(action, self.iterations)
        except reviews.ReviewError as e:
            self._write(f"tutor: {e}.")
            return False
        if decision.loss <= self.tutor:
            return False
        self.warned = (m, list(m.history), action)
        self._write(f"tutor: {number}. {decision.chosen_name} gives up {decision.loss:.3f} "
                    f"of your expected score ({decision.mark or 'over your threshold'}): "
                    f"{decision.chosen_value:.2f}, where "
                    f"{legal.index(decision.preferred) + 1}. {decision.preferred_name} "
                    f"has {decision.preferred_value:.2f}.")
        self._write(f"Type {number} again to play it anyway, or choose another move.")
        return True

    def _review(self):
        try:
            with Spinner(self.status, "reviewing your moves"):
                text = reviews.report(self.match.review(self.iterations))
        except reviews.ReviewError as e:
            text = f"Cannot review: {e}."
        self._write(text)

    def _offer_review(self):
        try:
            line = self.read("review your moves? (review, or Enter to leave)> ")
        except EOFError:
            self._write("")
            return
        if line.strip().lower() in ("review", "y", "yes"):
            self._review()

    def _save(self, path):
        try:
            self.match.save(path)
        except OSError as e:
            self._write(f"Cannot save to {path}: {e.strerror}.")
            return False
        except ValueError as e:  # how open() refuses a name with a NUL character in it
            self._write(f"Cannot save to {path!r}: {e}.")
            return False
        self.own.add(_real(path))
        self._write(f"Saved to {path}.")
        return True

    def _save_on_exit(self):
        path = self._exit_path()
        if not self._save(path):
            return False
        self._resume_note(path)
        return True

    def _exit_path(self):
        """Where quit and end of input save: the match's own file, unless it holds a
        save this game did not write or load, which is kept as it is (and said to be):
        then the first free name after it."""
        default = self.match.save_path
        stem, ext = os.path.splitext(default)
        path, n = default, 1
        while os.path.isfile(path) and _real(path) not in self.own:
            n += 1
            path = f"{stem}-{n}{ext}"
        if path != default:
            self._write(f"{default} holds another save, kept as it is.")
        return path

    def _resume_note(self, path):
        self._write(f"Resume with: cardarena play {shlex.quote(str(self.match.game))} "
                    f"--load {shlex.quote(path)}")

    def _load(self, path):
        try:
            self.match = Match.load(path)
        except SaveFileError as e:
            self._write(f"{e}.")
            return False
        self.own.add(_real(path))
        self._intro(f"Loaded {path}: ")
        return True

    def _result(self):
        m = self.match
        self._write(f"\n== Game over after {len(m.history)} steps")
        self._write(board(m.state, m.seat))
        self._write(m.result())


def _game(text):
    """The game ``text`` names, ours or OpenSpiel's; an unknown name gets the closest."""
    from tournament import config as configs
    try:
        return configs.rules(text)
    except pyspiel.SpielError as e:
        name = text.split("(")[0].strip()
        if name not in pyspiel.registered_names():
            raise core.ParameterError(configs.unknown_game(name)) from None
        raise core.ParameterError(str(e).splitlines()[0]) from None


def _players(seats):
    """``player 1``, ``players 1 and 3``, ``players 1, 2 and 3``."""
    names = [str(p) for p in seats]
    if len(names) == 1:
        return f"player {names[0]}"
    return f"players {', '.join(names[:-1])} and {names[-1]}"


def run(args):
    """``cardarena play``: set up the match ``args`` describe (a new one, or the one
    ``args.load`` names) and play it; returns the exit status."""
    if sys.stdin is None:
        print("cardarena play: standard input is closed: there is nothing to read moves from",
              file=sys.stderr)
        return 2
    try:
        game = _game(args.game)
        if args.load:
            if args.elo is not None:
                raise core.ParameterError("--elo chooses the bot of a new game; a loaded "
                                          "game goes on against its own")
            match = Match.load(args.load)
            if match.game != game:
                raise SaveFileError(f"{args.load} holds a game of {match.game}, not {game}")
        else:
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
            bot = args.bot
            if args.elo is not None:
                level = levels.load(game).level(args.elo)
                bot = level.spec
                print(levels.describe(level, game))
            match = Match(game, bot, args.seat, seed)
        tutor = args.tutor
        if tutor is not None or args.review:
            # Checked before the game starts, not at the first move the tutor rates.
            reviewer = reviews.Reviewer(match.game, match.seat, args.review_iterations)
            if isinstance(tutor, str):
                tutor = dict(reviewer.thresholds)[tutor]
    except SaveFileError as e:
        print(f"cardarena play: {e}", file=sys.stderr)
        return 1
    except core.CardArenaError as e:
        print(f"cardarena play: {e}", file=sys.stderr)
        return 2
    # Bytes the terminal's encoding cannot read come in as U+FFFD and are answered like
    # any other bad line; strict decoding, most locales' default, ended the game.
    sys.stdin.reconfigure(errors="replace")
    return Console(match, tutor=tutor, offer_review=args.review or tutor is not None,
                   iterations=args.review_iterations).run(args.load)
