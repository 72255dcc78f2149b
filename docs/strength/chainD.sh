#!/bin/sh
# Strength runs, chain D: the top of the ladder at the levels' own budgets (-time 3s is only
# a cap: advanced thinks 500 ms, expert 1 s, master 3 s per move).
cd /tmp/strength
G=/tmp/strength/gomoku
run() { name=$1; shift; echo "\$ gomoku match $*" > $name.txt; date -u >> $name.txt; $G match "$@" -quiet >> $name.txt 2>> $name.err; date -u >> $name.txt; }
run expert-advanced-budget -a level:expert -b level:advanced -games 200 -time 3s -concurrency 1 -psq psq-expert-advanced-budget
