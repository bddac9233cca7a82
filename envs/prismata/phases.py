"""Attack and the turn's phases: targets, blocks, frontline attacks, breach, turn ends.

:class:`PhaseRules` is a mixin of :class:`~stratagem.envs.prismata.rules.PrismataState` that
holds the rule internals moving a turn through its phases: blocking in defense, the wipeout and
breach after the action phase, the end of a turn and the start of the next. A mixin, as
:mod:`~stratagem.envs.prismata.economy` (clicks and purchases) is, so that the state keeps its
methods. The rules they follow, and our choices where the reference's engine has undo
machinery, are listed in the docstring of :mod:`~stratagem.envs.prismata.rules`.
"""

from __future__ import annotations

from stratagem.envs.prismata.data import (
    ACTION,
    ATTACK,
    BLUE,
    BREACH,
    BUILD,
    C_FRAGILE,
    C_FRESH_STATUS,
    C_FRONT,
    C_HP_CAP,
    C_HP_GAIN,
    C_START,
    C_TARGET,
    C_TECH,
    CHILL,
    DEFENSE,
    DELAY,
    ENERGY,
    HP,
    INERT,
    LIFE,
    RED,
    STATUS,
    K,
    StateFields,
    _can_block,
)

__all__ = ["PhaseRules"]


class PhaseRules(StateFields):
    """Targets, blocks, breaches and the turn's phase changes (a mixin of ``PrismataState``)."""

    __slots__ = ()

    def _targets_for(self, s: int, p: int | None = None) -> list[int]:
        """Enemy slots that unit ``s`` of ``p`` (default: the mover) may snipe or chill."""
        if p is None:
            p = self.current_player
        snipe, _amount, hp_at_most, tech = C_TARGET[self.u[p][s * K]]
        e = 1 - p
        ue = self.u[e]
        out = []
        for t in self.live[e]:
            b = t * K
            if ue[b + BUILD]:
                continue
            if snipe:
                if hp_at_most >= 0 and ue[b + HP] > hp_at_most:
                    continue
                if tech and not C_TECH[ue[b]]:
                    continue
                out.append(t)
            elif _can_block(ue, b) and ue[b + CHILL] < ue[b + HP]:
                out.append(t)
        return out

    def _can_frontline(self, p: int, s: int) -> bool:
        attack = self.res[6 * p + ATTACK]
        ue = self.u[1 - p]
        if attack <= 0 or not 0 <= s < len(ue) // K:
            return False
        b = s * K
        t = ue[b]
        return (
            t >= 0 and C_FRONT[t] and ue[b + BUILD] == 0 and (C_FRAGILE[t] or attack >= ue[b + HP])
        )

    def _breach_targets(self) -> list[int]:
        p = self.current_player
        attack = self.res[6 * p + ATTACK]
        e = 1 - p
        ue = self.u[e]
        live = self.live[e]
        if attack <= 0 or not live:
            return []
        # overkill: every enemy unit is under construction
        if all(ue[s * K + BUILD] > 0 for s in live):
            return [s for s in live if C_FRAGILE[ue[s * K]] or attack >= ue[s * K + HP]]
        out = []
        frozen_blocked = []
        for s in live:
            b = s * K
            if ue[b + BUILD]:
                continue
            if not C_FRAGILE[ue[b]] and attack < ue[b + HP]:
                continue
            if ue[b + CHILL] >= ue[b + HP] and not self.breach_frozen:
                frozen_blocked.append(s)
                continue
            out.append(s)
        if not out:
            # The reference's player would have to undo a chill here; frozen units become
            # breachable instead (see the docstring of ``rules``).
            return frozen_blocked
        return out

    def _block(self, p: int, s: int) -> None:
        """Unit ``s`` of ``p`` absorbs the enemy's attack (blocking or a frontline attack)."""
        e = 1 - p
        u = self.u[p]
        b = s * K
        attack = self.res[6 * e + ATTACK]
        hp = u[b + HP]
        damage = attack if attack < hp else hp
        if damage >= hp:
            self._kill(p, s)
        elif C_FRAGILE[u[b]]:
            u[b + HP] = hp - damage
        self.res[6 * e + ATTACK] = attack - damage

    def _breach(self, p: int, s: int) -> None:
        e = 1 - p
        ue = self.u[e]
        b = s * K
        t = ue[b]
        attack = self.res[6 * p + ATTACK]
        hp = ue[b + HP]
        damage = attack if attack < hp else hp
        if damage >= hp:
            self._kill(e, s)
        elif C_FRAGILE[t]:
            ue[b + HP] = hp - damage
        self.res[6 * p + ATTACK] = attack - damage
        if not C_FRONT[t]:
            self.breach_frozen = True
        if not self._breach_targets():
            self._end_turn()

    def end_wipes_out(self) -> bool:
        """Ending the action phase now would kill every enemy blocker and open a breach phase.

        The mover's attack is at least the enemy's total defense. Otherwise ending the action
        phase ends the turn: turn builders that only want the turn's actions ask this to
        record that last action without playing it.
        """
        p = self.current_player
        e = 1 - p
        attack = self.res[6 * p + ATTACK]
        return attack > 0 and bool(self.live[e]) and attack >= self.total_defense(e)

    def _end_action_phase(self) -> None:
        p = self.current_player
        e = 1 - p
        if self.end_wipes_out():
            # wipeout: every enemy blocker dies, then the breach phase
            ue = self.u[e]
            for s in list(self.live[e]):
                if _can_block(ue, s * K):
                    self._block(e, s)
                    self.breach_frozen = True
            self.phase = BREACH
            if self._breach_targets():
                return
        self._end_turn()

    def _end_turn(self) -> None:
        """The reference's end of breach and confirm: count the turn, check the end, hand over."""
        p = self.current_player
        e = 1 - p
        res = self.res
        self.pending = -1
        if self.phase == BREACH:
            res[6 * p + ATTACK] = 0
        self.turn += 1
        if not self.live[0] or not self.live[1]:
            self.winner = 1 if not self.live[0] else 0
            res[6 * p + ATTACK] = 0
            return
        if self.turn >= self.game.turn_limit:
            self.winner = -1
            return
        self.current_player = e
        if res[6 * p + ATTACK] > 0:
            self.phase = DEFENSE
        else:
            self._begin_turn(e)

    def _begin_turn(self, p: int) -> None:
        """The reference's start of turn (Swoosh), then the action phase."""
        res = self.res
        o = 6 * p
        res[o + ENERGY] = res[o + BLUE] = res[o + RED] = res[o + ATTACK] = 0
        self.breach_frozen = False
        self.phase = ACTION
        self.current_player = p
        u = self.u[p]
        snapshot = self.live[p][:]
        scripted = []  # units whose start script runs, in arrival order
        plain = True  # every one of those scripts only gains resources
        for s in snapshot:
            b = s * K
            # the record's first six fields (TYPE, HP, CHILL, BUILD, DELAY, LIFE) in one read
            t, hp, _, build, delay, life = u[b : b + LIFE + 1]
            if build == 0 and delay == 0:
                if life > 0:
                    u[b + LIFE] = life - 1
                    if life == 1:
                        self._kill(p, s)
                        continue
            else:
                if build == 0:
                    delay -= 1
                    u[b + DELAY] = delay
                if delay > 0:
                    u[b + STATUS] = INERT
                if build > 0:
                    build -= 1
                    u[b + BUILD] = build
                if build or delay:
                    continue
            if C_HP_GAIN[t]:
                u[b + HP] = min(hp + C_HP_GAIN[t], C_HP_CAP[t])
            u[b + STATUS] = C_FRESH_STATUS[t]
            u[b + CHILL] = 0
            script = C_START[t]
            if script is not None:
                scripted.append(s)
                if not script.plain:
                    plain = False
        if not scripted:
            return
        if plain:
            # Gains commute with one another and touch no unit: add them in one pass.
            for s in scripted:
                b = s * K
                script = C_START[u[b]]
                for r, c in script.gain_items:
                    res[o + r] += c
                u[b + DELAY] = script.delay
            return
        # Units that died above freed their slots; a unit created below may take one, and must
        # not run its script this turn, hence the second snapshot.
        for s in [s for s in snapshot if u[s * K] >= 0]:
            b = s * K
            t = u[b]
            script = C_START[t]
            if script is not None and u[b + BUILD] == 0 and u[b + DELAY] == 0:
                self._run(p, s, script, 2)
                if u[b] >= 0:
                    u[b + DELAY] = script.delay
