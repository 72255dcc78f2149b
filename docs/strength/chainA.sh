#!/bin/bash
cd /tmp/st
. ./runlib.sh
run novice-beginner level:novice level:beginner
run intermediate-novice level:intermediate level:novice
run advanced-intermediate level:advanced level:intermediate
run expert-advanced level:expert level:advanced
