"""The agents' view of a position: per-unit facts, tallies, and what a click could do.

:class:`StateQueries` is a mixin of :class:`~stratagem.envs.prismata.rules.PrismataState` that
answers the questions the scripted players (``stratagem.baselines.prismata``) ask thousands of
times a turn, so that they never index the state's packed unit list or call its rule internals:
the list's layout (``K`` integers per slot, see :mod:`~stratagem.envs.prismata.data`) can then
change without touching an agent.

The queries are built for hot loops: slots are not validated (a slot is one the caller took from
:meth:`~StateQueries.live_slots` or from an action), the per-field reads are one method call, and
:meth:`~StateQueries.unit_record` reads a whole unit at once for code that needs most of its
fields. :meth:`~stratagem.envs.prismata.rules.PrismataState.unit` is the checked, readable
snapshot for everything else.
"""

from __future__ import annotations

from collections.abc import Sequence

from stratagem.envs.prismata.data import (
    BUILD,
    C_ABILITY,
    C_CHARGES,
    C_TARGET,
    CHARGES,
    CHILL,
    DELAY,
    HP,
    LIFE,
    READY,
    STATUS,
    USED,
    K,
    StateFields,
)

__all__ = ["StateQueries"]


class StateQueries(StateFields):
    """Public per-unit and per-player queries of a position (a mixin of ``PrismataState``)."""

    __slots__ = ()

    # ------------------------------------------------------------------ units
    def live_slots(self, player: int) -> list[int]:
        """Slots of ``player``'s living units, in the order they arrived.

        The state's own list, returned without a copy because agents walk it in every loop:
        treat it as read-only, and copy it (``list(...)``) to walk it while the state plays on,
        since units arriving and dying change it.
        """
        return self.live[player]

    def live_slots_where(self, player: int, flags: Sequence[object]) -> list[int]:
        """Slots of ``player``'s living units whose card has a true entry in ``flags``.

        ``flags`` is a per-card table indexed by library index (``C_FRONT``, an agent's "is a
        chiller" table, ...): the agents' most common loop, picking units by card, in one call
        rather than one query per unit. A new list, in arrival order.
        """
        u = self.u[player]
        return [s for s in self.live[player] if flags[u[s * K]]]

    def num_units(self, player: int) -> int:
        """Number of ``player``'s living units (the player loses at the end of a turn at 0)."""
        return len(self.live[player])

    def unit_card(self, player: int, slot: int) -> int:
        """Library index of the card of ``player``'s unit in ``slot``; -1 when no unit is there.

        A slot whose unit died (or one past the slots ever used) answers -1, so an agent can ask
        after playing on whether a unit it remembers is still alive.
        """
        try:
            return self.u[player][slot * K]
        except IndexError:  # beyond the slots ever used: no cost on the common path
            return -1

    def unit_hp(self, player: int, slot: int) -> int:
        """Current health of ``player``'s unit in ``slot``."""
        return self.u[player][slot * K + HP]

    def unit_chill(self, player: int, slot: int) -> int:
        """Chill on the unit (it is frozen, unable to block, when chill >= health)."""
        return self.u[player][slot * K + CHILL]

    def unit_build(self, player: int, slot: int) -> int:
        """Turns of construction the unit has left (0: built)."""
        return self.u[player][slot * K + BUILD]

    def unit_delay(self, player: int, slot: int) -> int:
        """Turns the unit stays inactive (0: active; clicks such as Drone's set none)."""
        return self.u[player][slot * K + DELAY]

    def unit_lifespan(self, player: int, slot: int) -> int:
        """Owner turns the unit has left to live (0: unlimited; 1: it dies next turn)."""
        return self.u[player][slot * K + LIFE]

    def unit_charges(self, player: int, slot: int) -> int:
        """Ability uses the unit has left (meaningful for cards with charges only)."""
        return self.u[player][slot * K + CHARGES]

    def unit_clicked(self, player: int, slot: int) -> bool:
        """The unit was clicked this turn (the reference's "used" status)."""
        return self.u[player][slot * K + STATUS] == USED

    def unit_active(self, player: int, slot: int) -> bool:
        """The unit is built and not delayed: its start script runs, it may be sacrificed."""
        u = self.u[player]
        b = slot * K
        return u[b + BUILD] == 0 and u[b + DELAY] == 0

    def unit_record(self, player: int, slot: int) -> tuple[int, int, int, int, int, int, int, int]:
        """Every field of the unit at once, for the agents' hottest loops.

        The tuple is ``(card, hp, chill, build, delay, lifespan, charges, status)``, the fields
        of the per-field queries: one call instead of one per field, for code that reads most
        of a unit (the will-score loss). ``status`` is 0 (inert), 1 (ready) or 2 (clicked this
        turn), indices into ``STATUS_NAMES``. Equal records mean interchangeable units: the
        reference's ``isIsomorphic``, by which the blocking solver merges blockers.
        """
        b = slot * K
        return tuple(self.u[player][b : b + K])  # type: ignore[return-value]

    def count_built_within(self, player: int, card: int, turns: int) -> int:
        """Living units of ``card`` whose construction ends within ``turns`` turns (0: built).

        The reference's count of resonating units "ready or about to be": the will score
        credits resonance to units finished by next turn.
        """
        u = self.u[player]
        n = 0
        for s in self.live[player]:
            b = s * K
            if u[b] == card and u[b + BUILD] <= turns:
                n += 1
        return n

    def total_health(self, player: int) -> int:
        """Summed health of all ``player``'s living units: the most attack that can do harm."""
        u = self.u[player]
        return sum(u[s * K + HP] for s in self.live[player])

    # ------------------------------------------------------------------ cards
    def card_in_game(self, card: int) -> bool:
        """``card`` can appear in this game: buyable, or made by a buyable card's script."""
        return self._cs.in_game[card]

    # ------------------------------------------------------------------ clicks and attacks
    def click_targets(self, player: int, slot: int) -> list[int]:
        """Enemy slots that ``player``'s targeting unit in ``slot`` (snipe, chill) may name now.

        The answer for a unit that has not been clicked yet: an agent chooses the target before
        clicking (:meth:`targets` answers once the click waits for its target).
        """
        return self._targets_for(slot, player)  # type: ignore[attr-defined]

    def can_attack_frontline(self, player: int, enemy_slot: int) -> bool:
        """``player``'s attack could now be spent on the enemy frontline unit in ``enemy_slot``."""
        return self._can_frontline(player, enemy_slot)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ positions
    def position_key(self) -> tuple:
        """A hashable key of the position: equal keys mean equal positions of the same game.

        For agents that memoise per position (the enemy's predicted turn) or check that the
        position is the one they planned for. The card set is compared by identity (every state
        of one game shares it), the rest by value.
        """
        u, live, supply = self.u, self.live, self.supply
        return (
            self._cs,
            self.current_player,
            self.phase,
            self.pending,
            self.turn,
            self.breach_frozen,
            self.winner,
            tuple(self.res),
            tuple(u[0]),
            tuple(u[1]),
            tuple(live[0]),
            tuple(live[1]),
            tuple(supply[0]),
            tuple(supply[1]),
        )

    def same_position(self, other: StateQueries) -> bool:
        """``self.position_key() == other.position_key()``, without building the two keys.

        Agents that check, at every decision, that the position is the one they planned for
        ask this: comparing the lists in place costs a fraction of building two keys.
        """
        return (
            self._cs is other._cs
            and self.current_player == other.current_player
            and self.phase == other.phase
            and self.pending == other.pending
            and self.turn == other.turn
            and self.breach_frozen == other.breach_frozen
            and self.winner == other.winner
            and self.res == other.res
            and self.u == other.u
            and self.live == other.live
            and self.supply == other.supply
        )

    def take_back_click(self, player: int, slot: int) -> None:
        """Undo this turn's plain click of ``player``'s unit in ``slot``, in place.

        The rules have no undo action (see :mod:`~stratagem.envs.prismata.rules`), but the
        reference's scripted players undo clicks while they build a turn (an attacker whose
        attack would be wasted, a Drone kept back to block); their turn builder calls this. A
        plain click is one that sacrifices, creates, destroys, targets and gives nothing: taking
        it back refunds its cost, removes its gain, and returns the unit's charge, health and
        readiness. The caller checks that what the click produced is still unspent.

        Raises:
            ValueError: If the unit was not clicked this turn or its click is not plain.
        """
        self._own(player)  # type: ignore[attr-defined]  # copy-on-write: see PrismataState._own
        u = self.u[player]
        b = slot * K
        t = u[b] if b < len(u) else -1
        script = C_ABILITY[t] if t >= 0 else None
        if (
            t < 0
            or u[b + STATUS] != USED
            or script is None
            or C_TARGET[t] is not None
            or script.sac
            or script.create
            or script.destroy
            or script.selfsac
            or script.give
        ):
            raise ValueError(
                f"prismata: unit #{slot} of player {player} has no plain click to undo"
            )
        res = self.res
        o = 6 * player
        if script.cost is not None:
            for r in range(6):
                res[o + r] += script.cost[r]
        if script.gain is not None:
            for r in range(6):
                res[o + r] -= script.gain[r]
        u[b + STATUS] = READY
        if C_CHARGES[t]:
            u[b + CHARGES] += 1
        u[b + HP] += script.hp_cost
        u[b + DELAY] = 0
