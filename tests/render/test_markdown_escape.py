"""The render's own markdown escape says what discord.py's ``escape_markdown`` says, on the
names and texts that trip escapes up (the render may not import discord; the test may)."""

from __future__ import annotations

import discord
import pytest

from bot.render.words import escape, escape_markdown

TRICKY = [
    "",
    "alice",
    "**bold** __under__ *it* _it_ ~~strike~~ ||spoiler|| `code` ```block```",
    "back\\slash \\*already\\*",
    "> quoted\n>>> block quote\n>not a quote",
    "# heading\n## two\n### three\n#### four",
    "- item\n  - nested\n-no space",
    "[masked](https://x.test/a_b) and [not masked]",
    "https://x.test/a_b*c and <https://y.test/_z_> and steam://run/1_2",
    "http://x.test/end. and http://x.test/q?a=1_2,",
    "<@123> <#456> <t:1700000000:R> <:emoji:789> @everyone @here",
    "ünïcödé_名前*★ 🃏 ♠️",
    "line one\r\nline_two\n\n\t- tabbed",
    "a" * 50 + "_" * 50,
    "[a](b)[c](d) ](( [[x]] (y)",
    "mixed <a:b/c> not_a_link <ab> <a b:/c>",
]


@pytest.mark.parametrize("text", TRICKY)
def test_the_escape_is_discord_pys(text: str) -> None:
    assert escape_markdown(text) == discord.utils.escape_markdown(text)


def test_a_name_is_escaped_pinged_by_nobody_and_links_nothing() -> None:
    assert escape("**Al_ice** <#1> @everyone") == "\\*\\*Al\\_ice\\*\\* \\<#1> @\u200beveryone"
