#!/usr/bin/env python3
# SQLite alone, doing what the memory store's write-behind did: upserts into the idem and
# addr_index tables (the resolver's schema and SQL of then) under random keys — or, with the log
# variants, what it does now: appends to a log — in WAL mode with
# synchronous=NORMAL, one transaction per batch. Prints the CPU and wall time per answer for each
# variant named on the command line. Issue 17's experiments 11 and 18 in docs/benchmarks.md.
#
#   python3 scripts/bench/sqlite-upserts.py base sorted sorted-big sorted-pre200 ...
#
# A variant is a name whose parts switch things on: sorted (each batch in key order), big (6,000
# rows per transaction instead of 600), b1k / b2k (1,000 / 2,000), pre200 (200,000 rows in the
# tables first instead of 50,000), noidx (without the *_recent indexes), norowid (WITHOUT ROWID
# tables), pg8k / pg16k (page size), cache (64 MiB page cache), ckpt (WAL checkpoints every 20,000
# pages), log (one append-only table, no index but its INTEGER PRIMARY KEY, both kinds appended;
# with prune, the oldest rows past the bound deleted after each batch; with ring, a fixed number of
# slots overwritten in turn instead of deleted). The files go to $TMPDIR (default /tmp) and are removed at the end.
import hashlib
import os
import sqlite3
import sys
import time


def run(variant, batches=60, per=600, prefill=50000):
    if 'big' in variant: batches, per = 6, 6000
    if 'b2k' in variant: batches, per = 18, 2000
    if 'b1k' in variant: batches, per = 36, 1000
    if 'pre200' in variant: prefill = 200000
    p=os.path.join(os.environ.get('TMPDIR', '/tmp'), f'georesolver-sq-{variant}.db')
    for s in ('','-wal','-shm'):
        try: os.remove(p+s)
        except: pass
    c=sqlite3.connect(p, isolation_level=None)
    if 'pg8k' in variant: c.execute('PRAGMA page_size=8192')
    if 'pg16k' in variant: c.execute('PRAGMA page_size=16384')
    if 'cache' in variant: c.execute('PRAGMA cache_size=-65536')
    c.execute('PRAGMA journal_mode=WAL')
    c.execute('PRAGMA synchronous=NORMAL')
    if 'ckpt' in variant: c.execute('PRAGMA wal_autocheckpoint=20000')
    wr = 'WITHOUT ROWID' if 'norowid' in variant else ''
    c.execute(f'CREATE TABLE idem (key TEXT PRIMARY KEY, stored_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL, resolved_at_ms INTEGER NOT NULL, entry BLOB NOT NULL) {wr}')
    c.execute(f'CREATE TABLE addr_index (addr_key TEXT PRIMARY KEY, lon REAL, lat REAL, source TEXT, claim TEXT, confidence REAL, label TEXT, precision TEXT, resolved_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL) {wr}')
    if 'noidx' not in variant:
        c.execute('CREATE INDEX idem_recent ON idem(stored_at_ms)'); c.execute('CREATE INDEX addr_recent ON addr_index(resolved_at_ms)')
    entry=os.urandom(650)
    up1='''INSERT INTO idem (key, stored_at_ms, expires_at_ms, resolved_at_ms, entry) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET stored_at_ms = excluded.stored_at_ms, expires_at_ms = excluded.expires_at_ms,
        resolved_at_ms = excluded.resolved_at_ms, entry = excluded.entry WHERE excluded.resolved_at_ms >= idem.resolved_at_ms'''
    up2='''INSERT INTO addr_index (addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(addr_key) DO UPDATE SET lon = excluded.lon, lat = excluded.lat,
      resolved_at_ms = excluded.resolved_at_ms, expires_at_ms = excluded.expires_at_ms WHERE excluded.resolved_at_ms >= addr_index.resolved_at_ms'''
    if 'log' in variant:
        c.execute('CREATE TABLE cache_log (seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, key TEXT NOT NULL, resolved_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL, body BLOB NOT NULL)')
    app='INSERT INTO cache_log (kind, key, resolved_at_ms, expires_at_ms, body) VALUES (?, ?, ?, ?, ?)'
    if 'ring' in variant:
        app='INSERT OR REPLACE INTO cache_log (seq, kind, key, resolved_at_ms, expires_at_ms, body) VALUES (?, ?, ?, ?, ?, ?)'
    n=0
    def logbatch(k):
        nonlocal n
        rows=[]
        for i in range(k):
            n+=1; t=1700000000000+n
            rows.append((0, hashlib.sha256(str(n).encode()).hexdigest(), t, t+3600000, entry))
            rows.append((1, f"{n} bench st london gb {n%97}", t, t+86400000, entry[:150]))
            if 'ring' in variant:
                slots=2*prefill
                rows[-2]=((2*n) % slots,)+rows[-2]; rows[-1]=((2*n+1) % slots,)+rows[-1]
        c.execute('BEGIN'); c.executemany(app, rows)
        if 'prune' in variant: c.execute('DELETE FROM cache_log WHERE seq <= (SELECT max(seq) FROM cache_log) - ?', (2*prefill,))
        c.execute('COMMIT')
    def batch(k):
        nonlocal n
        if 'log' in variant: return logbatch(k)
        rows1=[];rows2=[]
        for i in range(k):
            n+=1; t=1700000000000+n
            rows1.append((hashlib.sha256(str(n).encode()).hexdigest(), t, t+3600000, t, entry))
            rows2.append((f"{n} bench st london gb {n%97}", 1.0, 2.0, 'fast', 'open_data', 0.9, f'{n} Bench St', 'street', t, t+86400000))
        if 'sorted' in variant: rows1.sort(); rows2.sort()
        c.execute('BEGIN'); c.executemany(up1, rows1); c.executemany(up2, rows2); c.execute('COMMIT')
    for _ in range(prefill//5000): batch(5000)
    t0=time.process_time(); w0=time.time()
    for _ in range(batches): batch(per)
    cpu=time.process_time()-t0; wall=time.time()-w0
    print(f"{variant:22s} {cpu/(batches*per)*1e6:6.1f} us cpu/answer  {wall/(batches*per)*1e6:6.1f} us wall  file {os.path.getsize(p)>>20} MB", flush=True)
    c.close()
    for s in ('', '-wal', '-shm'):
        try: os.remove(p + s)
        except OSError: pass

if len(sys.argv) < 2:
    sys.exit('usage: sqlite-upserts.py VARIANT... (see the header)')
for v in sys.argv[1:]: run(v)
