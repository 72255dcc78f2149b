#!/bin/bash
cd /tmp/st
. ./runlib.sh
run master-baseline level:master baseline
run master-expert level:master level:expert
