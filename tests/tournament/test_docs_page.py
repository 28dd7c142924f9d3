import doctest
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "developers" / "tournaments.md"


def test_the_tournaments_page_examples_run():
    result = doctest.testfile(
        str(PAGE),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 20 and result.failed == 0


def test_the_tournaments_page_links_resolve():
    text = PAGE.read_text()
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links
    for target in links:
        assert "://" not in target, f"{target}: keep links inside the docs relative"
        assert (PAGE.parent / target.split("#")[0]).exists(), f"{target} does not exist"
