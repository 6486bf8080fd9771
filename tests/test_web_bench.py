"""``wordlebot bench web`` at a tiny size on both engines, so the benchmark cannot rot."""

from __future__ import annotations

import json

from bot.cli import main


def test_bench_web_small_on_both_engines(capsys, postgres_url) -> None:
    code = main(["bench", "web", "--players", "4", "--days", "3", "--passes", "1",
                 "--database", postgres_url, "--json"])  # fmt: skip
    figures = json.loads(capsys.readouterr().out)
    assert code == 0 and set(figures) == {"sqlite", "postgresql"}
    for engine in figures.values():
        # every board in every period (26) and every player's page, each read once
        assert engine["pages"] == 26 + 4 and engine["reads"] == engine["pages"]
        assert 0 < engine["server_p50_ms"] <= engine["server_p99_ms"]
        assert engine["round_trip_p99_ms"] >= engine["server_p50_ms"]
        assert "/p/" in engine["largest_page"] and "SLUG" in engine["largest_page"]
        assert 0 < engine["largest_page_kb"] < engine["with_style_sheet_kb"]
