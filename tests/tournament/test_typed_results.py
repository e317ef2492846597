"""Results as types: a game row, the skill figures and a yardstick's choice are frozen
dataclasses read by attribute, and the files they are written to stay byte for byte
what they were: every report under docs/results regenerates from its stored JSON."""
import ast
import dataclasses
import json
import pathlib
import shlex

import pytest

from tournament.harness import runner
from tournament.harness.row import GameRow
from tournament.harness.store import Store
from tournament.skill import compare, figures, matchups, report
from tournament_helpers import ROOT, make_config

RESULTS = pathlib.Path(ROOT) / "docs" / "results"
ANALYSES = sorted(p.parent for p in RESULTS.rglob("skill.json"))


def stored(folder):
    return figures.Results.from_dict(json.loads((folder / "skill.json").read_text()))


@pytest.mark.parametrize("folder", ANALYSES, ids=lambda p: str(p.relative_to(RESULTS)))
def test_a_stored_analysis_reads_as_types_and_writes_back_byte_for_byte(folder):
    text = (folder / "skill.json").read_text()
    results = figures.Results.from_dict(json.loads(text))
    assert json.dumps(results.to_dict(), indent=2) + "\n" == text
    assert isinstance(results.variants[0].span, figures.Span)
    assert results.variants[0].span.top == results.variants[0].rungs[-2].name


@pytest.mark.parametrize("folder", ANALYSES, ids=lambda p: str(p.relative_to(RESULTS)))
def test_a_stored_analysis_regenerates_its_report_and_summary(folder):
    results = stored(folder)
    assert report.summary(results, results.command) == (folder / "summary.md").read_text()
    assert report.report(results, results.command) == (folder / "report.md").read_text()


@pytest.mark.parametrize("summary", ["summary.md", "validation/summary.md"])
def test_a_stored_comparison_regenerates_from_the_analyses_it_names(summary):
    text = (RESULTS / summary).read_text()
    command = text.splitlines()[0].strip("`")
    argv = shlex.split(command)[2:]
    folders = argv[:argv.index("--out")]
    found = compare.compare([compare.load(pathlib.Path(ROOT) / f) for f in folders],
                            [pathlib.Path(f).name for f in folders])
    assert compare.report(found, command) == text


def test_stored_match_ups_read_as_cells_and_regenerate_their_report():
    folder = RESULTS / "creature_shrines"
    text = (folder / "matchups.json").read_text()
    data = json.loads(text)
    table = {a: {b: matchups.Cell.from_dict(c) for b, c in row.items()}
             for a, row in data["table"].items()}
    again = json.dumps(dict(data, table={a: {b: c.to_dict() for b, c in row.items()}
                                         for a, row in table.items()}), indent=1)
    assert again == text
    plan = matchups.Plan("creature_shrines", data["bot"], data["deals"], data["seed"])
    assert matchups.report(table, plan, data["command"]) == \
        (folder / "report.md").read_text()


def test_figures_and_choices_are_frozen():
    results = stored(RESULTS / "card_duel")
    with pytest.raises(dataclasses.FrozenInstanceError):
        results.variants[0].span.elo = 0.0
    choice = results.variants[0].yardstick
    assert isinstance(choice, figures.Choice)
    assert all(isinstance(c, figures.Evidence) for c in choice.challengers + choice.pooled)
    with pytest.raises(dataclasses.FrozenInstanceError):
        choice.player = "random"


def test_a_file_written_before_a_field_existed_reads_it_as_none_and_writes_it_back_absent():
    # The validation analyses were written before rungs had a blunder rate and
    # challengers a thinking time.
    results = stored(RESULTS / "validation" / "tic_tac_toe")
    assert results.rungs[0].blunder is None
    assert results.variants[0].yardstick.challengers[0].seconds is None
    assert "blunder" not in results.rungs[0].to_dict()
    assert "seconds" not in results.variants[0].yardstick.challengers[0].to_dict()


@pytest.mark.parametrize("module", ["tournament/skill/figures.py", "tournament/harness/row.py",
                                    "tournament/skill/matchups.py",
                                    "tournament/skill/compare.py"])
def test_every_field_of_a_result_type_has_a_docstring(module):
    tree = ast.parse((pathlib.Path(ROOT) / module).read_text())
    bare = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for stmt, after in zip(node.body, node.body[1:] + [None]):
            if isinstance(stmt, ast.AnnAssign) and not (
                    isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                bare.append(f"{node.name}.{stmt.target.id}")
    assert not bare


def test_a_played_game_is_a_row_and_the_store_gives_it_back_with_its_place(tmp_path):
    config = make_config()
    played = runner.play(runner.job(config, *next(iter(config.games()))))
    assert isinstance(played, GameRow) and played.id is None
    assert GameRow.from_dict(played.to_dict()) == played
    with Store(str(tmp_path / "g.db")) as store:
        store.begin(config)
        assert store.add_all(config, [played]) == [played]
        row, = store.games(config.key)
    assert (row.id, row.tournament) == (1, config.key) and row.finished > 0
    assert dataclasses.replace(row, id=None, tournament=None, finished=None) == played
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.status = "error"
