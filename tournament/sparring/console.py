"""The terminal face of sparring (``cardarena play``; docs/play.md): the console that
plays chance and the bots, shows the person their board and moves, and reads their
choices and commands.  The match it plays is ``tournament.sparring.session``'s, which
the web page plays too."""
import difflib
import itertools
import os
import random
import shlex
import sys
import threading
import time


import core
from tournament import stops
from tournament.harness import config as configs
from tournament.sparring import levels
from tournament.sparring import review as reviews
from tournament.sparring.narrate import ChanceRuns, describe
from tournament.sparring.session import Match, SaveFileError, _players, _real, board


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
  card NAME    what is on a card: its cost, strength, abilities and effects
  words        what the board's words mean (marks, standing, unseen...)
  save [FILE]  save the game (to {path} if no FILE is given)
  load [FILE]  resume a saved game (from {path} if no FILE is given); another
               game's file saves this one first, as quit does
  help         this list
  quit         save the game to {path} and stop (to a new name if that file holds
               a save this game did not make, and nowhere if you have not moved
               since the game began, or since it was last loaded or saved); end of
               input (Ctrl-D) does the same"""


class Console:
    """The sparring loop on a terminal: it plays chance and the bots, tells their moves,
    shows the person the board and their moves, and reads their choices and commands
    with ``read`` (``input`` by default), until the game ends or the person stops.

    With ``tutor`` (a loss on the [0, 1] scale of tournament/sparring/review.py), a move that
    gives up more is not played at once: the person is told and asked again, and
    plays it by choosing it a second time.  With ``offer_review`` the person is
    offered a review once the game ends.  Reviews and the tutor search
    ``iterations`` per position.  With ``keep`` a game that ends is saved as ``quit``
    saves it, for ``cardarena review`` to rate later."""

    def __init__(self, match, out=sys.stdout, status=sys.stderr, read=input, tutor=None,
                 offer_review=False, iterations=reviews.ITERATIONS, keep=False):
        self.match, self.out, self.status, self.read = match, out, status, read
        self.tutor, self.offer_review, self.iterations = tutor, offer_review, iterations
        self.keep = keep
        # The move the tutor warned of, with the match and history it was warned at:
        # chosen again there, it is played.
        self.warned = None
        # Chance events come in runs (a deal, a draw of several cards): each run of
        # one kind is told on one line, gathered until something else happens.
        self.chance = ChanceRuns(out)
        # A bot's move told alike to the one before, and how many times in a row.
        self.repeats = None
        # The files this game was saved to or loaded from: quit may write over these,
        # and over no other save.
        self.own = set()
        # The file this game was last loaded from or saved to, where quit saves it
        # again (None for a game never saved), and the one it was loaded from.
        self.file = self.source = None
        # The person's moves since the game began or was last loaded or saved: with
        # none, there is nothing a save would keep that the seed does not.
        self.moved = 0

    def run(self, loaded=None):
        """Play until the game ends (0) or the person stops: 0 once the game is saved,
        1 if end of input finds it cannot be; stopped by Ctrl-C or SIGTERM, it saves
        and returns 130 or 143, as a shell expects (1 if it could not save).
        ``loaded`` names the file the match came from, for the greeting."""
        if loaded:
            self.own.add(_real(loaded))
            self.file, self.source = loaded, _real(loaded)
        self._intro(f"Loaded {loaded}: " if loaded else "")
        try:
            while True:
                self._advance()
                if self.match.state.is_terminal():
                    self._result()
                    if self.keep and self.moved and self._save(self._exit_path()):
                        self._write("Review it with: cardarena review "
                                    f"{shlex.quote(self.file)}")
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
            return stops.status(stop)

    def _write(self, text):
        self._flush()
        self.out.write(text + "\n")

    def _flush(self):
        self._tell_repeats()
        self.chance.flush()
        self.out.flush()

    def _tell_move(self, line):
        """Tell a bot's move, gathering a run of moves told alike (Card Duel's hidden
        build, a keep ?? a card kind) into one line."""
        if self.repeats is not None and self.repeats[0] == line:
            self.repeats[1] += 1
            return
        self._tell_repeats()
        self.repeats = [line, 1]

    def _tell_repeats(self):
        if self.repeats is not None:
            line, n = self.repeats
            self.repeats = None
            self.out.write(line + (f" ({n} times)" if n > 1 else "") + "\n")

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
                self._tell_repeats()
                self.chance.tell(describe(m.state, action, m.seat))
            elif player != m.seat:
                # The spinner's line must not cut into a run of chance events; a run
                # of moves told alike goes on after it.
                self.chance.flush()
                self.out.flush()
                with Spinner(self.status, f"player {player} is thinking"):
                    action = m.bot_action()
                self._tell_move(f"  player {player}: {describe(m.state, action, m.seat)}")
            elif m.forced():
                action = m.state.legal_actions()[0]
                self._write(f"  you: {m.state.action_to_string(action)} (your only move)")
            else:
                return
            m.apply(action)

    def _show(self):
        m = self.match
        where = reviews.where(m.state, m.seat)
        self._write(f"\n== Your move (player {m.seat}){', ' + where if where else ''}")
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
            if arg and command not in ("save", "load", "card"):
                # "1 2" or "undo 2" asks for more than its first word does.
                self._write(f"{line.strip()!r}: only save, load and card take something "
                            "after them; type a move's number or a command alone.")
            elif number is not None:
                if 1 <= number <= len(legal):
                    if self._tutor_objects(number, legal):
                        continue
                    self._write(f"  you: {m.state.action_to_string(legal[number - 1])}")
                    m.apply(legal[number - 1])
                    self.moved += 1
                    return None
                self._write(f"There is no move {number}: choose one from 1 to {len(legal)}.")
            elif not word:
                self._write(f"Type a move's number, from 1 to {len(legal)}, or help.")
            elif command == "hint":
                try:
                    with Spinner(self.status, "thinking of a hint"):
                        action, confidence = m.hint()
                except core.CardArenaError as e:
                    self._write(f"No hint here: {e}.")
                    continue
                self._write(f"hint: {legal.index(action) + 1}. "
                            f"{m.state.action_to_string(action)}: {confidence}")
            elif command == "review":
                self._review()
            elif command == "card":
                self._write(card(m.game, arg))
            elif command == "words":
                self._write(words(m.game))
            elif command == "undo":
                if m.undo():
                    self._write("Back to your previous decision.")
                    self.moved += 1
                    return None
                self._write("Nothing to undo: this is your first decision.")
            elif command == "save":
                self._save(arg or self.file or m.save_path)
            elif command == "load":
                path = arg or self.file or m.save_path
                # Another game's file: this one's moves not yet saved are kept first,
                # as quit keeps them.  Its own file takes it back to where it was saved.
                if not (self.file is not None and _real(path) == _real(self.file)
                        or self._save_on_exit(quiet=True)):
                    self._write("Not loaded, so as not to lose this game's moves: save "
                                "FILE saves them elsewhere.")
                elif self._load(path):
                    return None
            elif command in ("help", "?"):
                self._write("Commands:\n" + HELP.format(path=self.file or m.save_path))
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
        self._write(f"Saved back to {path}, the file the game was loaded from."
                    if _real(path) == self.source else f"Saved to {path}.")
        self.file, self.moved = path, 0
        return True

    def _save_on_exit(self, quiet=False):
        """Save the game as quit does; whether it is kept (or has nothing to keep).
        ``quiet`` leaves out the lines for nothing saved and how to resume."""
        if not self.moved:
            if not quiet:
                self._write("Nothing played since " + ("it was loaded" if self.file else
                                                        "the game began")
                            + ": nothing saved.")
            return True
        path = self._exit_path()
        if not self._save(path):
            return False
        if not quiet:
            self._resume_note(path)
        return True

    def _exit_path(self):
        """Where quit and end of input save: the file the game was last loaded from or
        saved to; for a game never saved, the match's own file, unless it holds a save
        this game did not write, which is kept as it is (and said to be): then the
        first free name after it."""
        if self.file is not None:
            return self.file
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
        self.file, self.source, self.moved = path, _real(path), 0
        self._intro(f"Loaded {path}: ")
        return True

    def _result(self):
        m = self.match
        self._write(f"\n== Game over after {len(m.history)} steps")
        self._write(board(m.state, m.seat))
        self._write(m.result())


def words(game):
    """What the words of ``game``'s board mean, a line each, as the page tells them
    when a name is pointed at."""
    glossary = (game.layout or {}).get("glossary")
    if not glossary:
        return f"{game.long_name}'s board uses no words of its own."
    return "\n".join(f"  {key.replace('_', ' ')}: {text}" for key, text in glossary.items())


def card(game, name):
    """What ``game``'s card ``name`` says, a line a thing, as the page shows it."""
    if not name:
        return "card NAME tells what is on a card: name one, as the board writes it."
    text = game.card_text(name)
    if text is not None:
        return "\n".join(f"  {key}: {value}" for key, value in text.items())
    names = game.cards.names if game.cards is not None else []
    if not any(game.card_text(n) for n in names):
        return f"{game.long_name}'s cards say nothing beyond their names."
    close = difflib.get_close_matches(name, names, 3, 0.6)
    return f"No card {name!r} in {game.long_name}" + (
        f"; did you mean {' or '.join(close)}?" if close else ".")


def run(args):
    """``cardarena play``: set up the match ``args`` describe (a new one, or the one
    ``args.load`` names) and play it; returns the exit status."""
    if sys.stdin is None:
        print("cardarena play: standard input is closed: there is nothing to read moves from",
              file=sys.stderr)
        return 2
    try:
        game = configs.check_game(args.game)
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
                   iterations=args.review_iterations, keep=True).run(args.load)
