"""The web app of ``cardarena serve``: sparring against a bot, and the tournaments of a
database, live.

Pages are Jinja2 templates with plain scripts; the scripts talk JSON to ``/api/``.
Bots, hints and database reads run in worker threads, so a bot that thinks for long
holds up neither the page nor other tabs.
"""
import asyncio
import ipaddress
import json
import pathlib
import secrets

import pyspiel
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

import core
from search import Deadline, shipped
from search.bots import parse_bot
from tournament.harness import config as configs
from tournament.harness.deals import Deal
from tournament.harness.store import Store, StoreError
from tournament.sparring import levels
from tournament.sparring.narrate import ChanceRuns
from tournament.sparring.session import Match
from tournament.stats.ratings import NoGamesError, rate
from tournament.web import sessions
from tournament.web.sessions import SessionStore, StaleError, StoppingError, WebError

HERE = pathlib.Path(__file__).parent

# A request body is a few numbers and names; anything larger is refused unread.
MAX_BODY = 16 * 1024

# How often the tournament page's stream looks for new games, in seconds.
POLL = 1.0

BOTS = [
    ("random", "a uniformly random legal move: the weakest, for learning the rules"),
    ("greedy", "the game's heuristic move, one step ahead: weak"),
    ("ismcts(iterations=200,rollout_depth=8)",
     "a short search over the worlds your hand allows: fair, answers at once"),
    ("ismcts(iterations=2000,rollout_depth=8)",
     "the same search ten times longer: strong, and the same move every time it "
     "meets the same position"),
    ("ismcts(seconds=1,rollout_depth=8)",
     "searches for a second a move, as cardarena play does by default: strong"),
]

# Offered for the variants whose own model is shipped (search.shipped).
GUIDED = ("ismcts(model=default,seconds=1)",
          "the search guided by the game's trained network, a second a move")


# The most time a bot's move or a hint takes on this server, whatever the bot's spec:
# its search stops then and plays the best move it has found.  The parameters' caps
# alone did not bound it: ismcts(iterations=100000) took 30 s a move of Creature
# Shrines, expectimax(depth=8,worlds=64) over 100 s.
MOVE_SECONDS = 10.0

# The most a bot spec may ask of a move, by parameter: a spec above any of these is
# refused, so that a bot spends its time searching, not allocating.
BOT_LIMITS = {"iterations": 100_000, "seconds": MOVE_SECONDS, "threads": 4, "depth": 8,
              "worlds": 64, "rollouts": 16}


def _check_bot(spec):
    """Refuse a bot spec that does not parse, that names a file (a model of its own:
    the server would open any path a page sent), or that asks more of a move than
    ``BOT_LIMITS`` allows."""
    kind, values = parse_bot(spec)
    if values.get("model", "none") not in ("none", "default"):
        raise HTTPException(400, f"{kind}: model names a file on the server's machine, "
                            "which a page does not choose; model=default plays the "
                            "game's own network")
    for key, value in values.items():
        if key in BOT_LIMITS and value > BOT_LIMITS[key]:
            raise HTTPException(400, f"{kind}: {key}={value} is more than this server lets "
                                f"a bot spend on a move (at most {BOT_LIMITS[key]})")


class BodyLimit:
    """Refuse, with 413, a request whose body is over ``MAX_BODY`` bytes, before the
    app reads it: by its declared length, or as the body streams in."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return await _too_large(scope, receive, send)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise HTTPException(413, f"a request body is at most {MAX_BODY} bytes")
            return message

        await self.app(scope, counted, send)


async def _too_large(scope, receive, send):
    response = JSONResponse({"error": f"a request body is at most {MAX_BODY} bytes"}, 413)
    await response(scope, receive, send)


def _error(request, exc):
    return JSONResponse({"error": exc.detail}, exc.status_code)


def _refused(request, exc):
    return JSONResponse({"error": str(exc)}, exc.status)


def _bad_parameter(request, exc):
    return JSONResponse({"error": str(exc)}, 400)


async def _body(request):
    """The request's JSON object; only JSON is taken, which a form on another site
    cannot send without the browser asking this server's leave first.  One encoding,
    UTF-8 without a byte-order mark, as RFC 8259 asks of JSON sent between systems:
    ``json.loads`` would also guess UTF-16 and UTF-32 from the bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise HTTPException(415, "send the request as application/json")
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, "the body is JSON in UTF-8") from None
    if text.startswith("\ufeff"):
        raise HTTPException(400, "the body is JSON in UTF-8, without a byte-order mark")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise HTTPException(400, f"the body is not JSON: {e}") from None
    except RecursionError:
        # The parser recurses once per level of nesting; a 16 KiB body can nest
        # deeper than Python's stack allows.
        raise HTTPException(400, "the body is not JSON this server reads: it nests "
                            "too deep") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the body is a JSON object")
    return data


def _int(data, key, low, high, default=None):
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HTTPException(400, f"{key} is a whole number from {low} to {high}, "
                            f"not {json.dumps(value)}")
    return value


def _games():
    """Every registered game with its parameters, for the front page's form."""
    games = []
    for name, kind in core.GAMES.items():
        game = kind()
        params = [{"name": key, "default": default,
                   "type": ("bool" if isinstance(default, bool) else
                            "choice" if key in kind.choices else "int"),
                   "choices": list(kind.choices.get(key, ())),
                   "low": kind.limits.get(key, (None,))[0],
                   "high": kind.limits.get(key, (None, None))[1]}
                  for key, default in kind.parameters.items()
                  if key not in kind.file_parameters]
        # A model trained across some parameters serves every value of them.
        models = [{k: v for k, v in core.load_game(text).params.items() if k not in across}
                  for text, across in shipped(kind)]
        games.append({"name": name, "long_name": game.long_name, "params": params,
                      "players": game.num_players, "levels": _levels(game),
                      "models": models})
    return games


def _levels(game):
    """The strength levels of ``game`` for the bot picker; none if it has no
    calibration, or one that cannot be read (the page is no place to mend it)."""
    try:
        found = levels.load(game).levels
    except levels.LevelError:
        return []
    return [{"spec": p.spec, "elo": p.elo, "low": p.low, "high": p.high} for p in found]


def _seconds(limit):
    """A time limit in words: ``10 seconds``."""
    return f"{limit:g} second" + ("" if limit == 1 else "s")


def _secret():
    """A new game's secret seed: unguessable, and small enough for an SQLite integer."""
    return secrets.randbits(63)


class App:
    """The routes, over the sparring games in ``db`` and its tournaments.  Each new
    game is dealt from a secret that ``secret()`` draws, and a bot's move or a hint
    takes ``move_seconds`` at most."""

    def __init__(self, db, secret=_secret, move_seconds=MOVE_SECONDS):
        self.db = db
        self.secret = secret
        self.move_seconds = move_seconds
        # The deadlines of the searches running now, halted all at once on shutdown.
        self.thinking = set()
        self.stopping = False
        self.sessions = SessionStore(db)
        self.templates = Jinja2Templates(directory=HERE / "templates")
        self.reports = {}

    def page(self, request, name, **context):
        return self.templates.TemplateResponse(request, name, context)

    def stop(self):
        """Shut down: every search running stops at once, and no change is saved
        from now on, so that no request the server cannot answer changes a game."""
        self.stopping = True
        for deadline in list(self.thinking):
            deadline.halt()

    async def _busy(self, game_id, work):
        """Run ``work(deadline)`` in a worker thread holding game ``game_id``'s lock,
        with a deadline for any search it makes.  The lock is taken here, on the event
        loop, without waiting: a request for a game that is busy is refused (409) and
        holds no worker."""
        if self.stopping:
            raise StoppingError("the server is stopping; reload the page once it is back")
        self.sessions.claim(game_id)
        deadline = Deadline(self.move_seconds)
        self.thinking.add(deadline)
        try:
            return await run_in_threadpool(work, deadline)
        finally:
            self.thinking.discard(deadline)
            self.sessions.release(game_id)

    # --- sparring ---------------------------------------------------------------

    async def home(self, request):
        games = await run_in_threadpool(self.sessions.games)
        return self.page(request, "home.html", games=_games(), bots=BOTS, guided=GUIDED, saved=games,
                         seconds=_seconds(self.move_seconds))

    async def play_page(self, request):
        game_id = request.path_params["id"]
        await run_in_threadpool(self.sessions.load, game_id)
        return self.page(request, "play.html", id=game_id, seconds=_seconds(self.move_seconds))

    async def create(self, request):
        data = await _body(request)
        name = data.get("game")
        if not isinstance(name, str) or name not in core.GAMES:
            raise HTTPException(400, f"unknown game {json.dumps(name)}; games: "
                                f"{', '.join(core.GAMES)}")
        params = data.get("params", {})
        if not isinstance(params, dict) or not all(
                isinstance(v, (bool, int, str)) for v in params.values()):
            raise HTTPException(400, "params maps each parameter's name to a number, "
                                "true or false, or one of its choices")
        files = sorted(set(params) & set(core.GAMES[name].file_parameters))
        if files:
            raise HTTPException(400, f"{', '.join(files)} names a file on the server's "
                                "machine, which a page does not choose; play it with "
                                "cardarena play")
        bot = data.get("bot")
        if not isinstance(bot, str):
            raise HTTPException(400, "bot is a bot's spec, as cardarena bots lists them")
        _check_bot(bot)
        if data.get("seed") is not None:
            raise HTTPException(400, "the server deals every game from a secret seed of "
                                "its own, shown once the game is over: a seed cannot be "
                                "chosen here (cardarena play --seed can)")
        seat = _int(data, "seat", 0, 64, 0)

        def start():
            match = Match(core.load_game(name, **params), bot, seat, self.secret())
            return self.sessions.create(match)

        return JSONResponse({"id": await run_in_threadpool(start)}, 201)

    async def show(self, request):
        game_id = request.path_params["id"]
        match, version = await run_in_threadpool(self.sessions.load, game_id)
        return JSONResponse(await run_in_threadpool(sessions.view, game_id, match, version))

    async def change(self, request, how):
        """Apply ``how(match, data)`` to the game the request names, at the version it
        names, and answer with the game's new view."""
        game_id = request.path_params["id"]
        data = await _body(request)
        version = _int(data, "version", 0, 2 ** 62)

        def run(deadline):
            match, current = self.sessions.load(game_id)
            if version != current:
                raise StaleError("the game has moved on since; the page shows it again")
            how(match, data, deadline)
            if self.stopping:
                # The answer may never reach the page: what it would tell is dropped.
                raise StoppingError("the server is stopping: this move was not kept; "
                                    "reload the page once it is back")
            new = self.sessions.save(game_id, match, current)
            return sessions.view(game_id, match, new)

        return JSONResponse(await self._busy(game_id, run))

    async def move(self, request):
        def choose(match, data, deadline):
            action = data.get("action")
            legal = match.state.legal_actions() if sessions.waiting_for(match) == "you" \
                else []
            if isinstance(action, bool) or action not in legal:
                raise StaleError(f"{json.dumps(action)} is not one of your moves here")
            match.apply(action)
        return await self.change(request, choose)

    async def step(self, request):
        def play(match, data, deadline):
            if not sessions.advance(match, deadline):
                raise StaleError("it is your move: nothing to play for you")
        return await self.change(request, play)

    async def undo(self, request):
        def back(match, data, deadline):
            if match.state.is_terminal():
                # Its seed is shown now: a game taken back would go on with every card
                # to come known.
                raise StaleError("the game is over and its seed shown: start a new game")
            if not match.undo():
                raise StaleError("nothing to undo: this is your first decision")
        return await self.change(request, back)

    async def hint(self, request):
        game_id = request.path_params["id"]
        match, version = await run_in_threadpool(self.sessions.load, game_id)
        if sessions.waiting_for(match) != "you":
            raise StaleError("a hint is for your move, and it is not yours to make")
        action, confidence = await self._busy(game_id, match.hint)
        return JSONResponse({"version": version, "action": int(action),
                             "name": match.state.action_to_string(action),
                             "confidence": confidence})

    async def record(self, request):
        game_id = request.path_params["id"]
        match, _ = await run_in_threadpool(self.sessions.load, game_id)
        name = sessions.record_name(match).replace('"', "")
        return Response(json.dumps(sessions.record(match)) + "\n",
                        media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    # --- tournaments ------------------------------------------------------------

    def _store(self):
        return Store(self.db, readonly=True)

    async def tournaments(self, request):
        def read():
            with self._store() as store:
                return store.tournaments()
        return self.page(request, "tournaments.html",
                         tournaments=await run_in_threadpool(read), db=self.db)

    def _report(self, key):
        """What the tournament page shows of the tournament keyed ``key``: the
        tournament, its report (None before a game ends) and its games' ids, kept until
        a new game is stored."""
        with self._store() as store:
            tournament = self._tournament(store, key)
            cached = self.reports.get(key)
            if cached is not None and cached["t"]["games"] == tournament["games"]:
                return cached
            rows = store.games(key)
        game = tournament["config"]["game"]
        try:
            report = rate(rows, tournament["config"]["bots"], sides=configs.sides(game),
                          scored=configs.rules(game).scored)
        except NoGamesError:
            report = None
        page = {"t": tournament, "report": report, "plot": _plot(report),
                "games": [_summary(r) for r in rows]}
        self.reports[key] = page
        return page

    @staticmethod
    def _tournament(store, key):
        found = [t for t in store.tournaments() if t["key"] == key]
        if not found:
            raise HTTPException(404, f"no tournament {key!r} in {store.path}")
        return found[0]

    async def _paged(self, request):
        """The tournament page's context at the page of games the request asks for
        (``?page=N``, from 1)."""
        page = await run_in_threadpool(self._report, request.path_params["key"])
        games = page["games"]
        pages = max(1, -(-len(games) // GAMES_PAGE))
        try:
            at = int(request.query_params.get("page", "1"))
        except ValueError:
            raise HTTPException(400, "page is a whole number from 1") from None
        if not 1 <= at <= pages:
            raise HTTPException(404, f"page {at} of the games: there are {pages}")
        first = (at - 1) * GAMES_PAGE
        return {**page, "shown": games[first:first + GAMES_PAGE], "first": first,
                "at": at, "pages": pages}

    async def tournament(self, request):
        return self.page(request, "tournament.html", **await self._paged(request))

    async def report(self, request):
        return self.page(request, "report.html", **await self._paged(request))

    async def events(self, request):
        """Server-sent events: the tournament's number of games, whenever it
        changes."""
        key = request.path_params["key"]

        def count():
            with self._store() as store:
                return self._tournament(store, key)["games"]

        last = await run_in_threadpool(count)

        async def stream():
            nonlocal last
            yield f"event: games\ndata: {last}\n\n"
            while not await request.is_disconnected():
                await asyncio.sleep(POLL)
                now = await run_in_threadpool(count)
                if now != last:
                    last = now
                    yield f"event: games\ndata: {now}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store"})

    async def replay(self, request):
        game_id = request.path_params["id"]

        def frames():
            with self._store() as store:
                try:
                    row = store.game(game_id)
                except StoreError as e:
                    raise HTTPException(404, str(e)) from None
            return row, _frames(row)

        row, replay = await run_in_threadpool(frames)
        return self.page(request, "replay.html", row=row, summary=_summary(row), **replay)


# The games a tournament page lists at a time.
GAMES_PAGE = 50


def _summary(row):
    """A stored game as a line of the tournament's table of games: its id, deal,
    the bot in each seat, the result in words and its length in decisions."""
    returns = row.returns
    best = max(returns)
    winners = [row.seating[p] for p, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        result = "a draw"
    else:
        result = " and ".join(dict.fromkeys(winners)) + (" wins" if len(winners) == 1
                                                         else " win")
    if row.status != "ok":
        result += f" ({row.status}" + (f": {row.failed}" if row.failed else "") + ")"
    return {"id": row.id, "deal": row.deal, "seating": row.seating,
            "result": result, "returns": ", ".join(f"{r:+g}" for r in returns),
            "length": row.length}


def _frames(row):
    """A stored game step by step, as the play page draws a game: each step's words
    and the whole truth after it (every card shown), a run of chance events one step;
    with the game's layout and what its cards say.  A game that is not ours is told
    as its own text."""
    state = pyspiel.load_game(row.game).new_initial_state()
    ours = getattr(state, "core", None)
    game = ours.game if ours is not None else None
    names = [f"player {p} ({name})" for p, name in enumerate(row.seating)]
    cards = {}

    def frame(text):
        if game is None:
            return {"text": text, "status": "", "board": str(state)}
        view = state.core.to_dict()
        cards.update(sessions.card_texts(game, view))
        return {"text": text, "status": game.status(view), "view": view,
                "board": game.render(view)}

    frames = [frame("the start")]
    told = []
    chance = ChanceRuns(sessions.Lines(told), width=None)

    def dealt():
        chance.flush()
        if told:
            frames.append(frame("; ".join(told)))
            told.clear()

    deal = Deal(None, row.rotation)
    for action in row.history:
        if deal.step(state):
            chance.flush()
            told.append(deal.told())
        player = state.current_player()
        if state.is_chance_node():
            chance.tell(state.action_to_string(player, action))
            state.apply_action(action)
            continue
        dealt()
        text = f"{names[player]}: {state.action_to_string(player, action)}"
        state.apply_action(action)
        frames.append(frame(text))
    dealt()
    return {"frames": frames, "layout": game.layout if game is not None else None,
            "cards": cards}


def _plot(report):
    """Each rated bot's Elo and interval as positions from 0 to 100 along one axis,
    for the page's plot with error bars."""
    if report is None:
        return None
    rated = [r for r in report.ratings if r.elo is not None]
    if not rated:
        return None
    low = min(r.low if r.low is not None else r.elo for r in rated)
    high = max(r.high if r.high is not None else r.elo for r in rated)
    span = (high - low) or 1.0

    def x(elo):
        return 5 + 90 * (elo - low) / span

    return {"low": round(low), "high": round(high),
            "bots": [{"bot": r.bot, "elo": round(r.elo), "x": x(r.elo),
                      "lo": x(r.low if r.low is not None else r.elo),
                      "hi": x(r.high if r.high is not None else r.elo)} for r in rated]}


LOCAL_NAMES = ("127.0.0.1", "localhost")


async def favicon(request):
    return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")


def make_app(db, hosts=LOCAL_NAMES, secret=_secret, move_seconds=MOVE_SECONDS):
    """The ASGI app over the SQLite file ``db``, answering requests addressed to
    ``hosts`` only: a page elsewhere that points a name of its own at this machine
    gets nothing.  ``secret()`` draws each new game's secret seed; a bot's move or a
    hint takes ``move_seconds`` at most.  Its ``state.sparring`` is the
    :class:`App`, whose ``stop()`` a server calls on shutdown."""
    app = App(db, secret, move_seconds)
    routes = [
        Route("/", app.home),
        # Pages name their icon; a browser or tool that asks the old way finds it too.
        Route("/favicon.ico", favicon),
        Route("/play/{id}", app.play_page),
        Route("/api/games", app.create, methods=["POST"]),
        Route("/api/games/{id}", app.show),
        Route("/api/games/{id}/move", app.move, methods=["POST"]),
        Route("/api/games/{id}/step", app.step, methods=["POST"]),
        Route("/api/games/{id}/undo", app.undo, methods=["POST"]),
        Route("/api/games/{id}/hint", app.hint, methods=["POST"]),
        Route("/api/games/{id}/record", app.record),
        Route("/tournaments", app.tournaments),
        Route("/tournaments/{key}", app.tournament),
        Route("/tournaments/{key}/report", app.report),
        Route("/tournaments/{key}/events", app.events),
        Route("/replay/{id:int}", app.replay),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    handlers = {HTTPException: _error, WebError: _refused, core.CardArenaError: _bad_parameter}
    web = Starlette(routes=routes, exception_handlers=handlers,
                    middleware=[Middleware(BodyLimit),
                                Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))])
    web.state.sparring = app
    return web


def is_local(host):
    """Whether ``host`` is reached from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(host="127.0.0.1", port=8000, db="cardarena.db"):
    """Run the app on ``host``:``port`` until interrupted."""
    import uvicorn
    hosts = LOCAL_NAMES
    if not is_local(host):
        print(f"Warning: serving on {host}: anyone who can reach this machine on port "
              f"{port} can play here and read {db}.")
        hosts = ["*"]
    app = make_app(db, hosts)
    print(f"cardarena serve: http://{'localhost' if is_local(host) else host}:{port}/ "
          f"(Ctrl-C stops it)")

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # Before uvicorn waits for the requests in flight: a bot's search would
            # otherwise run its course, and its move be saved unanswered.
            app.state.sparring.stop()
            super().handle_exit(sig, frame)

    Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                          timeout_graceful_shutdown=2)).run()
