"""How a figure reads in a cell or a sentence of the report: a percentage, an Elo with
its interval, a chain, a share.  The summary and each variant's section print the same
figures, and read alike because both take them from here."""


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}"


def number(x, fmt):
    return "-" if x is None else fmt.format(x)


def pair(shape, mean, median):
    if shape.games == 0:
        return "-"
    return f"{mean:.1f} / {median:g}"


def percent_cell(figure):
    return f"{pct(figure.score)}% [{pct(figure.low)}, {pct(figure.high)}]"


def score_cell(figure):
    if figure.score is None:
        return "-"
    return f"{pct(figure.score)} [{pct(figure.low)}, {pct(figure.high)}]"


def elo(x):
    """Elo as a signed whole number; rounding first keeps -0.4 from printing as -0."""
    return f"{round(x):+d}"


def elo_cell(span):
    return f"{elo(span.elo)} [{elo(span.low)}, {elo(span.high)}]"


def chain_cell(chain):
    return f"{chain.length} [{chain.low}, {chain.high}]"


def trace_cell(trace):
    return f"{trace.trace:.3f} [{trace.low:.3f}, {trace.high:.3f}]"


def share_cell(reading):
    if reading is None:
        return "100"
    return f"{reading.x:.0f} [{reading.low:.0f}, {reading.high:.0f}]"


def taken_cell(taken):
    return (f"{pct(taken.share)} [{pct(taken.low)}, {pct(taken.high)}] "
            f"of {taken.games}")
