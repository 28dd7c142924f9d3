"""The computer players' memo: answers as the function does, remembers, and stays bounded."""

from bot.ai.memo import memo


def test_it_remembers_and_forgets_everything_when_full():
    calls: list[int] = []

    @memo(3)
    def square(n: int) -> int:
        """Squares."""
        calls.append(n)
        return n * n

    assert [square(n) for n in (1, 2, 1, 2, 3)] == [1, 4, 1, 4, 9]
    assert calls == [1, 2, 3]  # each worked out once
    assert square(4) == 16  # a fourth: the memo is emptied first
    assert square(1) == 1
    assert calls == [1, 2, 3, 4, 1]  # 1 was forgotten
    assert square(4) == 16 and calls[-1] == 1  # 4 was kept after the emptying
    assert square.__name__ == "square" and square.__doc__ == "Squares."


def test_a_recursive_function_fills_and_empties_it_safely():
    @memo(5)
    def fib(n: int) -> int:
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    assert [fib(n) for n in range(30)][-1] == 514229
    assert fib(60) == 1548008755920  # the memo empties many times on the way
