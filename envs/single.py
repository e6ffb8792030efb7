"""A Gymnasium single-agent environment: one learning seat, the other seats
played by bots (`runtime.bots`: random, greedy or strong)."""

from __future__ import annotations

import gymnasium
import numpy as np

from runtime.bots import make_bot

from .aec import MahjongEnv


class MahjongSingleEnv(gymnasium.Env):
    """Observations and actions as in the AEC environment (the seat's own
    view, a fixed Discrete action space with `action_mask`); `flat=True`
    gives the flat vector alone as the observation and the mask in
    `info["action_mask"]` and `action_masks()` (for maskable learners).
    The reward of a step is the seat's score change from its action to
    its next decision (the bots' moves in between included). An action
    the mask does not allow is played as `auto` (the greedy bot's choice,
    `info["illegal"]` set), or raises with `illegal="raise"`. A hand
    that ends before the seat has a decision is skipped at `reset`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, variant: str, options: dict | None = None, players: int | None = None, seed=None,
                 seat: int = 0, bots: str = "greedy", flat: bool = False, render_mode: str | None = None,
                 illegal: str = "auto"):
        if illegal not in ("auto", "raise"):
            raise ValueError(f"illegal must be 'auto' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.aec = MahjongEnv(variant, options, players, seed)
        n = self.aec.table.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.bot_kind = bots
        make_bot(bots)  # an unknown bot name fails here, not at the first step
        self.flat = flat
        self.render_mode = render_mode
        space = self.aec.observation_space(self.agent)
        self.observation_space = space["observation"] if flat else space
        self.action_space = self.aec.action_space(self.agent)
        self._obs = None

    def _observe(self):
        obs = self.aec.observe(self.agent)
        self._mask = obs["action_mask"]
        return (obs["observation"] if self.flat else obs), {"action_mask": self._mask}

    def action_masks(self) -> np.ndarray:
        return self._mask

    def _play_others(self) -> None:
        """Bots move until the learning seat must act or the hand ends."""
        aec = self.aec
        while not aec.game.over and aec.agent_selection != self.agent:
            seat = aec.possible_agents.index(aec.agent_selection)
            bot = make_bot(self.bot_kind, f"{aec._root}/{seat}/{len(aec.game.log)}")
            action = bot.choose(aec.game, seat)
            index = aec.enc.index.get(aec.enc.key(aec.game, action), aec.enc.auto)
            if index == aec.enc.auto:
                aec._legal[index] = action
            aec.step(index)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self._play_others()
        while self.aec.game.over:  # a hand that ended before this seat had a decision: the next one
            self.aec.reset()
            self._play_others()
        obs, info = self._observe()
        return obs, info

    def step(self, action):
        aec = self.aec
        before = aec._settled[self.seat]
        index = int(action)
        illegal = index not in aec._legal
        if illegal and self.illegal == "auto":
            aec._legal[aec.enc.auto] = None
            index = aec.enc.auto
        aec.step(index)
        self._play_others()
        reward = float(aec._settled[self.seat] - before)
        obs, info = self._observe()
        if illegal:
            info["illegal"] = True
        return obs, reward, aec.game.over, False, info

    def render(self):
        return self.aec.render()
