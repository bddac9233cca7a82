package core.game;

import core.Types;
import core.actions.Action;
import core.actions.unitactions.Move;
import players.Agent;
import players.RandomAgent;
import utils.ElapsedCpuTimer;

import java.util.ArrayList;
import java.util.Locale;

/**
 * Branching statistics of the reference's own game loop (Game.run, no GUI) with its RandomAgent
 * (not part of the reference): for every call of an agent, the size of the action list the
 * agent chooses from and how many of those actions are moves. Prints one JSON line per game.
 *
 * Usage: StratagemLoopStats levelSeed TRIBE,TRIBE[,...] gameSeed agentSeed [CAPITALS|SCORE]
 */
public class StratagemLoopStats {

    /** The reference's RandomAgent, counting what it is offered. */
    static final class CountingRandomAgent extends RandomAgent {
        long decisions, nonForced, actions, moves, actionsAll;

        CountingRandomAgent(long seed) { super(seed); }

        @Override
        public Action act(GameState gs, ElapsedCpuTimer ect) {
            ArrayList<Action> all = gs.getAllAvailableActions();
            decisions++;
            actionsAll += all.size();
            if (all.size() > 1) {
                nonForced++;
                actions += all.size();
                for (Action a : all) if (a instanceof Move) moves++;
            }
            return super.act(gs, ect);
        }

        @Override
        public Agent copy() { return null; }
    }

    public static void main(String[] args) throws Exception {
        long levelSeed = Long.parseLong(args[0]);
        String[] tn = args[1].split(",");
        Types.TRIBE[] tribes = new Types.TRIBE[tn.length];
        for (int i = 0; i < tn.length; i++) tribes[i] = Types.TRIBE.valueOf(tn[i].toUpperCase(Locale.ROOT));
        long gameSeed = Long.parseLong(args[2]);
        long agentSeed = Long.parseLong(args[3]);
        Types.GAME_MODE mode = args.length > 4 ? Types.GAME_MODE.valueOf(args[4]) : Types.GAME_MODE.CAPITALS;
        core.Constants.VERBOSE = false;
        ArrayList<Agent> players = new ArrayList<>();
        CountingRandomAgent[] agents = new CountingRandomAgent[tribes.length];
        for (int i = 0; i < tribes.length; i++) {
            agents[i] = new CountingRandomAgent(agentSeed * 31 + i);
            players.add(agents[i]);
        }
        Game game = new Game();
        game.init(players, levelSeed, tribes, gameSeed, mode);
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        game.run(null, null);
        System.setOut(out);
        java.lang.reflect.Field f = Game.class.getDeclaredField("gs");
        f.setAccessible(true);
        int tick = ((GameState) f.get(game)).getTick();
        long d = 0, nf = 0, a = 0, m = 0, aa = 0;
        for (CountingRandomAgent ag : agents) {
            d += ag.decisions; nf += ag.nonForced; a += ag.actions; m += ag.moves; aa += ag.actionsAll;
        }
        System.out.println("{\"decisions\":" + d + ",\"non_forced\":" + nf + ",\"actions\":" + a + ",\"moves\":" + m
                + ",\"actions_all\":" + aa + ",\"tick\":" + tick + "}");
    }
}
