#!/bin/bash
cd /tmp/st
. ./runlib.sh
run baseline-mcts baseline mcts 100
run mcts-beginner mcts level:beginner 100
run mcts-novice mcts level:novice 100
