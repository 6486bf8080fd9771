"""The hard-mode study: its statistics, its JSON, its command and its answer in the bot."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from test_console import SEED, script

from bot.cli import main
from bot.console import Console
from bot.render.study import answer_sentences, hard_mode_text, study_chart, table_lines
from bot.results import DIRECTORY as RESULTS
from bot.services import Player, open_services
from bot.settings import load_settings
from engine.agents.qlearning import QSettings
from engine.agents.rollout import RolloutSettings
from engine.agents.study import (
    AGENTS,
    StudySettings,
    paired_difference,
    run_study,
    summary,
    t975,
)
from engine.variants import Variant
from engine.words import WordList


def test_the_summary_counts_a_lost_game_as_one_more_than_the_limit() -> None:
    result = summary([3, 4, None, 2], limit=6)  # scored 3, 4, 7, 2
    assert result["mean"] == 4.0
    assert result["sd"] == round(math.sqrt(14 / 3), 4)
    assert (result["failures"], result["worst"]) == (1, "X")
    assert result["distribution"] == {"1": 0, "2": 1, "3": 1, "4": 1, "5": 0, "6": 0, "X": 1}
    assert summary([2, 5], limit=6)["worst"] == 5


def test_the_paired_difference_and_its_t_interval() -> None:
    # Differences 0, 1, 1, 1 (the loss counts 7 against 6): mean 0.75, sd 0.5, t(3) 3.182.
    d = paired_difference([3, 4, 5, None], [3, 3, 4, 6], limit=6)
    half = 3.182 * 0.5 / 2
    assert d == {"mean": 0.75, "low": round(0.75 - half, 4), "high": round(0.75 + half, 4)}
    assert paired_difference([3], [4], limit=6) == {"mean": -1.0, "low": None, "high": None}


@pytest.mark.parametrize("df, exact", [(1, 12.7062), (30, 2.0423), (31, 2.0395), (40, 2.0211),
                                       (100, 1.9840), (2314, 1.9610)])  # fmt: skip
def test_t_quantiles(df: int, exact: float) -> None:
    assert t975(df) == pytest.approx(exact, abs=5e-4)


@pytest.fixture(scope="module")
def tiny() -> Variant:
    words = ["".join(p) for p in itertools.permutations("abcdef", 3)]  # 120 words
    answers = WordList.from_words("study-tiny-a", words[::3], 3, "abcdef")
    guesses = WordList.from_words("study-tiny-g", words, 3, "abcdef")
    return Variant("study-tiny", "Tiny", 3, "abcdef", 4, answers, guesses)


@pytest.fixture(scope="module")
def tiny_study(tiny: Variant) -> dict:
    settings = StudySettings(QSettings(episodes=500), RolloutSettings(top=4))
    return run_study(tiny, settings=settings)


def test_the_study_has_every_agent_and_mode(tiny_study) -> None:
    assert list(tiny_study["agents"]) == list(AGENTS)
    for entry in tiny_study["agents"].values():
        assert set(entry["modes"]) == {"normal", "hard", "strict"}
        for cell in entry["modes"].values():
            assert sum(cell["distribution"].values()) == len(cell["games"]) == 40
            assert cell["evaluation_seconds"] >= 0 and cell["training_seconds"] >= 0
        assert set(entry["differences"]) == {"hard", "strict"}
    json.dumps(tiny_study)  # the command prints it


def test_the_study_s_agents_keep_their_order(tiny_study) -> None:
    """No deterministic agent beats the exact search (random play may be lucky on a few
    answers); the trained seed agent finds fewer answers than any of them."""
    agents = tiny_study["agents"]
    for mode in ("normal", "hard", "strict"):
        best = agents["exact"]["modes"][mode]["mean"]
        for name in ("qlearning", "qpossible", "entropy", "parts", "rollout"):
            assert agents[name]["modes"][mode]["mean"] >= best
    for mode in ("normal", "hard"):  # choosing by the last clue alone, among any guesses
        assert agents["qlearning"]["modes"][mode]["failures"] > 0
    # Random consistent guesses obey every mode's rule, and each answer's game is seeded
    # alike in every mode: the same games, a difference of exactly zero.
    assert agents["random"]["differences"]["hard"] == {"mean": 0.0, "low": 0.0, "high": 0.0}


def test_the_study_s_table_text_and_picture(tiny_study) -> None:
    lines = table_lines(tiny_study)
    for label in ("random consistent", "seed Q-learning", "rollout", "exact optimum"):
        assert sum(line.startswith(label) for line in lines) == 4  # 3 modes and differences
    text = hard_mode_text(tiny_study, answer_sentences(tiny_study))
    exact = tiny_study["agents"]["exact"]
    assert f"normal {exact['modes']['normal']['mean']:.3f}" in text
    assert len(text) < 2000
    png = study_chart(tiny_study)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_prints_the_table_and_draws_the_picture(tmp_path, capsys) -> None:
    picture = tmp_path / "study.png"
    code = main(["study", "hard-mode", "--answers", "12", "--agents", "random", "parts",
                 "--plot", str(picture)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "greedy most parts   hard" in out and "95% CI" in out
    assert "Training (or reading it from the cache)" in out and "evaluation" in out
    assert picture.read_bytes()[:4] == b"\x89PNG"
    assert main(["study", "hard-mode", "--answers", "0"]) == 2
    assert "--answers takes 'all' or 1 to 2315" in capsys.readouterr().err


def test_the_stored_results_answer_for_wordle_and_primel() -> None:
    for variant in ("wordle", "primel"):
        result = json.loads((RESULTS / f"hardmode-{variant}.json").read_text())
        assert result["answers"] == result["answer_list"]  # every answer was played
        assert list(result["agents"]) == list(AGENTS)
        assert (RESULTS / f"hardmode-{variant}.png").read_bytes()[:4] == b"\x89PNG"


async def test_hardmode_at_the_console(tmp_path) -> None:
    settings = load_settings(database_path=str(tmp_path / "c.sqlite3"), daily_seed=SEED)
    services = await open_services(settings)
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.run(script("/hardmode", "/hardmode primel", "/hardmode absurdle"))
    await services.close()
    text = "\n".join(shown)
    for variant in ("wordle", "primel"):
        result = json.loads((RESULTS / f"hardmode-{variant}.json").read_text())
        exact = result["agents"]["exact"]
        assert f"Is hard mode harder? ({result['title']})" in text
        assert f"exact optimum: normal {exact['modes']['normal']['mean']:.3f}" in text
        assert f"hard - normal {exact['differences']['hard']['mean']:+.3f}" in text
        assert f"Picture: {RESULTS / f'hardmode-{variant}.png'}" in text
    assert "**" not in text
    assert "/hardmode takes game (wordle, primel), share" in text  # Discord's choices


async def test_hardmode_in_discord_is_private_unless_shared(tmp_path) -> None:
    from discord_double import DiscordDouble

    from bot.discord_bot import WordleBot

    settings = load_settings(database_path=":memory:", daily_seed=SEED)
    bot = WordleBot(settings, warm_engine=False)
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        double = DiscordDouble(bot)
        [reply] = await double.command("hardmode", user_id=111)
        assert reply.ephemeral and reply.files == ["hardmode-wordle.png"]
        assert "Is hard mode harder? (Wordle)" in reply.text and "exact optimum" in reply.text
        [shared] = await double.command("hardmode", user_id=111, game="primel", share=True)
        assert not shared.ephemeral and shared.files == ["hardmode-primel.png"]
        assert "(Primel)" in shared.text
    finally:
        await bot.close()
