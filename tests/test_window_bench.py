"""The game window's benchmark (tests/window_bench.py, issue 42 points 4 and 9) on a tiny scale:
one timed open, two guesses and six other players' guesses through its command line, every
figure present and coherent.
Its speed is the benchmark's to measure, never held to here."""

from __future__ import annotations

import json

import window_bench


def test_the_window_benchmark_reports_every_figure(capsys) -> None:
    window_bench.main(["--opens", "1", "--guesses", "2", "--updates", "6", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["api_violations"] == []
    load = report["load_average"]
    assert len(load["start"]) == len(load["end"]) == 3
    assert all(x >= 0 for x in load["start"] + load["end"])

    board = report["first_board"]
    assert board["opens"] == 1 and board["cold_ms"] > 0
    [page], [frame] = board["from_page_ms"]["values"], board["from_frame_ms"]["values"]
    assert page > frame > 0  # the page frames the Activity before the Activity starts
    assert board["from_page_ms"]["median"] == board["from_page_ms"]["max"] == page
    phases = board["phases_median_ms"]
    order = ["framed", "page", "script_end", "sign_in_start", "sign_in_end", "command_start",
             "command_end", "board", "board_frame"]  # fmt: skip
    assert [phases[name] for name in order] == sorted(phases[name] for name in order)
    assert phases["board"] == page
    served = board["app_js_served"]
    assert served["decoded"] == report["size"]["files"]["app.js"]["raw"]

    trip = report["round_trip"]
    assert trip["guesses"] == 2 and trip["games"] == 1
    marked, painted = trip["marked_ms"]["values"], trip["frame_ms"]["values"]
    requests = trip["request_ms"]["values"]
    assert len(marked) == len(painted) == len(requests) == 2
    for request, to_dom, to_frame in zip(requests, marked, painted, strict=True):
        assert 0 < request < to_dom <= to_frame  # the request is within the round trip
    assert trip["marked_ms"]["max"] == max(marked) >= trip["marked_ms"]["p50"] > 0

    reached = report["progress"]  # bob1's five rows, then bob2's first
    assert reached["updates"] == 6 and reached["players"] == 2
    shown, painted = reached["shown_ms"]["values"], reached["frame_ms"]["values"]
    assert len(shown) == len(painted) == 6
    for to_dom, to_frame in zip(shown, painted, strict=True):
        assert 0 < to_dom <= to_frame  # after the commit, drawn before painted
    assert reached["shown_ms"]["max"] == max(shown) >= reached["shown_ms"]["p50"]
    assert reached["clocks_apart_ms"] >= 0 and reached["page_clock_off_ms"] >= 0
    assert report["targets"]["progress_ms"] == 1000

    size = report["size"]
    assert set(size["files"]) == {"index.html", "app.js", "app.css"}
    for name, f in size["files"].items():
        assert f["raw"] > f["gzip"] > 0, name
    assert size["gzip_kb"] == round(sum(f["gzip"] for f in size["files"].values()) / 1024, 1)
    assert size["raw_kb"] > size["gzip_kb"] > 0

    text = window_bench.table(report)
    for words in ("first board", "a guess's round trip", "progress reaching another window",
                  "built files", "load average"):  # fmt: skip
        assert words in text
