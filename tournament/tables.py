"""Tables as aligned text for a terminal or as Markdown, for reports and benchmarks,
counts of things in words, writing a file so that a failure leaves the old one, and
reading a JSON file with errors that name it."""
import json
import os


def count(n, noun, plural=None):
    """``n`` and the noun, in the plural unless ``n`` is 1: ``count(1, "deal")`` is
    ``1 deal``, ``count(3, "match", "matches")`` is ``3 matches``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def text_table(headers, body, align):
    """Rows of cells in columns, each set left ("l") or right ("r") as ``align`` says."""
    widths = [max([len(h)] + [len(r[k]) for r in body]) for k, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w)
                         for c, w, a in zip(cells, widths, align)).rstrip()

    return "\n".join([line(headers), "  ".join("-" * w for w in widths)]
                     + [line(r) for r in body])


def markdown_table(headers, body, align):
    """The same rows as a Markdown table."""
    def line(cells):
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    rule = "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"
    return "\n".join([line(headers), rule] + [line(r) for r in body])


def write_file(path, text):
    """Write ``text`` to ``path``: beside it first, then renamed over it, so a failed
    write never leaves half a file where a good one was.  Raises ``OSError``."""
    part = f"{path}.part"
    try:
        with open(part, "w") as f:
            f.write(text)
        os.replace(part, path)
    finally:
        if os.path.exists(part):
            os.remove(part)


def read_json(path, error):
    """The JSON in ``path``; ``error`` (an exception type) for a file that cannot be
    read or is not JSON.  A missing file raises ``FileNotFoundError``, which callers
    tell apart."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise error(f"cannot read {path}: {e.strerror}") from None
    except ValueError as e:
        raise error(f"{path} is not JSON: {e}") from None
