#!/bin/sh
# Strength runs, chain A (long games): master vs baseline, then the top of the ladder.
cd /tmp/strength
G=/tmp/strength/gomoku
run() { name=$1; shift; echo "\$ gomoku match $*" > $name.txt; date -u >> $name.txt; $G match "$@" -quiet >> $name.txt 2>> $name.err; date -u >> $name.txt; }
run master-baseline -a level:master -b baseline -games 200 -time 200ms -concurrency 1 -psq psq-master-baseline
run master-expert -a level:master -b level:expert -games 200 -time 200ms -concurrency 1 -psq psq-master-expert
run expert-advanced -a level:expert -b level:advanced -games 200 -time 200ms -concurrency 1 -psq psq-expert-advanced
