"""tournament/ is built in rooms whose imports point down: a room imports only the
rooms below it and the modules at the bottom, and no module imports itself back
through another.  The command line reads its help without importing the analysis."""
import ast
import pathlib
import subprocess
import sys

import pytest

import tournament

ROOT = pathlib.Path(tournament.__file__).parent
# Lowest first.  Modules directly in tournament/ (tables, stops, calibrations) are the
# bottom, which every room may import.
ROOMS = ("harness", "stats", "learn", "sparring", "skill", "web", "cli")


def module_name(path):
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room(name):
    """The room of the module ``name``: its sub-package of tournament/, or None at
    the bottom."""
    parts = name.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ROOMS) \
        else None


def rank(name):
    found = room(name)
    return -1 if found is None else ROOMS.index(found)


def imports(path):
    """The tournament modules that the module at ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("tournament")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tournament"):
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.add(whole if (ROOT.parent / whole.replace(".", "/")).with_suffix(
                    ".py").exists() or (ROOT.parent / whole.replace(".", "/")).is_dir()
                    else node.module)
    return found


GRAPH = {module_name(p): imports(p) for p in ROOT.rglob("*.py")}


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_a_module_imports_only_its_own_room_and_the_rooms_below(name):
    above = sorted(m for m in GRAPH[name] if m != "tournament" and rank(m) > rank(name)
                   or (rank(m) == rank(name) and room(m) != room(name)))
    assert not above, f"{name} imports {above}, beside or above its room"


def test_no_module_imports_itself_back():
    done, path = set(), []

    def visit(name):
        if name in path:
            raise AssertionError("an import cycle: " + " -> ".join(
                path[path.index(name):] + [name]))
        if name in done:
            return
        path.append(name)
        for other in GRAPH.get(name, ()):
            if other != name and other in GRAPH:
                visit(other)
        path.pop()
        done.add(name)

    for name in GRAPH:
        visit(name)


@pytest.mark.parametrize("argv", [["--version"], ["play", "--help"], ["--help"]])
def test_the_command_line_answers_without_importing_the_analysis(argv):
    script = ("import sys\nfrom tournament.cli import main\ntry:\n    main(sys.argv[1:])\n"
              "except SystemExit:\n    pass\n"
              "print(*sorted(m for m in sys.modules if m.startswith(('tournament.skill.', "
              "'tournament.stats', 'networkx', 'matplotlib'))))")
    out = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[-1].split() == ["tournament.skill.defaults"]
