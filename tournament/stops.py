"""How a command stops: SIGTERM raised as Ctrl-C is, and the exit status a stop gives."""
import signal


class Terminated(KeyboardInterrupt):
    """SIGTERM, as ``timeout``, batch systems and service managers send, raised in the
    command's process where Ctrl-C raises KeyboardInterrupt, so that it stops a run
    as cleanly."""


def terminate(signum, frame):
    """The SIGTERM handler that raises :class:`Terminated`."""
    raise Terminated


def status(stop):
    """The exit status of a command stopped by ``stop``, a KeyboardInterrupt: a shell's
    128 plus the signal's number, 143 for SIGTERM and 130 for Ctrl-C."""
    return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)
