#!/bin/sh
# Strength runs, chain E: MCTS against the lowest levels.
cd /tmp/strength
G=/tmp/strength/gomoku
run() { name=$1; shift; echo "\$ gomoku match $*" > $name.txt; date -u >> $name.txt; $G match "$@" -quiet >> $name.txt 2>> $name.err; date -u >> $name.txt; }
run mcts-beginner -a mcts -b level:beginner -games 100 -time 200ms -concurrency 1 -psq psq-mcts-beginner
run mcts-novice -a mcts -b level:novice -games 100 -time 200ms -concurrency 1 -psq psq-mcts-novice
