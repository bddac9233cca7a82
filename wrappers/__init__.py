"""Wrappers over the games: the Gymnasium single-agent view (``gym.make``) and reward shaping."""

from stratagem.wrappers.gym_env import SingleAgentEnv, register_gymnasium_envs

__all__ = ["SingleAgentEnv", "register_gymnasium_envs"]
