"""The terminal sessions the docs show happen: each block that opens with
``$ cardarena play ...`` is played again on a terminal, its moves and commands typed at
its prompts, and the screen must read as the block does, line for line, so a change
that alters a transcript fails until the doc shows the new one."""
import io
import pathlib
import re
import shlex

import pexpect
import pytest

from tournament_helpers import CARDARENA

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
ASK = r"your move \(1-\d+, or help\)> "
# A prompt in a transcript, and what was typed at it.
TYPED = re.compile(f"^{ASK}(.*)$", re.M)


def transcripts():
    """``(file, command, text)`` of each transcript block of the docs."""
    found = []
    for path in sorted(DOCS.glob("*.md")):
        for block in re.findall(r"^```\n(.*?)^```", path.read_text(), re.M | re.S):
            first, _, text = block.partition("\n")
            if first.startswith("$ cardarena play "):
                found.append(pytest.param(first[2:], text, id=f"{path.name}: {first[2:]}"))
    return found


def replay(command, typed, tmp_path):
    """The screen of ``command`` on a terminal, ``typed`` entered one at a prompt, up
    to the prompt after the last."""
    args = shlex.split(command)
    screen = io.StringIO()
    child = pexpect.spawn(CARDARENA, args[1:], cwd=str(tmp_path), encoding="utf-8",
                          timeout=300, dimensions=(40, 200))
    child.delaybeforesend = None
    child.logfile_read = screen
    for line in typed:
        child.expect(ASK)
        child.sendline(line)
    child.expect([ASK, pexpect.EOF])
    child.terminate(force=True)
    # Spinner frames are wiped with a carriage return and an erase to the line's end.
    return re.sub(r"\r[^\n]*?\x1b\[K", "", screen.getvalue().replace("\r\n", "\n"))


def test_the_docs_hold_transcripts():
    assert len(transcripts()) >= 3


@pytest.mark.parametrize("command, text", transcripts())
def test_a_transcript_in_the_docs_is_what_the_terminal_shows(command, text, tmp_path):
    typed = TYPED.findall(text)
    assert replay(command, typed, tmp_path).startswith(text)
