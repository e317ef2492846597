"""A journal is a store's text copy: what one store played, another store opened with
the journal holds and does not play again, and a file that is not a journal is refused
with nothing changed."""
import dataclasses
import gzip
import json
import os
import shutil
import subprocess
import sys

import pytest

from tournament.harness import journal, runner
from tournament.harness.row import GameRow
from tournament.harness.store import Store
from tournament_helpers import ROOT, cli, comparable, make_config, write_toml


def play(config, db, record, deals=None):
    """Play ``config`` into the store ``db`` opened with the journal ``record``: the
    games played and every game stored."""
    with Store(db, journal=record) as store:
        played = runner.run(config, store, workers=1, progress=False, deals=deals)
        return played, store.games(config.key)


def lines(record):
    """The journal ``record``'s lines, read as JSON, whether compressed or not."""
    opener = gzip.open if record.endswith(".gz") else open
    with opener(record, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f.read().splitlines()]


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
def test_a_journal_carries_a_run_to_a_new_store_that_plays_only_the_rest(tmp_path, name):
    config = make_config(deals=3)
    record = str(tmp_path / name)
    played, first = play(config, str(tmp_path / "a.db"), record, deals=2)
    assert (played, len(first)) == (4, 4)
    # On another machine: a new store, the journal beside it.
    played, rows = play(config, str(tmp_path / "b.db"), record)
    assert (played, len(rows)) == (2, 6)
    assert comparable(r for r in rows if r.deal < 2) == comparable(first)
    # Each game is written once, after its tournament's line.
    written = lines(record)
    assert written[0] == journal.HEADER
    assert [line["tournament"]["key"] for line in written if "tournament" in line] == \
        [config.key]
    assert len([line for line in written if "row" in line]) == 6
    played, third = play(config, str(tmp_path / "c.db"), record)
    assert played == 0
    assert comparable(third) == comparable(rows)


def test_a_store_opened_with_a_new_journal_writes_every_game_it_holds(tmp_path):
    config, other = make_config(deals=1), make_config(deals=2, seed=4)
    db, record = str(tmp_path / "t.db"), str(tmp_path / "run.jsonl")
    with Store(db) as store:
        runner.run([config, other], store, workers=1, progress=False)
        mine = store.tournaments()
        games = {c.key: store.games(c.key) for c in (config, other)}
    with Store(db, journal=record) as store:
        pass
    with Store(str(tmp_path / "copy.db"), journal=record) as copy:
        assert [{k: t[k] for k in ("key", "game", "config", "games")}
                for t in copy.tournaments()] == \
            [{k: t[k] for k in ("key", "game", "config", "games")} for t in mine]
        for key, rows in games.items():
            assert comparable(copy.games(key)) == comparable(rows)
    # Opening again writes nothing more.
    size = os.path.getsize(record)
    with Store(db, journal=record):
        pass
    assert os.path.getsize(record) == size


def test_a_tournament_given_more_deals_is_read_with_them(tmp_path):
    record = str(tmp_path / "run.jsonl")
    play(make_config(deals=1), str(tmp_path / "a.db"), record)
    play(make_config(deals=2), str(tmp_path / "a.db"), record)
    with Store(str(tmp_path / "b.db"), journal=record) as store:
        assert store.tournament()["config"]["deals"] == 2


def test_a_run_asking_fewer_deals_than_stored_changes_no_record(tmp_path):
    # An analysis written again from its journal asks each tournament for fewer deals
    # than it was last given: the journal gains no line.
    record = str(tmp_path / "run.jsonl")
    play(make_config(deals=2), str(tmp_path / "a.db"), record)
    before = lines(record)
    played, rows = play(make_config(deals=1), str(tmp_path / "b.db"), record)
    assert (played, len(rows)) == (0, 4)
    assert lines(record) == before
    with Store(str(tmp_path / "b.db")) as store:
        assert store.tournament()["config"]["deals"] == 2


def test_a_store_copied_before_its_run_was_given_more_deals_takes_the_journals(tmp_path):
    # A store saved when its tournament had 1 deal, opened beside the journal of the
    # run that went on to 2: the store takes the 2, and the journal gains no line.
    db, record = str(tmp_path / "a.db"), str(tmp_path / "run.jsonl")
    play(make_config(deals=1), db, record)
    shutil.copy(db, tmp_path / "before.db")
    play(make_config(deals=2), db, record)
    before = lines(record)
    with Store(str(tmp_path / "before.db"), journal=record) as store:
        assert store.tournament()["config"]["deals"] == 2
        assert len(store.games(make_config().key)) == 4
    assert lines(record) == before
    played, rows = play(make_config(deals=2), str(tmp_path / "before.db"), record)
    assert (played, len(rows)) == (0, 4)
    assert lines(record) == before


@pytest.mark.parametrize("text, said", [
    ("not json\n", "is not a journal of games"),
    ('{"format": "cardarena match"}\n', "is not a journal of games"),
    (json.dumps(journal.HEADER) + '\n{"key": "k"}\n',
     "line 2 is neither a tournament nor a game"),
    (json.dumps(journal.HEADER) + '\n' + json.dumps(
        {"key": "k", "row": {"deal": 0, "seating": ["a", "b"], "returns": [1, -1]}}) + '\n',
     r"line 2 is a game of a tournament no line before it gives \(k\)"),
    # Lines of JSON, but not of the shapes a store reads.
    *[(json.dumps(journal.HEADER) + '\n' + json.dumps(line) + '\n',
       "line 2 is neither a tournament nor a game")
      for line in [{"tournament": {"key": "k", "game": "shrine", "config": [1],
                                   "created": 0}},
                   {"tournament": {"key": "k", "game": "shrine", "config": {"deals": "2"},
                                   "created": 0}},
                   {"tournament": {"key": ["k"], "game": "shrine", "config": {},
                                   "created": 0}},
                   ["key", "row"], "tournament", 7]],
    *[(json.dumps(journal.HEADER) + '\n' + json.dumps(
        {"tournament": {"key": "k", "game": "shrine", "config": {}, "created": 0}})
       + '\n' + json.dumps({"key": "k", "row": row}) + '\n',
       "line 3 is neither a tournament nor a game")
      for row in [{"deal": None, "seating": ["a", "b"], "returns": [1, -1]},
                  {"deal": 0, "seating": "ab", "returns": [1, -1]},
                  {"deal": 0, "seating": [["a"], "b"], "returns": [1, -1]},
                  {"deal": 0, "seating": ["a", "b"], "returns": [1]},
                  {"deal": 0, "seating": ["a", "b"], "returns": [1, -1], "status": None},
                  {"deal": 0, "seating": ["a", "b"], "returns": [1, -1], "colour": "red"}]],
])
def test_a_file_that_is_not_a_journal_is_refused_and_nothing_is_written(tmp_path, text,
                                                                        said):
    record, db = tmp_path / "run.jsonl", tmp_path / "t.db"
    record.write_text(text)
    with pytest.raises(journal.JournalError, match=said):
        Store(str(db), journal=str(record))
    assert record.read_text() == text
    assert sorted(os.listdir(tmp_path)) == ["run.jsonl"]


def test_a_compressed_journal_writes_its_last_batch_when_the_store_closes(tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(journal, "BATCH", 4)
    config, record = make_config(deals=3), str(tmp_path / "run.jsonl.gz")
    with Store(str(tmp_path / "a.db"), journal=record) as store:
        runner.run(config, store, workers=1, progress=False)
        # The header, written alone as the journal starts, then a batch of four of the
        # tournament and six games; three are gathered still.
        assert len(lines(record)) == 5
        kept = lines(record)
        # A process that dies loses the batch it gathered from the journal ...
        store.journal._pending.clear()
    assert lines(record) == kept
    # ... and the store gives it back when it next opens with the journal.
    with Store(str(tmp_path / "a.db"), journal=record) as store:
        pass
    assert len([line for line in lines(record) if "row" in line]) == 6
    with Store(str(tmp_path / "a.db"), readonly=True) as store:
        played = store.games(config.key)
    with Store(str(tmp_path / "b.db"), journal=record) as store:
        assert comparable(store.games(config.key)) == comparable(played)


def test_a_compressed_journal_cut_short_or_not_compressed_is_refused(tmp_path):
    record = tmp_path / "run.jsonl.gz"
    play(make_config(deals=2), str(tmp_path / "a.db"), str(record))
    whole = record.read_bytes()
    record.write_bytes(whole[:-10])
    with pytest.raises(journal.JournalError, match="ends in the middle of a batch"):
        Store(str(tmp_path / "b.db"), journal=str(record))
    record.write_text(json.dumps(journal.HEADER) + "\n")
    with pytest.raises(journal.JournalError, match="not a gzip file"):
        Store(str(tmp_path / "b.db"), journal=str(record))
    assert sorted(os.listdir(tmp_path)) == ["a.db", "run.jsonl.gz"]


def test_a_store_opened_to_read_takes_no_journal(tmp_path):
    db = str(tmp_path / "t.db")
    play(make_config(deals=1), db, str(tmp_path / "run.jsonl"))
    with pytest.raises(ValueError, match="writes no journal"):
        Store(db, readonly=True, journal=str(tmp_path / "other.jsonl"))
    assert not os.path.exists(tmp_path / "other.jsonl")


def test_bench_learned_refuses_a_journal_that_is_not_one_in_one_line(tmp_path):
    record = tmp_path / "run.jsonl"
    record.write_text("not json\n")
    done = subprocess.run(
        [sys.executable, "bench/learned.py", "--game", "shrine", "--seconds",
         "--deals", "1", "--db", str(tmp_path / "t.db"), "--journal", str(record)],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        f"bench/learned.py: {record}: is not a journal of games; give another file"]


def test_a_tournament_goes_on_from_its_journal_on_another_machine(tmp_path):
    toml = write_toml(tmp_path / "t.toml", 'game = "shrine"\ndeals = 2\nseed = 5\n'
                      '[bots]\nrandom = "random"\ngreedy = "greedy"\n')
    record = str(tmp_path / "t.jsonl")
    first = cli("tournament", toml, "--db", str(tmp_path / "a.db"), "--journal", record,
                "--workers", "1", "--quiet", "--format", "json")
    assert first.returncode == 0, first.stderr
    again = cli("tournament", toml, "--db", str(tmp_path / "b.db"), "--journal", record,
                "--workers", "1", "--quiet", "--format", "json")
    assert again.returncode == 0, again.stderr
    assert "4 stored in" in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    refused = cli("tournament", toml, "--db", str(tmp_path / "c.db"), "--journal", str(bad))
    assert refused.returncode != 0
    assert refused.stderr.strip().splitlines() == [
        f"cardarena: {bad}: is not a journal of games; give another file"]
    assert not os.path.exists(tmp_path / "c.db")


def test_a_journal_whose_last_line_has_no_line_end_is_written_to_on_a_line_of_its_own(
        tmp_path):
    # As an editor may leave a file kept under version control.
    record = tmp_path / "run.jsonl"
    play(make_config(deals=1), str(tmp_path / "a.db"), str(record))
    record.write_text(record.read_text().rstrip("\n"))
    played, rows = play(make_config(deals=2), str(tmp_path / "a.db"), str(record))
    assert (played, len(rows)) == (2, 4)
    assert len([line for line in lines(str(record)) if "row" in line]) == 4
    with Store(str(tmp_path / "b.db"), journal=str(record)) as store:
        assert len(store.games(make_config().key)) == 4


def test_a_journal_whose_last_line_was_cut_short_says_so_and_what_to_do(tmp_path):
    record = tmp_path / "run.jsonl"
    play(make_config(deals=1), str(tmp_path / "a.db"), str(record))
    text = record.read_text()
    record.write_text(text[:-20])
    number = text.count("\n")
    with pytest.raises(journal.JournalError, match=f"its last line, {number}, is cut short "
                       r"\(a write stopped halfway\): remove that line"):
        Store(str(tmp_path / "b.db"), journal=str(record))
    assert record.read_text() == text[:-20]


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
def test_a_stop_at_any_line_of_a_write_leaves_a_journal_that_reads(tmp_path, name):
    # Ctrl-C lands between two lines of Python: here at each line of the writing in
    # turn (the journal's and the library code's it calls).  The store then closes,
    # writing what is gathered, and the next open must read the file, to be given
    # there what it lacks.  A compressed batch written to a gzip stream piece by
    # piece, stopped between its pieces, left a member no reader gets past.
    record = {"key": "k", "game": "shrine", "config": {}, "created": 0}
    rows = [GameRow(deal=d, seating=["a", "b"], returns=[1, -1]) for d in range(3)]

    def write(to):
        to.tournament(record)
        for row in rows:
            to.game("k", row)
        to.flush()
    stop, finished = 0, False
    while not finished:
        stop += 1
        path = str(tmp_path / f"{stop}-{name}")
        written, lines_run = journal.Journal(path), 0

        def trace(frame, event, arg):
            nonlocal lines_run
            if event == "line":
                lines_run += 1
                if lines_run == stop:
                    raise KeyboardInterrupt
            return trace
        sys.settrace(trace)
        try:
            write(written)
            finished = True
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)
        written.flush()
        write(journal.Journal(path))
        assert sorted(r.deal for _, r in journal.Journal(path).take()) == [0, 1, 2], stop
    assert stop > 20


def test_an_sprt_on_a_tournaments_pair_never_lowers_its_deals(tmp_path):
    # The same games asked for by another command: the record is relabelled with the
    # most deals either asked for.
    config = make_config(deals=3)
    with Store(str(tmp_path / "t.db")) as store:
        store.begin(config)
        store.begin(dataclasses.replace(config, deals=1, kind="sprt"))
        assert (store.tournament()["config"]["kind"],
                store.tournament()["config"]["deals"]) == ("sprt", 3)


def test_a_new_store_left_empty_takes_the_new_journal_with_it(tmp_path):
    record = tmp_path / "run.jsonl"
    Store(str(tmp_path / "t.db"), journal=str(record)).close()
    assert os.listdir(tmp_path) == []
    # A journal that was there before stays.
    record.write_text(json.dumps(journal.HEADER) + "\n")
    Store(str(tmp_path / "t.db"), journal=str(record)).close()
    assert os.listdir(tmp_path) == ["run.jsonl"]

