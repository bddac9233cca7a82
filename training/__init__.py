"""Training (AlphaZero-style self-play and masked PPO) lives here; see the project issues."""
