package core.game;

import core.Types;
import core.actions.Action;
import core.actions.cityactions.*;
import core.actions.tribeactions.BuildRoad;
import core.actions.tribeactions.EndTurn;
import core.actions.tribeactions.ResearchTech;
import core.actions.unitactions.*;
import core.actors.Actor;
import core.actors.City;
import core.actors.Tribe;
import core.actors.units.Unit;
import utils.Vector2d;

import java.io.*;
import java.lang.reflect.Field;
import java.util.*;

/**
 * Differential-testing harness for stratagem's Tribes port (not part of the reference).
 *
 * Plays one game of the reference's release 1.0 the way its game loop (Game.processTurn) does,
 * without a GUI, and writes one JSON line per decision: the turn, the tribe to move, the sorted
 * legal actions in stratagem's action names, the action played, and the state the comparison
 * checks (stars, scores, technologies, cities, units, board). The action is either drawn
 * uniformly from the reference's action list (the RandomAgent's rule: duplicates included) or
 * read from a replay file of action names.
 *
 * The game's random generator is replaced after the level is set up by java.util.Random(rngSeed),
 * so that the Python side, which emulates java.util.Random with the same seed, draws the same
 * ruins, explorer walks and unit relocations when both engines make the same draws.
 *
 * Usage: StratagemTrace levelSeed TRIBE,TRIBE[,...] rngSeed agentSeed out.jsonl [replay.txt]
 *        [maxDecisions] [CAPITALS|SCORE] [preferred,name,prefixes]
 *
 * With preferred prefixes (e.g. "examine,capture"), the agent draws among the legal actions
 * whose names start with one of them whenever there is one: more ruins and captures per game.
 */
public class StratagemTrace {

    /** The reference fixes applied since the last record was written (see play). */
    private static final ArrayList<String> FIXED = new ArrayList<>();

    /** The ruins' bonus drawn by the last action, if it examined ruins (logged, not compared). */
    private static String examined = null;

    private static final String[] UNIT = {"warrior", "rider", "defender", "swordsman", "archer",
            "catapult", "knight", "mind_bender", "boat", "ship", "battleship", "superunit"};

    private static String unitName(Types.UNIT u) { return UNIT[u.ordinal()]; }

    private static String lower(Enum<?> e) { return e.name().toLowerCase(Locale.ROOT); }

    private static String rc(Vector2d p) { return "(" + p.x + "," + p.y + ")"; }

    private static String name(GameState gs, Action a) {
        if (a instanceof EndTurn) return "end_turn";
        if (a instanceof ResearchTech) return "research_" + lower(((ResearchTech) a).getTech());
        if (a instanceof BuildRoad) return "build_road " + rc(((BuildRoad) a).getPosition());
        if (a instanceof UnitAction) {
            Unit u = (Unit) gs.getActor(((UnitAction) a).getUnitId());
            String at = rc(u.getPosition());
            if (a instanceof Move) return "move " + at + "->" + rc(((Move) a).getDestination());
            if (a instanceof Attack)
                return "attack " + at + "->" + rc(gs.getActor(((Attack) a).getTargetId()).getPosition());
            if (a instanceof Convert)
                return "convert " + at + "->" + rc(gs.getActor(((Convert) a).getTargetId()).getPosition());
            if (a instanceof Capture) return "capture " + at;
            if (a instanceof Examine) return "examine " + at;
            if (a instanceof Disband) return "disband " + at;
            if (a instanceof HealOthers) return "heal " + at;
            if (a instanceof MakeVeteran) return "veteran " + at;
            if (a instanceof Recover) return "recover " + at;
            if (a instanceof Upgrade) return "upgrade " + at;
        }
        if (a instanceof CityAction) {
            CityAction ca = (CityAction) a;
            City c = (City) gs.getActor(ca.getCityId());
            if (a instanceof LevelUp)
                return (((LevelUp) a).getBonus().ordinal() % 2 == 0 ? "level_up_a " : "level_up_b ")
                        + rc(c.getPosition());
            if (a instanceof Spawn) return "spawn_" + unitName(((Spawn) a).getUnitType()) + " " + rc(c.getPosition());
            Vector2d t = ca.getTargetPos();
            if (a instanceof Build) return "build_" + lower(((Build) a).getBuildingType()) + " " + rc(t);
            if (a instanceof ResourceGathering) return "harvest " + rc(t);
            if (a instanceof ClearForest) return "clear_forest " + rc(t);
            if (a instanceof BurnForest) return "burn_forest " + rc(t);
            if (a instanceof GrowForest) return "grow_forest " + rc(t);
            if (a instanceof Destroy) return "destroy " + rc(t);
        }
        return "unknown:" + a;
    }

    private static String q(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }

    /** The state summary both engines print (see benchmarks/tribes_reference/compare.py). */
    private static String state(GameState gs) {
        StringBuilder sb = new StringBuilder();
        Board b = gs.getBoard();
        Tribe[] tribes = gs.getTribes();
        sb.append("\"stars\":[");
        for (int i = 0; i < tribes.length; i++) sb.append(i > 0 ? "," : "").append(tribes[i].getStars());
        sb.append("],\"score\":[");
        for (int i = 0; i < tribes.length; i++) sb.append(i > 0 ? "," : "").append(tribes[i].getScore());
        sb.append("],\"techs\":[");
        for (int i = 0; i < tribes.length; i++) {
            int mask = 0;
            for (Types.TECHNOLOGY t : Types.TECHNOLOGY.values())
                if (tribes[i].getTechTree().isResearched(t)) mask |= 1 << t.ordinal();
            sb.append(i > 0 ? "," : "").append(mask);
        }
        sb.append("],\"cities\":[");
        ArrayList<String> cs = new ArrayList<>();
        ArrayList<String> us = new ArrayList<>();
        for (Tribe t : tribes) {
            for (int cid : t.getCitiesID()) {
                City c = (City) gs.getActor(cid);
                cs.add(q(rc(c.getPosition()) + " t" + c.getTribeId() + " L" + c.getLevel() + " P" + c.getPopulation()
                        + " prod" + c.getProduction() + " b" + c.getBound() + " n" + c.getUnitsID().size()));
                for (int uid : c.getUnitsID()) us.add(unitString(gs, uid));
            }
            for (int uid : t.getExtraUnits()) us.add(unitString(gs, uid) );
        }
        Collections.sort(cs);
        Collections.sort(us);
        sb.append(String.join(",", cs)).append("],\"units\":[").append(String.join(",", us)).append("]");
        int size = b.getSize();
        StringBuilder board = new StringBuilder();
        for (int x = 0; x < size; x++)
            for (int y = 0; y < size; y++) {
                Types.TERRAIN ter = b.getTerrainAt(x, y);
                Types.RESOURCE res = b.getResourceAt(x, y);
                Types.BUILDING bld = b.getBuildingAt(x, y);
                board.append(ter == null ? '?' : ter.getMapChar());
                board.append(res == null ? '_' : res.getMapChar());
                board.append(bld == null ? "__" : String.format("%02d", bld.ordinal()));
                board.append(b.isRoad(x, y) ? 'r' : '_');
            }
        sb.append(",\"board\":").append(q(board.toString()));
        return sb.toString();
    }

    private static String unitString(GameState gs, int uid) {
        Actor a = gs.getActor(uid);
        if (a == null) return q("missing#" + uid);
        Unit u = (Unit) a;
        return q(rc(u.getPosition()) + " " + unitName(u.getType()) + " t" + u.getTribeId() + " hp" + u.getCurrentHP()
                + "/" + u.getMaxHP() + " k" + u.getKills() + (u.isVeteran() ? " vet" : "") + " "
                + lower(u.getStatus()));
    }

    public static void main(String[] args) throws Exception {
        long levelSeed = Long.parseLong(args[0]);
        String[] tn = args[1].split(",");
        Types.TRIBE[] tribes = new Types.TRIBE[tn.length];
        for (int i = 0; i < tn.length; i++) tribes[i] = Types.TRIBE.valueOf(tn[i].toUpperCase(Locale.ROOT));
        long rngSeed = Long.parseLong(args[2]);
        long agentSeed = Long.parseLong(args[3]);
        String out = args[4];
        String replay = args.length > 5 && !args[5].equals("-") ? args[5] : null;
        int maxDecisions = args.length > 6 ? Integer.parseInt(args[6]) : Integer.MAX_VALUE;
        Types.GAME_MODE mode = args.length > 7 ? Types.GAME_MODE.valueOf(args[7]) : Types.GAME_MODE.CAPITALS;
        String[] prefer = args.length > 8 && !args[8].isEmpty() ? args[8].split(",") : new String[0];

        core.Constants.VISUALS = false;
        GameState gs = new GameState(new Random(rngSeed), mode);
        gs.init(levelSeed, tribes);
        Field f = GameState.class.getDeclaredField("rnd");
        f.setAccessible(true);
        f.set(gs, new Random(rngSeed));  // set-up draws aside: both engines start from Random(rngSeed)
        boolean fixes = !"0".equals(System.getenv("STRATAGEM_TRIBES_FIXES"));
        String deviation = fixes ? oneSidedMeeting(gs) : null;

        Iterator<String> script = null;
        if (replay != null) {
            List<String> lines = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new FileReader(replay))) {
                String line;
                while ((line = r.readLine()) != null) if (!line.isEmpty()) lines.add(line);
            }
            script = lines.iterator();
        }
        Random agent = new Random(agentSeed);
        int decisions = 0;
        String stop = "game over";
        try (PrintWriter w = new PrintWriter(new BufferedWriter(new FileWriter(out)))) {
            game:
            while (!gs.gameOver()) {
                Tribe[] ts = gs.getTribes();
                for (int i = 0; i < ts.length; i++) {
                    Tribe tribe = ts[i];
                    if (tribe.getWinner() != Types.RESULT.INCOMPLETE) continue;
                    Object altar = tribe.getMonuments().get(Types.BUILDING.ALTAR_OF_PEACE);
                    gs.initTurn(tribe);
                    if (fixes && altar == Types.BUILDING.MONUMENT_STATUS.BUILT  // fix: unlocked once
                            && tribe.getMonuments().get(Types.BUILDING.ALTAR_OF_PEACE) != altar) {
                        tribe.getMonuments().put(Types.BUILDING.ALTAR_OF_PEACE, Types.BUILDING.MONUMENT_STATUS.BUILT);
                        FIXED.add("altar of peace unlocked once");
                    }
                    gs.computePlayerActions(tribe);
                    while (true) {
                        ArrayList<Action> all = gs.getAllAvailableActions();
                        TreeSet<String> names = new TreeSet<>();
                        for (Action a : all) names.add(name(gs, a));
                        Action chosen;
                        if (script != null && !(names.size() == 1 && names.first().equals("end_turn"))) {
                            if (!script.hasNext()) { stop = "replay exhausted"; break game; }
                            String want = script.next();
                            chosen = null;
                            for (Action a : all) if (name(gs, a).equals(want)) { chosen = a; break; }
                            if (chosen == null) {
                                w.println("{\"tick\":" + gs.getTick() + ",\"active\":" + i + ",\"missing\":" + q(want)
                                        + ",\"legal\":[" + joinq(names) + "]," + state(gs) + "}");
                                stop = "replay action not legal: " + want;
                                break game;
                            }
                        } else if (script != null) {
                            chosen = all.get(0);
                        } else {
                            ArrayList<Action> pool = new ArrayList<>();
                            for (Action a : all) {
                                String nm = name(gs, a);
                                for (String pre : prefer) if (nm.startsWith(pre)) { pool.add(a); break; }
                            }
                            if (pool.isEmpty()) pool = all;
                            chosen = pool.get(agent.nextInt(pool.size()));
                        }
                        String chosenName = name(gs, chosen);
                        w.println("{\"tick\":" + gs.getTick() + ",\"active\":" + i + ",\"n\":" + all.size()
                                + (deviation != null ? ",\"deviation\":" + q(deviation) : "")
                                + (FIXED.isEmpty() ? "" : ",\"fixed\":[" + joinq(FIXED) + "]")
                                + (examined == null ? "" : ",\"examined\":" + q(examined))
                                + ",\"legal\":[" + joinq(names) + "],\"action\":" + q(chosenName) + "," + state(gs) + "}");
                        FIXED.clear();
                        deviation = null;
                        examined = null;
                        if (++decisions >= maxDecisions) { stop = "max decisions"; break game; }
                        if (chosen instanceof EndTurn) break;
                        deviation = play(gs, chosen, fixes);
                        gs.computePlayerActions(tribe);
                        if (gs.gameOver()) break;
                    }
                    gs.endTurn(tribe);
                    if (gs.gameOver()) break game;
                }
                gs.incTick();
            }
            StringBuilder res = new StringBuilder();
            for (Tribe t : gs.getTribes()) res.append(res.length() > 0 ? "," : "").append(q(t.getWinner().name()));
            w.println("{\"end\":" + q(stop) + (deviation != null ? ",\"deviation\":" + q(deviation) : "") + ",\"tick\":" + gs.getTick() + ",\"results\":[" + res + "]," + state(gs) + "}");
        }
    }

    /**
     * Execute an action (GameState.next) with the reference fixes stratagem documents
     * (docs/games/tribes.md, "Changed") that can be applied from outside the engine, and name
     * the documented deviations that cannot, so that the comparison stops there instead of
     * reporting them as differences.
     *
     * @return the documented deviation this action ran into, or null.
     */
    private static String play(GameState gs, Action a, boolean fixes) throws Exception {
        String deviation = null;
        int templePoints = 0;
        Tribe mover = gs.getActiveTribe();
        if (a instanceof Destroy) {
            CityAction ca = (CityAction) a;
            core.actors.Building b = ((City) gs.getActor(ca.getCityId())).getBuilding(ca.getTargetPos().x, ca.getTargetPos().y);
            if (b != null && b.type.isTemple()) {
                java.lang.reflect.Method m = core.actors.Temple.class.getDeclaredMethod("getPoints");
                m.setAccessible(true);
                templePoints = (Integer) m.invoke(b);
            }
        }
        if (a instanceof Capture) {
            Unit u = (Unit) gs.getActor(((Capture) a).getUnitId());
            Board b = gs.getBoard();
            Vector2d p = u.getPosition();
            if (b.getTerrainAt(p.x, p.y) == Types.TERRAIN.CITY) {
                City c = (City) gs.getActor(b.getCityIdAt(p.x, p.y));
                for (core.actors.Building bl : c.getBuildings())
                    if (!bl.type.isTemple() && !bl.type.isMonument()) {
                        deviation = "capture of a city with a " + lower(bl.type) + " (captured buildings' bonuses)";
                        break;
                    }
            }
        }
        boolean waterExaminer = false;
        if (a instanceof Examine) {
            Unit u = (Unit) gs.getActor(((Examine) a).getUnitId());
            waterExaminer = u.getType().isWaterUnit();
        }
        gs.next(a);
        if (a instanceof Examine) examined = lower(((Examine) a).getBonus());
        if (!fixes) return deviation;
        if (templePoints != 0) {  // fix: destroying a temple subtracts its points
            mover.subtractScore(2 * templePoints);
            FIXED.add("destroyed temple subtracts its points");
        }
        if (a instanceof Examine) {
            Types.EXAMINE_BONUS bonus = ((Examine) a).getBonus();
            if (bonus == Types.EXAMINE_BONUS.SUPERUNIT && waterExaminer)
                deviation = "ruins' Battleship pushes a water unit (pushed water unit; Battleship's health)";
            if (bonus == Types.EXAMINE_BONUS.RESEARCH && mover.getTechTree().isEverythingResearched()
                    && mover.getMonuments().get(Types.BUILDING.TOWER_OF_WISDOM) == Types.BUILDING.MONUMENT_STATUS.UNAVAILABLE) {
                mover.allResearched();  // fix: "everything researched" checked after every research
                FIXED.add("tower of wisdom after research in ruins");
            }
        }
        // fix: a unit added to a full city (in no list) becomes an extra unit of its tribe
        Field actors = Board.class.getDeclaredField("gameActors");
        actors.setAccessible(true);
        @SuppressWarnings("unchecked")
        HashMap<Integer, Actor> all = (HashMap<Integer, Actor>) actors.get(gs.getBoard());
        for (Actor act : all.values()) {
            if (!(act instanceof Unit)) continue;
            Unit u = (Unit) act;
            Tribe t = gs.getTribe(u.getTribeId());
            if (t.getExtraUnits().contains(u.getActorId())) continue;
            boolean listed = false;
            for (int cid : t.getCitiesID())
                if (((City) gs.getActor(cid)).getUnitsID().contains(u.getActorId())) { listed = true; break; }
            if (!listed && gs.getBoard().getUnitIDAt(u.getPosition().x, u.getPosition().y) == u.getActorId()) {
                t.addExtraUnit(u);
                FIXED.add("unit added to a full city becomes an extra unit");
            }
        }
        String meeting = oneSidedMeeting(gs);
        return meeting != null ? meeting : deviation;
    }

    /** Pairs already reported by oneSidedMeeting. */
    private static final HashSet<String> ONE_SIDED = new HashSet<>();

    /**
     * With partial observability, the reference's meetings are one-sided (a tribe that sees
     * another's unit meets it, and learns one of its technologies, but the other tribe is not
     * met back; stratagem makes it mutual when the other tribe sees the tile, a documented
     * change). Reports the first time a pair is met one way only; the comparison treats every
     * later divergence of that game as a consequence.
     */
    private static String oneSidedMeeting(GameState gs) {
        if (core.Constants.PLAY_WITH_FULL_OBS) return null;
        Tribe[] ts = gs.getTribes();
        for (Tribe a : ts)
            for (int b : a.getTribesMet()) {
                if (b == a.getTribeId() || ts[b].getTribesMet().contains(a.getTribeId())) continue;
                if (ONE_SIDED.add(a.getTribeId() + ">" + b))
                    return "one-sided meeting (tribe " + a.getTribeId() + " met " + b + "; meetings; taints the game)";
            }
        return null;
    }

    private static String joinq(Collection<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String s : names) sb.append(sb.length() > 0 ? "," : "").append(q(s));
        return sb.toString();
    }
}
