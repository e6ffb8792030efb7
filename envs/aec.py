"""A PettingZoo AEC environment over any compiled variant: one hand per
episode, the seats as agents `player_0` … `player_{n-1}`."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from runtime.bots import make_bot
from runtime.game import deal
from runtime.registry import load
from runtime.settlement import seat_deltas
from runtime.shuffle import derive
from runtime.views import seat_view

from .encoding import Encoding


def observation_space(enc: Encoding) -> spaces.Dict:
    parts = {
        name: spaces.Box(0.0, float(high), shape=shape, dtype=np.float32) for name, shape, high in enc.parts
    }
    return spaces.Dict(
        {
            "observation": spaces.Box(np.zeros(enc.size, dtype=np.float32), enc.highs(), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(len(enc.actions),), dtype=np.int8),
            **parts,
        }
    )


class MahjongEnv(AECEnv):
    """Agents act in the order the game asks them (`game.to_act()`); in a
    claim window each seat with a claim answers in turn order. Rewards are
    score changes as they are settled (kong money paid at once, wins
    settled during a hand), summing over the episode to the hand's
    deltas. Observations hold only the acting seat's view."""

    metadata = {"render_modes": ["ansi", "human"], "name": "mahjong_v0", "is_parallelizable": False}

    def __init__(self, variant: str, options: dict | None = None, players: int | None = None, seed=None,
                 render_mode: str | None = None):
        super().__init__()
        self.variant = variant
        self.table = load(variant).configure(options, players)
        self.enc = Encoding(self.table)
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._obs_space = observation_space(self.enc)
        self._act_space = spaces.Discrete(len(self.enc.actions))
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"mahjong_{variant}_v0"}
        self._root = 0 if seed is None else seed
        self._hand = 0
        self.game = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # ------------------------------------------------------------ episodes

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._root, self._hand = seed, 0
        hand_seed = derive(str(self._root), "env", self._hand)
        self._hand += 1
        n = self.table.players
        dealer = int(derive(hand_seed, "dealer"), 16) % n
        self.game = deal(self.table, hand_seed, dealer=dealer)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settled = [0] * n
        self._legal: dict = {}
        self._select()

    def _select(self) -> None:
        acting = self.game.to_act()
        if acting:
            self.agent_selection = self.possible_agents[acting[0]]
            self._legal = self.enc.legal(self.game, acting[0])

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        parts = self.enc.encode(seat_view(self.game, seat))
        legal = self._legal if agent == self.agent_selection and not self.game.over else {}
        return {"observation": self.enc.flat(parts), "action_mask": self.enc.mask(legal), **parts}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        index = int(action)
        if index not in self._legal:
            raise ValueError(f"{agent}: action {index} ({self.enc.name(index) if 0 <= index < len(self.enc.actions) else '?'}) "
                             f"is not legal now; legal: {sorted(self._legal)}")
        chosen = self._legal[index]
        if chosen is None:  # auto: the greedy bot's choice
            chosen = make_bot("greedy", f"{self._root}/{seat}/{len(self.game.log)}").choose(self.game, seat)
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(seat, chosen)
        game = self.game
        now = game.result.deltas if game.over else seat_deltas(game.n, game.payments)
        self.rewards = {a: float(now[i] - self._settled[i]) for i, a in enumerate(self.possible_agents) if a in self.rewards}
        self._settled = list(now)
        if game.over:
            self.terminations = {a: True for a in self.agents}
            self._legal = {}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self):
        if self.game is None:
            return ""
        from runtime.tiles import NAMES

        lines = []
        for s, st in enumerate(self.game.seats):
            hand = "".join(NAMES[t] for t in range(len(st.counts)) for _ in range(st.counts[t]))
            lines.append(f"{self.possible_agents[s]}: {hand} | discards {''.join(NAMES[t] for t in st.discards)}")
        if self.game.over:
            lines.append(f"result: {self.game.result.deltas}")
        return "\n".join(lines)

    def close(self):
        pass
