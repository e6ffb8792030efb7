"""The PettingZoo and Gymnasium environments (envs/) over every compiled
variant: PettingZoo's own API and seed tests, rewards that add up to the
hand's score changes, observations that hold nothing a seat may not see."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import envs  # noqa: E402
from invariants import check_view_hides  # noqa: E402
from runtime.registry import names  # noqa: E402

VARIANTS = names()


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo warns that a Dict observation is not a plain array; it is documented
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed_tests(variant):
    from pettingzoo.test import api_test, seed_test

    api_test(envs.aec_env(variant, seed=7), num_cycles=120)
    seed_test(lambda: envs.aec_env(variant), num_cycles=60)


def _play(env, seed, every=None):
    """A whole hand with uniformly random legal actions; the rewards each agent got."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    got = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        if every is not None and not (term or trunc):
            every(env, agent, obs)
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


@pytest.mark.parametrize("variant", VARIANTS)
def test_rewards_add_up_to_the_hand_and_views_hide(variant):
    env = envs.aec_env(variant)

    def check(env, agent, obs):
        seat = env.possible_agents.index(agent)
        check_view_hides(env.game, seat)
        assert env.observation_space(agent).contains(obs)
        legal = {env.enc.index[env.enc.key(env.game, a)] for a in env.game.legal_actions(seat)
                 if env.enc.key(env.game, a) in env.enc.index}
        assert legal <= set(np.flatnonzero(obs["action_mask"]))

    for seed in range(3):
        got = _play(env, seed, check)
        deltas = env.game.result.deltas
        assert [got[a] for a in env.possible_agents] == pytest.approx(deltas)


def _hidden_changed(game, seat):
    """The same game with another seat's concealed tiles and the wall
    changed (a tile of one swapped with a tile of the other), or None."""
    other = copy.deepcopy(game)
    for s, st in enumerate(other.seats):
        if s == seat or getattr(st, "out", False):
            continue
        held = [t for t in range(34) if st.counts[t]]
        for i in range(other.front, other.back - other.table.face_up):  # the face-up tail is public
            w = other.wall[i]
            if w < 34 and held and w != held[0]:
                st.counts[held[0]] -= 1
                st.counts[w] += 1
                other.wall[i] = held[0]
                st.waits_key = None
                other._legal = {}
                return other
    return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_observation_does_not_change_with_what_the_seat_cannot_see(variant):
    env = envs.aec_env(variant, seed=3)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    for step in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        seat = env.possible_agents.index(agent)
        changed = _hidden_changed(env.game, seat)
        if changed is not None and env.game.phase == "turn":
            real = env.observe(agent)
            env.game, saved = changed, env.game
            moved = env.observe(agent)
            env.game = saved
            for key in real:
                assert np.array_equal(real[key], moved[key]), f"{key} shows another seat's tiles or the wall"
            checked += 1
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 0


def test_the_action_space_is_fixed_by_the_tile_set():
    env = envs.aec_env("sichuan_xuezhan")
    names_ = [env.enc.name(i) for i in range(len(env.enc.actions))]
    assert "discard 5m" in names_ and "void p" in names_ and "exchange 1m1m1m" in names_ and "auto" in names_
    assert not any(n.endswith("z") for n in names_ if n.startswith("discard")), "no honours in a 108-tile set"
    assert envs.aec_env("mcr").action_space("player_0").n == len(envs.aec_env("mcr").enc.actions)


@pytest.mark.parametrize("variant", ["yunnan_ka_er_tiao", "mcr", "sichuan_xuezhan", "erren_136"])
def test_gymnasium_wrapper(variant):
    from gymnasium.utils.env_checker import check_env

    for flat in (False, True):
        check_env(envs.gym_env(variant, seed=1, flat=flat), skip_render_check=True)
    env = envs.gym_env(variant, bots="strong", flat=True, seat=1)
    obs, info = env.reset(seed=5)
    total, done = 0.0, False
    rng = np.random.default_rng(5)
    while not done:
        assert env.observation_space.contains(obs)
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
    assert total == env.aec.game.result.deltas[1]


def test_bad_arguments_are_refused_with_a_message():
    with pytest.raises(ValueError, match="seat must be"):
        envs.gym_env("mcr", seat=7)
    with pytest.raises(ValueError, match="unknown bot"):
        envs.gym_env("mcr", bots="clever")
    env = envs.aec_env("mcr", seed=1)
    env.reset()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        env.step(illegal)
