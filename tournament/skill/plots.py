"""The skill analysis's PNG plots.  They alone need matplotlib, which ``plot`` imports
when called, so that without it (``pip install "cardarena[plots]"``) everything else
is still written."""
import math

PLOTS = ("elo.png", "ladder.png", "seats.png", "grid.png")


def plot(results, out):
    """Draw ``elo.png`` (Elo against budget, one line per variant, and a dashed one to
    the ceiling of each climb), ``ladder.png``
    (each step up the ladder with two standard errors), ``seats.png`` (the first
    seat's score per variant) and, when the variants are a grid of two
    parameters, ``grid.png`` (heat maps of depth and of the first seat's score).
    Raises ImportError without matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    written = [_save(_plot_elo(results, pyplot), out / "elo.png", pyplot),
               _save(_plot_ladder(results, pyplot), out / "ladder.png", pyplot),
               _save(_plot_seats(results, pyplot), out / "seats.png", pyplot)]
    grid = _grid(results.variants)
    if grid is not None:
        written.append(_save(_plot_grid(grid, pyplot), out / "grid.png", pyplot))
    return written


def _plot_elo(results, pyplot):
    figure, axes = pyplot.subplots(figsize=(9, 4.5))
    budgets = set(results.budgets)
    climbs = [v.climb for v in results.variants if v.climb]
    for v in results.variants:
        rungs = [r for r in v.rungs if r.budget is not None
                 and not r.name.startswith("cheater")]
        x = [r.budget for r in rungs]
        y = [r.elo for r in rungs]
        errors = [[r.elo - r.low for r in rungs], [r.high - r.elo for r in rungs]]
        line = axes.errorbar(x, y, yerr=errors, marker="o", capsize=3, label=v.name)
        top = v.climb.ceiling if v.climb else None
        if top is not None:
            # The climb's rungs between are matched but not rated: a dashed line runs
            # from the top fixed rung to the ceiling.
            axes.errorbar([x[-1], top.budget], [y[-1], top.elo],
                          yerr=[[0, top.elo - top.low], [0, top.high - top.elo]],
                          marker="*", markevery=[1], markersize=10, linestyle="--",
                          capsize=3, color=line.lines[0].get_color())
            budgets.add(top.budget)
    if climbs:
        # One entry for every ceiling: a variant's colour already names it.
        axes.plot([], [], marker="*", markersize=10, linestyle="--", color="black",
                  label=f"ceiling{_guide(climbs[0])}, dashed from the top fixed rung")
    axes.set_xscale("log", base=2)
    axes.set_xticks(sorted(budgets), [str(b) for b in sorted(budgets)], rotation=45)
    axes.minorticks_off()
    axes.set_xlabel("iterations per move")
    axes.set_ylabel("Elo over random play")
    axes.set_title("Elo against search budget (95% intervals)")
    axes.grid(alpha=0.3)
    # Beside the plot, where a grid's many variants hide no line; the variants first.
    handles, labels = axes.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i].startswith("ceiling"))
    axes.legend([handles[i] for i in order], [labels[i] for i in order], fontsize="small",
                loc="upper left", bbox_to_anchor=(1.01, 1))
    figure.tight_layout()
    return figure


def _guide(climb):
    return " without the network" if climb.unguided else " with the network"


def _plot_ladder(results, pyplot):
    variants = results.variants
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    chain = [r.name for r in results.rungs[:-1]]
    for k, v in enumerate(variants):
        steps = {(s.lower, s.upper): s for s in v.steps}
        shown = [steps[pair] for pair in zip(chain, chain[1:])]
        # Each variant's points are set a little apart, so that their bars can be told
        # apart.
        offset = 0.3 * (k / (len(variants) - 1) - 0.5) if len(variants) > 1 else 0
        scores = [100 * s.score for s in shown]
        # The bars stop at 0% and 100%, which no score passes.
        bars = [[min(x, 200 * s.se) for x, s in zip(scores, shown)],
                [min(100 - x, 200 * s.se) for x, s in zip(scores, shown)]]
        axes.errorbar([i + offset for i in range(len(shown))], scores, yerr=bars,
                      marker="o", linestyle="", capsize=3, label=v.name)
    axes.axhline(50, color="black", linewidth=0.8)
    axes.set_xticks(range(len(chain) - 1), [f"{b}\nv {a}" for a, b in zip(chain, chain[1:])],
                    fontsize="x-small")
    axes.set_ylabel("the upper rung's score %")
    axes.set_title("Ladder steps (bars: 2 standard errors)")
    axes.legend(fontsize="x-small")
    figure.tight_layout()
    return figure


def _plot_seats(results, pyplot):
    seated = [v for v in results.variants if v.seat.games]
    figure, axes = pyplot.subplots(figsize=(max(5, 0.8 * len(seated) + 2), 4))
    names = [v.name for v in seated]
    scores = [100 * v.seat.score for v in seated]
    errors = [[100 * (v.seat.score - v.seat.low) for v in seated],
              [100 * (v.seat.high - v.seat.score) for v in seated]]
    axes.bar(range(len(names)), scores, yerr=errors, capsize=4, color="tab:blue", alpha=0.7)
    axes.axhline(50, color="black", linewidth=0.8)
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize="small")
    axes.set_ylabel("first seat's score % in self-play")
    axes.set_title("Seat advantage (95% intervals)")
    figure.tight_layout()
    return figure


def _plot_grid(grid, pyplot):
    (row_key, row_values), (col_key, col_values), cell = grid
    figure, panels = pyplot.subplots(1, 2, figsize=(11, 4.5))
    for axes, title, value, colours in (
            (panels[0], "Elo span (depth)", lambda v: v.span.elo, "viridis"),
            (panels[1], "first seat's score %", lambda v: 100 * v.seat.score,
             "coolwarm")):
        table = [[value(cell[(r, c)]) if cell[(r, c)].seat.games
                  or colours == "viridis" else math.nan for c in col_values]
                 for r in row_values]
        if colours == "coolwarm":  # centred on an even game
            reach = max([5] + [abs(x - 50) for row in table for x in row
                               if not math.isnan(x)])
            image = axes.imshow(table, cmap=colours, origin="lower", vmin=50 - reach,
                                vmax=50 + reach)
        else:
            image = axes.imshow(table, cmap=colours, origin="lower")
        _label_cells(axes, table, image, colours)
        axes.set_xticks(range(len(col_values)), col_values)
        axes.set_yticks(range(len(row_values)), row_values)
        axes.set_xlabel(col_key)
        axes.set_ylabel(row_key)
        axes.set_title(title)
        figure.colorbar(image, ax=axes)
    figure.tight_layout()
    return figure


def _label_cells(axes, table, image, colours):
    low, high = image.get_clim()
    for i, row in enumerate(table):
        for j, x in enumerate(row):
            # Dark text on viridis's light yellows and greens, light on its blues.
            light = colours == "viridis" and (x - low) < 0.6 * (high - low)
            axes.text(j, i, "-" if math.isnan(x) else f"{x:.0f}", ha="center",
                      va="center", color="white" if light else "black")


def _grid(variants):
    """((row parameter, its values), (column parameter, its values), variant by cell)
    when the variants are every combination of two parameters' values; else None."""
    keys = {tuple(v.params) for v in variants}
    if len(keys) != 1 or len(next(iter(keys))) != 2:
        return None
    row_key, col_key = next(iter(keys))
    rows = list(dict.fromkeys(v.params[row_key] for v in variants))
    cols = list(dict.fromkeys(v.params[col_key] for v in variants))
    cell = {(v.params[row_key], v.params[col_key]): v for v in variants}
    if len(cell) != len(rows) * len(cols):
        return None
    return (row_key, rows), (col_key, cols), cell


def _save(figure, path, pyplot):
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path
