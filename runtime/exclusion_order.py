"""The order fans are settled in where a variant lists its exclusions: a
fan comes after every fan that excludes it. The compiler lays out the fast
form's bit positions by it and the runtime settles the readable form by
it, so that the two forms agree."""

from __future__ import annotations


def excluders_first(fans) -> tuple[int, ...]:
    """Fan indices with every fan after the fans that exclude it, otherwise
    in table order (the compiler has refused cycles)."""
    index = {f.id: i for i, f in enumerate(fans)}
    excluded_by: dict[int, set[int]] = {i: set() for i in range(len(fans))}
    for i, f in enumerate(fans):
        for fid in tuple(f.excludes) + tuple(x for x, _ in f.excludes_times) + tuple(f.excludes_sets):
            excluded_by[index[fid]].add(i)
    done: set[int] = set()
    out: list[int] = []
    while len(out) < len(fans):
        ready = next((i for i in range(len(fans)) if i not in done and excluded_by[i] <= done), None)
        if ready is None:  # a cycle: keep table order for the rest
            ready = next(i for i in range(len(fans)) if i not in done)
        done.add(ready)
        out.append(ready)
    return tuple(out)
