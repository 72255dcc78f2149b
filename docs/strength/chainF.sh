#!/bin/sh
# Strength runs, chain F: master vs baseline at 1 s per move.
cd /tmp/strength
G=/tmp/strength/gomoku
run() { name=$1; shift; echo "\$ gomoku match $*" > $name.txt; date -u >> $name.txt; $G match "$@" -quiet >> $name.txt 2>> $name.err; date -u >> $name.txt; }
run master-baseline-1s -a level:master -b baseline -games 200 -time 1s -concurrency 1 -psq psq-master-baseline-1s
