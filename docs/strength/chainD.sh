#!/bin/bash
cd /tmp/st
. ./runlib.sh
run "$@"
