#!/bin/sh
# Strength runs, chain B: the lower ladder, then MCTS.
cd /tmp/strength
G=/tmp/strength/gomoku
run() { name=$1; shift; echo "\$ gomoku match $*" > $name.txt; date -u >> $name.txt; $G match "$@" -quiet >> $name.txt 2>> $name.err; date -u >> $name.txt; }
run novice-beginner -a level:novice -b level:beginner -games 200 -time 200ms -concurrency 1 -psq psq-novice-beginner
run intermediate-novice -a level:intermediate -b level:novice -games 200 -time 200ms -concurrency 1 -psq psq-intermediate-novice
run advanced-intermediate -a level:advanced -b level:intermediate -games 200 -time 200ms -concurrency 1 -psq psq-advanced-intermediate
run baseline-mcts -a baseline -b mcts -games 100 -time 200ms -concurrency 1 -psq psq-baseline-mcts
run mcts-beginner -a mcts -b level:beginner -games 100 -time 200ms -concurrency 1 -psq psq-mcts-beginner
run mcts-novice -a mcts -b level:novice -games 100 -time 200ms -concurrency 1 -psq psq-mcts-novice
