"""Playing a tournament's games: one game from plain data (so any worker, local or on a
cluster, can play it), and a whole run that stores each game as it ends.

Every random choice of a game comes from its deal's seed and its seating, so a game
comes out the same whichever worker plays it, and in whatever order."""
import concurrent.futures as futures
import ctypes
import hashlib
import multiprocessing
import numbers
import os
import signal
import sys
import threading
import time
import typing
from concurrent.futures.process import BrokenProcessPool

import pyspiel
from tqdm import tqdm

import core  # noqa: F401  (registers our games with pyspiel)
from tournament.harness import config as configs
from tournament.harness.deals import Deal
from tournament.harness.row import GameRow
from tournament.stops import Terminated

# Each worker process loads a game once, however many of its games it plays.
_GAMES = {}
# A move that runs this many times its limit (plus a second) is stopped where it is.
HARD_LIMIT = 2.0


def job(config, deal, seating, rotation=0):
    """The plain data ``play`` needs for one game of ``config``: its ``rotation`` is
    None unless ``config.rotations``."""
    return {"game": config.game, "deal": deal, "deal_seed": config.deal_seed(deal),
            "rotation": rotation if config.rotations else None,
            "seating": list(seating), "specs": [config.bots[n] for n in seating],
            "seconds_per_move": config.seconds_per_move, "max_length": config.max_length}


class Overtime(BaseException):
    """A move stopped at the hard limit.  Not an Exception, so that a bot that guards
    its search with ``except Exception`` cannot catch it and think on."""


def play(job):
    """Play one game; returns its :class:`~tournament.harness.row.GameRow`, the job's
    fields filled in with how the game went.

    A bot that raises, overruns ``seconds_per_move``, plays an illegal action or changes
    the state it is handed loses: its seat gets the game's least utility and every
    other seat the most."""
    game, record, limit = _game(job["game"]), _Record(job), job["seconds_per_move"]
    deal = Deal(job["deal_seed"], job.get("rotation"))
    state = game.new_initial_state()
    bots = []
    for seat, spec in enumerate(job["specs"]):
        _at_work(seat)
        try:
            bots.append(configs.make_bot(spec, game, seat, _seed(job["deal_seed"], seat)))
        except BaseException as e:  # a bot that cannot be built loses at once
            if _is_stop(e):
                raise
            return record.lost(game, "error", seat, f"cannot make the bot: {e}")
    alarm = _Alarm(limit * HARD_LIMIT + 1)
    try:
        failure = _moves(state, bots, deal, record, limit, job["max_length"], alarm)
    finally:
        alarm.close()
    if failure is not None:
        return record.lost(game, *failure)
    return record.row(list(state.returns()))


def _game(name):
    game = _GAMES.get(name)
    if game is None:
        game = _GAMES[name] = pyspiel.load_game(name)
    return game


class _Record:
    """A game of ``job`` as it is played: its actions, decisions and thinking time so
    far, and whether the length limit stopped it."""

    def __init__(self, job):
        self.job, self.history, self.length = job, [], 0
        self.seconds = [0.0] * len(job["seating"])
        self.status = "ok"

    def row(self, returns, status=None, failed=None, message=None):
        """The finished game's row."""
        job = self.job
        return GameRow(deal=job["deal"], seating=job["seating"], returns=returns,
                       status=status or self.status, failed=failed, message=message,
                       length=self.length, history=self.history, seconds=self.seconds,
                       game=job["game"], deal_seed=job["deal_seed"],
                       rotation=job.get("rotation") or 0, specs=job["specs"])

    def lost(self, game, status, seat, message):
        """The row of a game lost by the bot in ``seat``: the game's least utility for
        its seat and the most for every other."""
        seating = self.job["seating"]
        returns = [game.min_utility() if p == seat else game.max_utility()
                   for p in range(len(seating))]
        return self.row(returns, status, seating[seat], message)


def _moves(state, bots, deal, record, limit, max_length, alarm):
    """Play ``state`` to its end or to ``max_length`` decisions, its chance from
    ``deal``, recording into ``record``; returns ``(status, seat, message)`` when a bot
    fails, else None."""
    while not state.is_terminal():
        deal.step(state)
        if state.is_chance_node():
            action = deal.draw(state)
        else:
            if record.length >= max_length:
                record.status = "length"
                return None
            player = state.current_player()
            # Bots are handed the game's own state, which they must leave as it is;
            # one that applies actions to it would corrupt the game and its record.
            moves = state.move_number()
            start = time.perf_counter()
            action, failure = _call(alarm, player, "", bots[player].step, state)
            spent = time.perf_counter() - start
            record.seconds[player] += spent
            if failure is not None:
                return failure[0], player, failure[1]
            if spent > limit:
                return "timeout", player, f"took {spent:.3f} s of {limit:g} s"
            if state.move_number() != moves:
                return "illegal", player, CHANGED_STATE
            # A float equal to a legal action passes the test below, but is no action.
            if not isinstance(action, numbers.Integral) or action not in state.legal_actions():
                return "illegal", player, \
                    f"played {action!r}, which is not legal at move {record.length}"
            for other, bot in enumerate(bots):
                if other != player:
                    _, failure = _call(alarm, other, " in inform_action",
                                       bot.inform_action, state, player, action)
                    if failure is not None:
                        return failure[0], other, failure[1]
                    if state.move_number() != moves:
                        return "illegal", other, CHANGED_STATE
            record.length += 1
        record.history.append(int(action))
        state.apply_action(action)
    return None


CHANGED_STATE = "changed the game's state instead of a copy of it"


def _call(alarm, seat, where, method, *args):
    """``method(*args)``, of the bot in ``seat``, under the hard limit: (its result,
    None), or (None, (status, message)) when it raises or is stopped; ``where`` follows
    the failure's kind in the message."""
    _at_work(seat)
    start = time.perf_counter()
    try:
        with alarm:
            return method(*args), None
    except Overtime:
        # Later than the alarm when the bot was in compiled code, which hears the
        # signal only once it returns.
        taken = time.perf_counter() - start
        return None, ("timeout", f"stopped after {taken:.1f} s{where}")
    # Whatever a bot raises, it loses the game by it; even SystemExit, which would
    # otherwise end the whole run.  Ctrl-C still stops the run.
    except BaseException as e:
        if _is_stop(e):
            raise
        return None, ("error", f"{type(e).__name__}{where}: {e}")


def _is_stop(error):
    """Whether ``error`` is Ctrl-C or SIGTERM stopping the run.  Workers ignore Ctrl-C,
    which the command's process sees, so a KeyboardInterrupt in one is a bot's own."""
    return isinstance(error, Terminated) or (
        isinstance(error, KeyboardInterrupt)
        and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)


# In a process that plays one game alone (see _play_alone), the shared number in which
# it keeps the seat whose bot is at work; None elsewhere.
_mover = None


def _at_work(seat):
    if _mover is not None:
        _mover.value = seat


def _play_alone(job):
    """Play one game in a process of its own.  A game that kills the process playing
    it (a bot that crashes in compiled code, or is killed for the memory it takes) is
    lost by the bot that was at work."""
    context = multiprocessing.get_context("fork")
    mover = context.Value("i", 0, lock=False)
    pool = futures.ProcessPoolExecutor(1, mp_context=context, initializer=_alone,
                                       initargs=(os.getpid(), mover))
    try:
        return pool.submit(play, job).result()
    except BrokenProcessPool:
        return _Record(job).lost(_game(job["game"]), "error", mover.value,
                                 "its process died: a crash in compiled code, or killed "
                                 "for its memory")
    finally:
        _stop(pool)  # at once, on Ctrl-C too


def _alone(parent, mover):
    global _mover
    _worker(parent)
    _mover = mover


def _worker(parent):
    """Make this freshly forked process a worker of process ``parent``: it leaves
    Ctrl-C and SIGTERM to the parent, which stops its workers itself, and it ends when
    the parent does, however the parent ends (killed outright, say, by the
    out-of-memory killer), instead of playing on for no one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent's SIGTERM handler came with the fork; the parent stops a worker by
    # SIGTERM, which must end it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        # The kernel sends the signal when the thread that forked this process ends,
        # so pools are made by the thread that runs the whole run.  Where a sandbox
        # forbids the call, the worker plays on without it: a worker that failed here
        # would have its games counted as lost by their bots.
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    # A parent that died before the line above sent no signal: this process has been
    # handed to another parent already.
    if os.getppid() != parent:
        os._exit(1)


# From <linux/prctl.h>.
PR_SET_PDEATHSIG = 1


def _seed(deal_seed, seat):
    digest = hashlib.sha256(f"{deal_seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


class _Alarm:
    """Interrupts a move at the hard limit, where signals can be used: in a process's
    main thread.  Elsewhere (a Dask worker's thread) only the measured time counts.
    The handler is installed for a whole game; each move only sets the timer."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.armed = threading.current_thread() is threading.main_thread()
        self.previous = signal.signal(signal.SIGALRM, _overtime) if self.armed else None

    def __enter__(self):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def close(self):
        if self.armed:
            signal.signal(signal.SIGALRM, self.previous)


def _overtime(signum, frame):
    raise Overtime


# --- a whole run ------------------------------------------------------------------


class Serial(futures.Executor):
    """Plays each game in this process when its result is asked for: one worker with
    no process to start and nothing to send between processes."""

    def submit(self, fn, *args):
        future = futures.Future()
        try:
            future.set_result(fn(*args))
        except BaseException as e:
            future.set_exception(e)
        return future


class Workers(typing.NamedTuple):
    """An executor, how many tasks to keep in flight on it, the most games a task may
    hold, how to let it go, and the exceptions by which it says that a task's worker
    process died under it."""
    pool: futures.Executor
    window: int
    chunk: int
    close: typing.Callable
    died: tuple


def executor(workers=None, scheduler=None):
    """Where games run: a Dask cluster at ``scheduler`` (an address such as
    ``tcp://host:8786``), else ``workers`` local processes (one per CPU it may use if
    None), or this process alone for one worker."""
    if scheduler is not None:
        try:
            from distributed import Client, KilledWorker
        except ImportError:
            raise configs.ConfigError(
                "--scheduler needs Dask: pip install \"cardarena[cluster]\"") from None
        try:
            client = Client(scheduler, timeout=30)
        except (OSError, ValueError) as e:  # ValueError: an address Dask cannot read
            raise configs.ConfigError(f"cannot reach the scheduler {scheduler}: {e}") \
                from None
        slots = max(1, sum(client.nthreads().values()))
        # Dask gives up on a task whose workers died running it, after some retries.
        return Workers(client.get_executor(pure=False), 2 * slots, MAX_CHUNK, client.close,
                       (KilledWorker,))
    workers = workers or cpus()
    if workers == 1:
        # Nothing to send between processes: each game is stored the moment it ends.
        return Workers(Serial(), 1, 1, lambda: None, ())
    # A fork starts a worker in milliseconds with everything imported.
    context = multiprocessing.get_context("fork")
    pool = futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_worker,
                                       initargs=(os.getpid(),))

    # The pool breaks when a worker dies, failing every task in flight.
    return Workers(pool, 4 * workers, MAX_CHUNK, lambda: _stop(pool), (BrokenProcessPool,))


def _stop(pool):
    """Stop a process pool now, with any games its workers are playing."""
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def cpus():
    """The CPUs this process may run on: under a batch system or taskset, fewer than
    the machine has."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def run(config, store, workers=None, scheduler=None, progress=True, on_row=None,
        postfix=None, deals=None, desc=None):
    """Play every game of ``config``'s first ``deals`` deals (all by default) that
    ``store`` lacks, storing each as it ends; a rerun after an interruption plays only
    the rest.  ``config`` may be a list of configs, played as one run on one pool of
    workers, in the order given, each to its own deals (``deals`` is for one config
    alone).  ``on_row(row)`` sees each new row, and the progress bar, headed
    ``desc``, shows what ``postfix()`` says.  Returns the number of games played.
    Ctrl-C stops the run; the games already stored stay.

    Quick games go to workers several at a time, enough for about ``TASK_SECONDS``
    of play, so that this process, which stores every game, keeps up with the
    workers; a stop loses at most that much play, which a rerun plays again."""
    runs = [config] if isinstance(config, configs.Config) else list(config)
    if deals is not None and len(runs) > 1:
        raise ValueError("deals limits one config; a list plays each config's own deals")
    # First, so that a scheduler that cannot be reached leaves the store as it was.
    pool, window, most, close, died = executor(workers, scheduler)
    done = {}
    try:
        for c in runs:
            store.begin(c)
            done[c.key] = store.done(c)
    except BaseException:
        close()
        raise
    count = {c.key: (c.deals if deals is None else deals) for c in runs}
    todo = ((c, g) for c in runs for g in c.games(count[c.key]) if g not in done[c.key])
    # How many games of a config make a task, learnt from its tasks' times.
    chunks = {}
    batches = _batches(todo, lambda c: chunks.get(c.key, 1))
    bar = tqdm(total=sum(count[c.key] * c.games_per_deal for c in runs),
               initial=sum(d < count[key] for key, games in done.items() for d, *_ in games),
               unit="game", disable=not progress, dynamic_ncols=True, desc=desc)
    played = 0
    pending = {}  # each task in flight, with its config and jobs

    def keep(config, rows):
        nonlocal played
        new = store.add_all(config, rows)
        played += len(new)
        if on_row is not None:
            for row in new:
                on_row(row)
        if postfix is not None:
            bar.set_postfix_str(postfix(), refresh=False)
        bar.update(len(rows))

    lost = []  # (config, job) of the games of tasks whose worker died
    try:
        while True:
            while len(pending) < window and not lost:
                games = next(batches, None)
                if games is None:
                    break
                config = games[0][0]
                batch = [job(config, *g) for _, g in games]
                try:
                    pending[pool.submit(play_all, batch)] = config, batch
                except died:  # since the last wait
                    lost += [(config, j) for j in batch]
            if not pending and not lost:
                break
            finished, _ = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
            if lost or any(isinstance(f.exception(), died) for f in finished):
                # A game killed its worker; let the tasks in flight end before the
                # executor is replaced.
                finished, _ = futures.wait(pending)
            for future in finished:
                config, batch = pending.pop(future)
                if isinstance(future.exception(), died):
                    lost += [(config, j) for j in batch]
                    continue
                rows, seconds = future.result()
                chunks[config.key] = max(1, min(most, int(TASK_SECONDS * len(rows)
                                                          / max(seconds, 1e-6))))
                keep(config, rows)
            if lost:
                # Which game it was is not known: each is played again alone, here.
                close()
                for config, lost_job in lost:
                    keep(config, [_play_alone(lost_job)])
                lost = []
                pool, window, most, close, died = executor(workers, scheduler)
    finally:
        for future in pending:
            future.cancel()
        close()
        bar.close()
    return played


def _batches(todo, size):
    """The ``(config, game)`` pairs of ``todo`` in batches of one config each, a batch
    at most ``size(config)`` long, the size read as each batch is made."""
    batch = []
    for config, game in todo:
        if batch and (config is not batch[0][0] or len(batch) >= size(config)):
            yield batch
            batch = []
        batch.append((config, game))
    if batch:
        yield batch


# Quick games are sent to a worker this many seconds' worth at a time, at most
# MAX_CHUNK together.
TASK_SECONDS = 0.1
MAX_CHUNK = 64


def play_all(jobs):
    """Play the games of ``jobs`` in turn; returns their rows and the seconds taken."""
    start = time.perf_counter()
    rows = [play(j) for j in jobs]
    return rows, time.perf_counter() - start
