"""End to end in headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium): whole games of Card Duel and Shrine played by clicks, with a hint, an undo
and a reload midway; the tournament page following a run as it writes.  Each page's
screenshot is saved in a temporary folder, or under docs/web/ for the README with
CARDARENA_DOCS_SHOTS=1 in the environment."""
import json
import os
import pathlib
import shutil
import time
import urllib.request

import pytest

from web.web_helpers import running, store_games

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="no headless browser: apt-get install chromium "
    "chromium-driver (as .ci/run does) to run the browser tests")

DOCS = pathlib.Path(__file__).parents[2] / "docs" / "web"


@pytest.fixture
def shots(tmp_path):
    """Where the screenshots go: docs/web/ when refreshing the docs' pictures."""
    if os.environ.get("CARDARENA_DOCS_SHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        return DOCS
    return tmp_path


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1280,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    yield driver
    driver.quit()


def _settled(driver, timeout=60):
    """Wait for the person's move or the end of the game; returns the status line."""
    def ready(d):
        text = d.find_element(By.ID, "status").text
        return text if text == "Your move." or text.startswith("Game over") else False
    return WebDriverWait(driver, timeout).until(ready)


def _start(driver, url, game, bot):
    driver.get(url + "/")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    driver.find_element(By.CSS_SELECTOR, f"input[name=bot][value='{bot}']").click()
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, 20).until(lambda d: "/play/" in d.current_url)


def _play_by_clicks(driver, shot=None):
    """Click the first move offered until the game ends, asking a hint, undoing and
    reloading the page on the way."""
    moves = 0
    while _settled(driver) == "Your move.":
        buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button")
        if moves == 1:
            _check_layout(driver)
        if moves == 2 and len(buttons) > 1:
            driver.find_element(By.ID, "hint-button").click()
            WebDriverWait(driver, 30).until(
                lambda d: d.find_element(By.ID, "hint").text.startswith("Hint: "))
            assert driver.find_elements(By.CSS_SELECTOR, "#moves button.hinted")
            if shot:
                driver.execute_script("window.scrollTo(0, 0)")
                driver.save_screenshot(str(shot))
        if moves == 4:
            log = len(driver.find_elements(By.CSS_SELECTOR, "#log li"))
            driver.find_element(By.ID, "undo").click()
            WebDriverWait(driver, 20).until(
                lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) < log)
            _settled(driver)
            buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button")
        if moves == 6:
            log = driver.find_element(By.ID, "log").text
            driver.refresh()
            assert _settled(driver) == "Your move."
            assert driver.find_element(By.ID, "log").text == log
            buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button")
        buttons[0].click()
        moves += 1
    assert moves > 6
    assert driver.find_element(By.ID, "status").text.startswith("Game over. ")


def _check_layout(driver):
    """The game's layout: a status line, the person's seat at the foot of the table
    after the others, and the bookkeeping folded under "more", out of sight."""
    assert driver.find_element(By.CSS_SELECTOR, ".board .table-status").text
    seats = driver.find_elements(By.CSS_SELECTOR, ".board > div.area")
    assert "(you)" in seats[-1].text and "you" in seats[-1].get_attribute("class")
    assert [a.text.splitlines()[0] for a in seats[:-1]] == ["player 1", "table"]
    shown = {n.text for n in driver.find_elements(By.CSS_SELECTOR, ".board .name")
             if n.is_displayed()}
    assert "hand" in shown and not shown & {"current player", "piles", "unseen"}
    more = driver.find_element(By.CSS_SELECTOR, ".board details.more")
    assert more.get_attribute("open") is None


@pytest.mark.parametrize("game, bot, shot", [
    ("card_duel", "random", None),
    ("shrine", "greedy", "play.png")])
def test_a_whole_game_is_played_by_clicks(tmp_path, browser, shots, game, bot, shot):
    with running(tmp_path / "web.db", secrets=[4]) as url:
        _start(browser, url, game, bot)
        _play_by_clicks(browser, shot and shots / shot)
        browser.get(url + "/")
        assert browser.find_elements(By.CSS_SELECTOR, "table.games a")
        if shot:
            browser.save_screenshot(str(shots / "home.png"))


def test_the_tournament_page_follows_a_run_as_it_writes(tmp_path, browser, shots):
    db = tmp_path / "t.db"
    config = store_games(db, range(2))
    with running(db) as url:
        browser.get(f"{url}/tournaments/{config.key}")
        counted = browser.find_element(By.ID, "games-count")
        assert counted.text.startswith("4 games")
        WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "live").text == "live")
        store_games(db, range(2, 6))
        WebDriverWait(browser, 20).until(
            lambda d: d.find_element(By.ID, "games-count").text.startswith("12 games"))
        rows = browser.find_elements(By.CSS_SELECTOR, "table#games tr")
        assert len(rows) == 13 and rows[1].text.startswith("1 0 0: ")
        browser.save_screenshot(str(shots / "tournament.png"))
        browser.get(browser.find_element(By.CSS_SELECTOR, "a[href^='/replay/']")
                    .get_attribute("href"))
        # The deal is one step, drawn as the play page draws a game: every card shown.
        browser.find_element(By.ID, "next").click()
        assert browser.find_element(By.ID, "move").text.startswith("chance: deal")
        for _ in range(29):
            browser.find_element(By.ID, "next").click()
        assert browser.find_element(By.ID, "number").text == "30"
        assert browser.find_element(By.CSS_SELECTOR, "#board .table-status").text
        areas = browser.find_elements(By.CSS_SELECTOR, "#board > div.area")
        assert [a.text.splitlines()[0][:10] for a in areas] == ["player 1 (", "table",
                                                                "player 0 ("]
        assert not browser.find_elements(By.CSS_SELECTOR, "#board .card.back")
        browser.save_screenshot(str(shots / "replay.png"))


def test_creature_shrines_is_played_on_its_region(tmp_path, browser, shots):
    # A mode chosen from its list; then play cards where the page offers them until
    # creatures stand on the region, drawn as a 5 by 3 grid of sites.
    with running(tmp_path / "web.db", secrets=[3]) as url:
        browser.get(url + "/")
        Select(browser.find_element(By.ID, "game")).select_by_value("creature_shrines")
        Select(browser.find_element(By.NAME, "param-mode")).select_by_value("king_of_the_hill")
        browser.find_element(By.CSS_SELECTOR, "input[name=bot][value='greedy']").click()
        browser.find_element(By.ID, "start").click()
        WebDriverWait(browser, 20).until(lambda d: "/play/" in d.current_url)
        WebDriverWait(browser, 20).until(
            lambda d: "king_of_the_hill" in d.find_element(By.ID, "title").text)
        for _ in range(80):
            if _settled(browser) != "Your move." or len(
                    browser.find_elements(By.CSS_SELECTOR, "table.grid .card.piece")) >= 4:
                break
            buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button")
            wanted = [b for b in buttons if b.text.split()[0] in ("play", "at", "keep")]
            (wanted or buttons)[0].click()
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.grid td")) == 15
        assert browser.find_elements(By.CSS_SELECTOR, "table.grid .card.piece.mine")
        # The person's own Melee row is the foot of the grid: row 0 for seat 0.
        rows = browser.find_elements(By.CSS_SELECTOR, "table.grid tr")
        assert rows[4].find_element(By.TAG_NAME, "th").text == "0"
        # Where the game stands, in words; no life in a mode without it (C8).
        status = browser.find_element(By.CSS_SELECTOR, ".board .table-status").text
        assert status.startswith("King of the Hill: turn ") and "step" not in status
        names = {n.text for n in browser.find_elements(By.CSS_SELECTOR, ".board .name")
                 if n.is_displayed()}
        assert "points" in names and "life" not in names
        # Every card is written as it is named, the shrines among them ("Cinder
        # Brute", not cinder_brute), and so are the moves and the log.
        faces = [c.text for c in browser.find_elements(By.CSS_SELECTOR, ".board .card.readable")]
        shrines = [f for f in browser.find_elements(By.CSS_SELECTOR, ".board .area > div > .field")
                   if f.find_element(By.CSS_SELECTOR, ".name").text == "shrine"]
        assert len(shrines) == 2 and all(s.find_elements(By.CSS_SELECTOR, ".card.readable")
                                         for s in shrines)
        assert faces and not any("_" in f for f in faces)
        assert "_" not in browser.find_element(By.ID, "log").text
        assert not any("_" in b.text for b in browser.find_elements(By.CSS_SELECTOR, "#moves button"))
        # A board's names say what they mean when pointed at.
        marks = [n for n in browser.find_elements(By.CSS_SELECTOR, ".board .name.explained")
                 if n.text == "marks"]
        assert marks and "time marks" in marks[0].get_attribute("title")
        # A card says what is on it when pointed at, and tapped.
        card = browser.find_element(By.CSS_SELECTOR, "table.grid .card.readable")
        assert "cost: " in card.get_attribute("title")
        card.click()
        shown = browser.find_element(By.CSS_SELECTOR, ".board .card-text")
        assert shown.is_displayed() and "cost" in shown.text
        browser.execute_script("window.scrollTo(0, 0)")
        browser.save_screenshot(str(shots / "creature_shrines.png"))


def test_the_energy_deckbuilders_creatures_are_drawn_as_cards(tmp_path, browser):
    # Dealt from secret 1, a creature comes into play within a few turns.
    with running(tmp_path / "web.db", secrets=[1]) as url:
        _start(browser, url, "energy_deckbuilder", "greedy")
        for _ in range(120):
            if _settled(browser) != "Your move." or browser.find_elements(
                    By.CSS_SELECTOR, ".board .area .card.piece"):
                break
            buttons = browser.find_elements(By.CSS_SELECTOR, "#moves button")
            wanted = [b for b in buttons if b.text.startswith("play ")]
            (wanted or buttons)[0].click()
        creature = browser.find_element(By.CSS_SELECTOR, ".board .area .card.piece")
        assert creature.text.splitlines()[0] in browser.find_element(By.ID, "text").get_attribute(
            "textContent")
        board = browser.find_element(By.ID, "board").text
        assert "{" not in board and '"card"' not in board and "[object" not in board
        # The market's cards say what they cost and do when pointed at.
        market = browser.find_element(
            By.XPATH, "//span[@class='field'][span[contains(concat(' ', @class, ' '), "
            "' name ')][.='market']]")
        offered = market.find_elements(By.CSS_SELECTOR, ".card.readable")
        assert offered and all("buy: " in c.get_attribute("title") for c in offered)
        # The page names its icon: the browser asked for nothing the server lacks.
        missing = [e["message"] for e in browser.get_log("browser") if "404" in e["message"]]
        assert not missing


def test_a_page_reloaded_while_the_bot_thinks_plays_on_once_its_move_is_made(
        tmp_path, browser):
    # The first page's request goes on searching after the reload and holds the game:
    # the new page is refused (409) until the move is made, then plays on from there.
    with running(tmp_path / "web.db", secrets=[4]) as url:
        request = urllib.request.Request(
            url + "/api/games", method="POST", headers={"content-type": "application/json"},
            data=json.dumps({"game": "card_duel", "bot": "ismcts(seconds=3)",
                             "seat": 1}).encode())
        with urllib.request.urlopen(request) as response:
            game_id = json.load(response)["id"]
        browser.get(f"{url}/play/{game_id}")
        WebDriverWait(browser, 20).until(
            lambda d: d.find_element(By.ID, "status").text == "player 0 is thinking")
        time.sleep(1)  # for the request to reach the server, whose bot then thinks on
        browser.refresh()
        assert _settled(browser) == "Your move."
        assert browser.find_element(By.ID, "error").text == ""


def test_relinquishs_opponents_hands_are_card_backs(tmp_path, browser):
    # Three players: each opponent's hand was "hand –" beside its size.
    with running(tmp_path / "web.db", secrets=[2]) as url:
        browser.get(url + "/")
        Select(browser.find_element(By.ID, "game")).select_by_value("relinquish")
        players = browser.find_element(By.NAME, "param-players")
        players.clear()
        players.send_keys("3")
        browser.find_element(By.CSS_SELECTOR, "input[name=bot][value='random']").click()
        browser.find_element(By.ID, "start").click()
        WebDriverWait(browser, 20).until(lambda d: "/play/" in d.current_url)
        assert _settled(browser) == "Your move."
        for seat in (1, 2):
            area = browser.find_element(
                By.XPATH, f"//div[@id='board']/div[contains(@class, 'area')][h3='player {seat}']")
            hand = area.find_element(
                By.XPATH, ".//span[@class='field'][span[@class='name'][.='hand']]")
            assert hand.find_elements(By.CSS_SELECTOR, ".card.back")
            assert "–" not in hand.text


def test_the_guided_search_is_offered_where_its_model_is_shipped(tmp_path, browser):
    from search import shipped
    import core
    assert ("shrine", ()) in shipped(core.GAMES["shrine"])
    with running(tmp_path / "web.db") as url:
        browser.get(url + "/")
        choice = browser.find_element(By.ID, "model-choice")
        Select(browser.find_element(By.ID, "game")).select_by_value("shrine")
        assert choice.is_displayed()
        choice.find_element(By.TAG_NAME, "input").click()
        # A variant without a model of its own: the choice goes, and so does its tick.
        browser.find_element(By.CSS_SELECTOR, "[data-param=alt_heal]").click()
        assert not choice.is_displayed()
        assert not choice.find_element(By.TAG_NAME, "input").is_selected()
        browser.find_element(By.CSS_SELECTOR, "[data-param=alt_heal]").click()
        assert choice.is_displayed()
        choice.find_element(By.TAG_NAME, "input").click()
        browser.find_element(By.ID, "start").click()
        WebDriverWait(browser, 20).until(lambda d: "/play/" in d.current_url)
        _settled(browser)
        assert "against ismcts(model=default,seconds=1.0)" in browser.find_element(
            By.ID, "who").text
