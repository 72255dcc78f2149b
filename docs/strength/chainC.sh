#!/bin/sh
# Strength runs, chain C: expert vs advanced (started early so that the ladder completes).
cd /tmp/strength
G=/tmp/strength/gomoku
run() { name=$1; shift; echo "\$ gomoku match $*" > $name.txt; date -u >> $name.txt; $G match "$@" -quiet >> $name.txt 2>> $name.err; date -u >> $name.txt; }
run expert-advanced-c -a level:expert -b level:advanced -games 200 -time 200ms -concurrency 1 -psq psq-expert-advanced-c
