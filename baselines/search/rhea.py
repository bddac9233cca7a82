"""Rolling Horizon Evolutionary Algorithm (RHEA) of the Tribes paper (section 3.3 and 4.1).

An individual is a sequence of the root player's actions. Its fitness is the evaluator's value,
for the root player, of the state reached by playing the sequence from the current state. Genes
that are not legal when their turn comes (or were erased by mutation) are replaced by a uniformly
random legal action while evaluating, so every evaluated individual is a playable plan. When a
plan hands the turn over, the other players act uniformly at random until the root player decides
again (an evolved opponent would play for us); those actions are counted calls too.

Evolution: tournament selection, uniform crossover, per-gene mutation and elitism; with a
population of 1 the algorithm is the random-mutation hill climber the Tribes paper settled on
(mutate the best plan, keep the mutant when it is at least as good). The shift buffer carries
the final population over to the next decision with the first action dropped, which is how RHEA
keeps planning across the many decisions of one turn.

Random opponents make a plan's fitness a random variable, and a hill climber that keeps the
best single evaluation ends up keeping the luckiest plan. Survivors whose evaluation involved
chance are therefore evaluated again in every generation and ranked by their mean (resampling,
the usual remedy for noisy fitness), and ties between plans that end the game go to the one that
wins sooner.
"""

from __future__ import annotations

import random
from typing import Any

from stratagem.baselines.search.common import SearchAgent, SearchStats
from stratagem.baselines.search.config import SearchConfig, check_flag, check_int, check_number
from stratagem.envs.core import Game, State

__all__ = ["RHEAAgent"]


class _Individual:
    """An action sequence (``None`` genes are drawn at random when evaluated) and its fitness.

    The fitness is the mean over its evaluations: an individual whose evaluation involved chance
    (random opponent moves, a stochastic game) is ``noisy`` and is evaluated again whenever it
    survives into a new generation, so that one lucky evaluation cannot keep it on top.
    """

    __slots__ = ("count", "genes", "noisy", "total")

    def __init__(self, genes: list[int | None]) -> None:
        self.genes = genes
        self.total = 0.0
        self.count = 0
        self.noisy = False

    @property
    def fitness(self) -> float:
        return self.total / self.count if self.count else float("-inf")


class RHEAAgent(SearchAgent):
    """Rolling horizon evolution of action sequences.

    Defaults are the Tribes paper's: budget 2000, individuals of 20 actions, population 1
    (random-mutation hill climber), mutation rate 0.1, tournaments of 3, one elite, shift buffer.

    Options (:class:`~stratagem.baselines.search.config.SearchConfig`, as keywords or
    ``config``): ``budget``, ``time_limit``, ``evaluator``, ``exclude_kinds`` and
    ``force_end_turn`` (every this many genes is an END_TURN).

    Args:
        game: The game the agent plays.
        config: The whole configuration, instead of keywords.
        length: Actions per individual.
        population: Individuals per generation; 1 is a random-mutation hill climber.
        mutation: Probability that a gene is redrawn (at least one gene always is).
        crossover: Use uniform crossover between two tournament winners (population > 1).
        tournament: Tournament size for parent selection.
        elitism: Best individuals copied unchanged into the next generation.
        shift_buffer: Start the next decision from this decision's population, shifted by one.
        **options: Configuration fields over the defaults.
    """

    name = "rhea"
    options = frozenset(("budget", "time_limit", "evaluator", "exclude_kinds", "force_end_turn"))

    def __init__(
        self,
        game: Game,
        config: SearchConfig | None = None,
        *,
        length: int = 20,
        population: int = 1,
        mutation: float = 0.1,
        crossover: bool = True,
        tournament: int = 3,
        elitism: int = 1,
        shift_buffer: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(game, config, **options)
        for key, value, low in (
            ("length", length, 1),
            ("population", population, 1),
            ("tournament", tournament, 1),
            ("elitism", elitism, 0),
        ):
            check_int("rhea", key, value, low)
        if elitism >= population and population > 1:
            raise ValueError(
                f"rhea: elitism ({elitism}) must be smaller than the population ({population})"
            )
        check_number("rhea", "mutation", mutation, 0.0, high=1.0, what="a probability")
        check_flag("rhea", "crossover", crossover)
        check_flag("rhea", "shift_buffer", shift_buffer)
        self.length = length
        self.population = population
        self.mutation = float(mutation)
        self.crossover = crossover
        self.tournament = tournament
        self.elitism = elitism
        self.shift_buffer = shift_buffer
        self._stochastic = not game.spec.deterministic
        self._buffer: list[list[int | None]] = []

    def reset(self) -> None:
        """Drop the shift buffer of the previous game."""
        super().reset()
        self._buffer = []

    # ------------------------------------------------------------------ evolution
    def _evaluate(self, ind: _Individual, root: State, prng: random.Random) -> bool:
        """Play ``ind`` from ``root``, repairing genes; False when no call was left for it.

        A plan that ends the game gets a tie-break of a millionth per unused gene, signed by its
        outcome, so that of two plans scoring the same the one that wins sooner (or loses
        later) is preferred.
        """
        if self._left() <= 0:
            return False
        me = root.current_player
        state = root.clone()
        genes = ind.genes
        force = self.force_end_turn
        end = self.end_turn
        noisy = self._stochastic
        steps = 0
        for i in range(self.length):
            if state.current_player != me:
                noisy = True
                self._play_opponents(state, me, prng)
            if self._left() <= 0 or state.is_terminal() or state.current_player != me:
                break
            legal = self._legal(state)
            gene = genes[i]
            if force and (i + 1) % force == 0 and end in legal:
                gene = end
            elif gene is None or gene not in legal:
                gene = legal[int(prng.random() * len(legal))]
            genes[i] = gene
            self._step(state, gene)
            steps = i + 1
        value = self._values(state)[me] + self._outcome_bonus(state, me, self.length - steps)
        ind.total += value
        ind.count += 1
        ind.noisy = ind.noisy or noisy
        return True

    def _reevaluate(self, pop: list[_Individual], root: State, prng: random.Random) -> int:
        """Evaluate the noisy survivors once more; returns how many evaluations were made."""
        done = 0
        for ind in pop:
            if ind.noisy and self._evaluate(ind, root, prng):
                done += 1
        return done

    def _mutate(self, genes: list[int | None], prng: random.Random) -> list[int | None]:
        """Copy with each gene erased (redrawn at evaluation) with probability ``mutation``."""
        out = list(genes)
        rate = self.mutation
        hit = False
        for i in range(len(out)):
            if prng.random() < rate:
                out[i] = None
                hit = True
        if not hit:
            out[prng.randrange(len(out))] = None
        return out

    def _select(self, pop: list[_Individual], prng: random.Random) -> _Individual:
        """Tournament selection."""
        entrants = [pop[prng.randrange(len(pop))] for _ in range(self.tournament)]
        return max(entrants, key=lambda ind: ind.fitness)

    def _search(
        self, state: State, actions: list[int], prng: random.Random, stats: SearchStats
    ) -> int:
        length = self.length
        allowed = set(actions)
        pop: list[_Individual] = []
        for genes in self._buffer[: self.population]:
            pop.append(_Individual(list(genes)))
        while len(pop) < self.population:
            pop.append(_Individual([None] * length))
        for ind in pop:  # the first gene must come from the root candidates (root groups)
            if ind.genes[0] not in allowed:
                ind.genes[0] = actions[prng.randrange(len(actions))]
        evaluated = 0
        for ind in pop:
            if not self._evaluate(ind, state, prng):
                break
            evaluated += 1
        pop = [ind for ind in pop if ind.count]
        if not pop:  # not even one evaluation fitted in the budget
            stats.iterations = evaluated
            self._buffer = []
            return actions[prng.randrange(len(actions))]
        pop.sort(key=lambda ind: ind.fitness, reverse=True)
        while self._left() > 0 and not self._out_of_time():
            if self.population == 1:
                best = pop[0]
                child = _Individual(self._mutate(best.genes, prng))
                self._fix_root(child, allowed, actions, prng)
                if not self._evaluate(child, state, prng):
                    break
                evaluated += 1 + self._reevaluate([best], state, prng)
                if child.fitness >= best.fitness:
                    pop[0] = child
                continue
            nxt = pop[: self.elitism]
            evaluated += self._reevaluate(nxt, state, prng)
            while len(nxt) < self.population and self._left() > 0:
                first = self._select(pop, prng)
                if self.crossover:
                    second = self._select(pop, prng)
                    genes = [
                        a if prng.random() < 0.5 else b
                        for a, b in zip(first.genes, second.genes, strict=True)
                    ]
                else:
                    genes = list(first.genes)
                child = _Individual(self._mutate(genes, prng))
                self._fix_root(child, allowed, actions, prng)
                if not self._evaluate(child, state, prng):
                    break
                evaluated += 1
                nxt.append(child)
            if not nxt:
                break
            pop = sorted(nxt, key=lambda ind: ind.fitness, reverse=True)
        stats.iterations = evaluated
        best = pop[0]
        stats.extra["best_fitness"] = best.fitness
        if self.shift_buffer:
            self._buffer = [[*ind.genes[1:], None] for ind in pop]
        return int(best.genes[0])  # type: ignore[arg-type]

    @staticmethod
    def _fix_root(
        ind: _Individual, allowed: set[int], actions: list[int], prng: random.Random
    ) -> None:
        """Keep the first gene among the root candidates (it is the action played)."""
        if ind.genes[0] not in allowed:
            ind.genes[0] = actions[prng.randrange(len(actions))]
