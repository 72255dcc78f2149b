import re,sys
rows=[]
for name in sys.argv[1:]:
    t=open(f'/tmp/st/{name}.txt').read()
    cmd=t.splitlines()[0][2:]
    m=re.search(r'^(\S+) vs (\S+)',t,re.M); a,b=m.group(1),m.group(2)
    tot=re.search(r'^total\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+%)',t,re.M)
    bl=re.search(r'as black\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+%)',t)
    wh=re.search(r'as white\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+%)',t)
    elo=re.search(r'Elo difference: (\S+) \(95% interval (.+?)\) over \d+ games in (\S+)',t)
    st=re.search(r'^start (\S+) load (\S+)',t,re.M)
    en=re.search(r'^end (\S+) load (\S+)',t,re.M)
    g,w,d,l,sc=tot.groups()
    rows.append(f"| {a} | {b} | {g} | {w}-{d}-{l} | **{sc}** | {elo.group(1)} ({elo.group(2)}) | {bl.group(2)}-{bl.group(3)}-{bl.group(4)} ({bl.group(5)}) | {wh.group(2)}-{wh.group(3)}-{wh.group(4)} ({wh.group(5)}) | {elo.group(3)}, load {st.group(2)}→{en.group(2) if en else '?'} |")
print("| A | B | games | A W-D-L | A score | Elo (95% interval) | A as black | A as white | duration, load avg |")
print("|---|---|---:|---|---:|---|---|---|---|")
print("\n".join(rows))
