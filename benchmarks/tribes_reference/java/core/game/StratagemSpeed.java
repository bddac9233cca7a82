package core.game;

import core.Types;
import core.actions.Action;
import core.actions.tribeactions.EndTurn;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Random;

/**
 * Speed of the reference's forward model (not part of the reference), for stratagem's
 * benchmarks/reference_speed.py. Plays complete uniformly random games with the reference's own
 * turn structure (initTurn, computePlayerActions, getAllAvailableActions, next, endTurn,
 * incTick, as Game.run without agents' observation copies) and copies mid-game states with
 * GameState.copy(). Times are the process's CPU time (all JVM threads: JIT and GC included)
 * after a warm-up that lasts until the JIT has settled; the thread CPU time of the main thread is printed too.
 *
 * Usage: StratagemSpeed SECONDS SEED TRIBE,TRIBE:LEVELSEED [TRIBE,TRIBE:LEVELSEED ...]
 * Game k plays configuration k modulo their number with game seed SEED + k.
 * Prints one JSON line.
 */
public class StratagemSpeed {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private static double cpu() { return OS.getProcessCpuTime() * 1e-9; }

    private static double threadCpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() * 1e-9;
    }

    private static Types.TRIBE[][] tribes;
    private static long[] levelSeeds;

    private static GameState start(int k, long seed) {
        int c = k % tribes.length;
        GameState gs = new GameState(new Random(seed + k), Types.GAME_MODE.CAPITALS);
        gs.init(levelSeeds[c], tribes[c]);
        return gs;
    }

    /** One random game from start(k); returns the decisions, keeping every 10th state if asked. */
    private static long randomGame(GameState gs, Random agent, ArrayList<GameState> keep) {
        long decisions = 0;
        game:
        while (!gs.gameOver()) {
            for (core.actors.Tribe tribe : gs.getTribes()) {
                if (tribe.getWinner() != Types.RESULT.INCOMPLETE) continue;
                gs.initTurn(tribe);
                gs.computePlayerActions(tribe);
                while (true) {
                    ArrayList<Action> all = gs.getAllAvailableActions();
                    Action chosen = all.get(agent.nextInt(all.size()));
                    decisions++;
                    if (keep != null && decisions % 10 == 0) keep.add(gs.copy());
                    if (chosen instanceof EndTurn) break;
                    gs.next(chosen);
                    gs.computePlayerActions(tribe);
                    if (gs.gameOver()) break;
                }
                gs.endTurn(tribe);
                if (gs.gameOver()) break game;
            }
            gs.incTick();
        }
        return decisions;
    }

    public static void main(String[] args) {
        double seconds = Double.parseDouble(args[0]);
        long seed = Long.parseLong(args[1]);
        int n = args.length - 2;
        tribes = new Types.TRIBE[n][];
        levelSeeds = new long[n];
        for (int i = 0; i < n; i++) {
            String[] parts = args[i + 2].split(":");
            String[] tn = parts[0].split(",");
            tribes[i] = new Types.TRIBE[tn.length];
            for (int j = 0; j < tn.length; j++) tribes[i][j] = Types.TRIBE.valueOf(tn[j].toUpperCase(Locale.ROOT));
            levelSeeds[i] = Long.parseLong(parts[1]);
        }
        core.Constants.VERBOSE = false;
        core.Constants.VISUALS = false;
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        Random agent = new Random(seed);

        // Warm-up until the JIT has settled: windows of at least 1 CPU second of random games,
        // until one in which the JIT compilers worked under 2% of the window (the
        // CompilationMXBean's total compilation time); at least 3 s, at most 30 s.
        java.lang.management.CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        int k = 0;
        double begin = cpu(), warmup;
        while (true) {
            double t = cpu();
            long c = jit.getTotalCompilationTime();
            while (cpu() - t < 1.0) randomGame(start(k++, seed), agent, null);
            double compiling = (jit.getTotalCompilationTime() - c) * 1e-3;
            warmup = cpu() - begin;
            if ((warmup >= 3.0 && compiling < 0.02 * (cpu() - t)) || warmup >= 30.0) break;
        }

        // Steps and games: complete random games (legal actions + next), in batches of ten whose
        // initial states (level generation) are made before the clock starts.
        long decisions = 0, games = 0;
        double used = 0, threadUsed = 0;
        while (used < seconds) {
            GameState[] batch = new GameState[10];
            for (int i = 0; i < batch.length; i++) batch[i] = start(k++, seed);
            double t = cpu(), tt = threadCpu();
            for (GameState gs : batch) decisions += randomGame(gs, agent, null);
            used += cpu() - t;
            threadUsed += threadCpu() - tt;
            games += batch.length;
        }

        // Copies of mid-game states (every 10th decision of fresh random games).
        ArrayList<GameState> states = new ArrayList<>();
        while (states.size() < 200) randomGame(start(k++, seed), agent, states);
        long copies = 0, checksum = 0;
        double t0 = cpu(), copyCpu = 0;
        while ((copyCpu = cpu() - t0) < seconds) {
            for (GameState s : states) checksum += s.copy().getTick();
            copies += states.size();
        }
        System.setOut(out);
        System.out.println(String.format(Locale.ROOT,
                "{\"engine\":\"reference\",\"warmup_cpu\":%.2f,\"steps\":%d,\"games\":%d,\"game_cpu\":%.6f,\"game_thread_cpu\":%.6f,"
                        + "\"steps_per_s\":%.1f,\"ms_per_game\":%.4f,\"decisions_per_game\":%.2f,"
                        + "\"copies\":%d,\"copy_states\":%d,\"copy_cpu\":%.6f,\"copies_per_s\":%.1f,\"checksum\":%d}",
                warmup, decisions, games, used, threadUsed, decisions / used, 1000.0 * used / games,
                (double) decisions / games, copies, states.size(), copyCpu, copies / copyCpu, checksum));
    }
}
