"""IdentityMemo: a value per object (and extra key parts), kept with its object, oldest out first."""

from __future__ import annotations

from forge.core.identity_memo import IdentityMemo


def test_the_same_object_gets_the_remembered_value_and_an_equal_one_its_own() -> None:
    memo: IdentityMemo[int] = IdentityMemo(8)
    calls: list[list[int]] = []

    def total(values: list[int]) -> int:
        calls.append(values)
        return sum(values)

    first, twin = [1, 2], [1, 2]  # unhashable, equal, distinct
    assert memo.get(first, lambda: total(first)) == 3
    assert memo.get(first, lambda: total(first)) == 3
    assert memo.get(twin, lambda: total(twin)) == 3
    assert calls == [first, twin]


def test_extra_key_parts_are_compared_by_value() -> None:
    memo: IdentityMemo[str] = IdentityMemo(8)
    thing = object()
    assert memo.get(thing, lambda: "a", "frame-1") == "a"
    assert memo.get(thing, lambda: "b", "frame-2") == "b"
    assert memo.get(thing, lambda: "never", "frame-1") == "a"


def test_it_keeps_at_most_its_limit_dropping_the_oldest() -> None:
    memo: IdentityMemo[int] = IdentityMemo(2)
    objects = [object() for _ in range(3)]
    for n, obj in enumerate(objects):
        memo.get(obj, lambda n=n: n)
    assert len(memo) == 2
    assert memo.get(objects[0], lambda: 99) == 99  # forgotten: computed again
    assert memo.get(objects[2], lambda: 99) == 2
