"""Figures as table cells, and tables as text or Markdown, for the benchmarks."""
import platform

from tournament import tables


def num(x):
    """A figure with as many digits as it has meaning; None reads n/a."""
    if x is None:
        return "n/a"
    if x >= 1000:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def ratio(a, b):
    """``a`` over ``b`` as a multiple; n/a where either is missing."""
    if a is None or b is None or b == 0:
        return "n/a"
    r = a / b
    return f"{r:,.0f}×" if r >= 100 else f"{r:.1f}×" if r >= 10 else f"{r:.2f}×"


def text_table(headers, body, left):
    """Rows of cells aligned in columns: the first ``left`` are words, set left; the
    rest are numbers, set right."""
    return tables.text_table(headers, body, _align(len(headers), left))


def markdown_table(headers, body, left):
    """The same rows as a Markdown table."""
    return tables.markdown_table(headers, body, _align(len(headers), left))


def _align(columns, left):
    return "l" * left + "r" * (columns - left)


def cpu_name():
    """The processor's name, for the table's heading."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
