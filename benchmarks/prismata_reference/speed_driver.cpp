// Speed driver for the C++ Prismata reference (davechurchill/PrismataAI), written for stratagem's
// benchmarks/reference_speed.py; linked against the reference's engine and AI libraries by
// build.sh. Single thread, process CPU time (CLOCK_PROCESS_CPUTIME_ID), base set (no random
// cards). Measures, after a warm-up:
//
//   steps      complete games of uniformly random atomic actions (the rule of the reference's
//              Player_Random: undo-ability actions only when nothing else is legal, an END_PHASE
//              after an UNDO_CHILL), timing generateLegalActions + doAction; 200-turn limit
//   copies     GameState copies of mid-game states (every 5th turn of RandomAI games)
//   games      complete RandomAI vs RandomAI games (Game::play, the reference's 200-turn limit)
//
// Usage: speed_driver CARD_LIBRARY AI_CONFIG SECONDS SEED
// Prints one JSON line.

#include "Prismata.h"
#include "PrismataAI.h"
#include "Random.h"

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace Prismata;

namespace
{
double cpuSeconds()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

GameState baseSetStart()
{
    GameState state;
    state.setStartingState(Players::Player_One, 0);
    return state;
}

// One game of uniformly random atomic actions; returns the number of actions done.
long randomActionGame(std::vector<Action> & legal, std::vector<Action> & progress)
{
    GameState state = baseSetStart();
    long steps = 0;
    while (!state.isGameOver() && state.getTurnNumber() < 200)
    {
        legal.clear();
        state.generateLegalActions(legal);
        progress.clear();
        for (const Action & a : legal)
        {
            if (a.getType() != ActionTypes::UNDO_USE_ABILITY)
            {
                progress.push_back(a);
            }
        }
        const std::vector<Action> & pool = progress.empty() ? legal : progress;
        const Action a = pool[Random::Int(pool.size())];
        state.doAction(a);
        ++steps;
        if (a.getType() == ActionTypes::UNDO_CHILL)
        {
            state.doAction(Action(state.getActivePlayer(), ActionTypes::END_PHASE, 0));
            ++steps;
        }
    }
    return steps;
}

// One RandomAI vs RandomAI game; appends every 5th turn's state to `keep` when given.
int botGame(std::vector<GameState> * keep)
{
    Game game(baseSetStart(), AIParameters::Instance().getPlayer(Players::Player_One, "RandomAI"),
              AIParameters::Instance().getPlayer(Players::Player_Two, "RandomAI"));
    if (keep == nullptr)
    {
        game.play();
    }
    else
    {
        while (!game.gameOver())
        {
            if (game.getTurnsPlayed() % 5 == 4)
            {
                keep->push_back(game.getState());
            }
            game.playNextTurn();
        }
    }
    return game.getTurnsPlayed();
}
}  // namespace

int main(int argc, char * argv[])
{
    if (argc < 5)
    {
        std::fprintf(stderr, "usage: speed_driver CARD_LIBRARY AI_CONFIG SECONDS SEED\n");
        return 2;
    }
    const double seconds = std::atof(argv[3]);
    Random::Seed(std::strtoull(argv[4], nullptr, 10));
    Prismata::InitFromCardLibrary(argv[1]);
    AIParameters::Instance().parseFile(argv[2]);

    std::vector<Action> legal, progress;
    // Warm-up (caches, allocator): a fifth of the budget, split over the three loops.
    for (double end = cpuSeconds() + seconds / 5; cpuSeconds() < end;)
    {
        randomActionGame(legal, progress);
        botGame(nullptr);
    }

    // Steps: legal actions + doAction in complete random games.
    long steps = 0, stepGames = 0;
    double t0 = cpuSeconds(), stepCpu = 0;
    while ((stepCpu = cpuSeconds() - t0) < seconds)
    {
        steps += randomActionGame(legal, progress);
        ++stepGames;
    }

    // Copies of mid-game states.
    std::vector<GameState> states;
    while (states.size() < 200)
    {
        botGame(&states);
    }
    long copies = 0;
    long checksum = 0;
    t0 = cpuSeconds();
    double copyCpu = 0;
    while ((copyCpu = cpuSeconds() - t0) < seconds)
    {
        for (const GameState & s : states)
        {
            GameState c(s);
            checksum += c.getTurnNumber();
        }
        copies += static_cast<long>(states.size());
    }

    // Complete RandomAI vs RandomAI games.
    long games = 0, turns = 0;
    t0 = cpuSeconds();
    double gameCpu = 0;
    while ((gameCpu = cpuSeconds() - t0) < seconds)
    {
        turns += botGame(nullptr);
        ++games;
    }

    std::printf(
        "{\"engine\":\"reference\",\"steps\":%ld,\"step_games\":%ld,\"step_cpu\":%.6f,"
        "\"steps_per_s\":%.1f,\"copies\":%ld,\"copy_states\":%zu,\"copy_cpu\":%.6f,"
        "\"copies_per_s\":%.1f,\"games\":%ld,\"game_cpu\":%.6f,\"ms_per_game\":%.4f,"
        "\"turns_per_game\":%.2f,\"checksum\":%ld}\n",
        steps, stepGames, stepCpu, steps / stepCpu, copies, states.size(), copyCpu,
        copies / copyCpu, games, gameCpu, 1000.0 * gameCpu / games,
        static_cast<double>(turns) / games, checksum);
    return 0;
}
