"""Environments over every compiled variant (the `env` extra:
`pip install '.[env]'`): a PettingZoo AEC environment and a Gymnasium
single-agent wrapper whose other seats are played by bots.

    import envs
    env = envs.aec_env("sichuan_xuezhan", seed=1)
    env1 = envs.gym_env("mcr", bots="strong", flat=True)

See docs/environment.md for the action space, the observation encoding,
rewards and an example training loop.
"""

from __future__ import annotations


def aec_env(variant: str, options: dict | None = None, players: int | None = None, seed=None, render_mode=None):
    """The PettingZoo AEC environment of a variant under these options."""
    from .aec import MahjongEnv

    return MahjongEnv(variant, options, players, seed, render_mode)


def gym_env(variant: str, options: dict | None = None, players: int | None = None, seed=None, seat: int = 0,
            bots: str = "greedy", flat: bool = False, render_mode=None):
    """A Gymnasium environment for one seat; the others are `bots`."""
    from .single import MahjongSingleEnv

    return MahjongSingleEnv(variant, options, players, seed, seat, bots, flat, render_mode)


__all__ = ["aec_env", "gym_env"]
