# run NAME A B [GAMES]: one gomoku match at 200 ms per move, the table in NAME.txt, per-game lines in NAME.games.log
run() {
  name=$1 games=${4:-200}
  echo "\$ gomoku match -a $2 -b $3 -games $games -time 200ms -concurrency 1 -psq psq-$name -quiet" > $name.txt
  echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $name.txt
  nice -n -15 /tmp/gomoku match -a $2 -b $3 -games $games -time 200ms -concurrency 1 -quiet -psq psq-$name >> $name.txt 2> $name.games.log
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $name.txt
}
