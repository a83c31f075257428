package dev.georesolver.cache;

import dev.georesolver.bus.StoredEntry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.StampedLock;

/**
 * The bounded in-process idempotency store: served answers by key, each with its own TTL (degraded
 * answers are kept for less time), evicted oldest first when full. Full means either bound:
 * {@code maxEntries} answers or {@code maxBytes} bytes, whichever comes first, so answers of any size
 * cannot take the heap.
 *
 * <p><b>Out of the collector's way.</b> Answers are not kept as objects: each is one record of bytes
 * (its key, stored-at, TTL, the few fields the replay rule and the chain read, and the answer's
 * stable JSON) appended to a ring of large byte arrays, found through an open-addressing index of
 * two primitive arrays (key hashes and record positions). The store thus holds no object per answer:
 * a young collection has nothing of it to copy or scan, whatever the number of answers (with G1 the
 * ring's arrays are humongous objects, allocated in the old generation once and reused). A lookup
 * decodes the record into a new {@link StoredEntry} (one copy of the JSON bytes, short-lived).
 *
 * <p><b>Bounds and eviction.</b> The ring holds at most {@code maxBytes} bytes (its arrays,
 * {@value #SEGMENT_BYTES} bytes each or {@code maxBytes} when smaller, are allocated as the ring
 * first fills them); a new record overwrites the oldest ones, which leave the index. Replaced
 * answers leave dead bytes behind until the ring comes round. An answer read while it is among the
 * oldest eighth of the ring while the store is nearly full is copied to the front (a second
 * chance), so a hot replay is not evicted
 * for its age alone; its stored-at is unchanged. A record larger than one array is not kept.
 * Entries past {@code longestTtlMs} (by the ticker) read as absent.
 *
 * <p><b>One writer, any number of readers.</b> {@link #get}, {@link #put} and {@link #size} are
 * the owner's (the dedupe verticle, on its context only): they change the store and take its write
 * lock, uncontended. {@link #peek} may be called from any thread (the chains, on their own event
 * loops): an optimistic read under a {@link StampedLock} that changes nothing and answers null
 * whenever it could not read a consistent record — the owner wrote meanwhile, the record has
 * expired, or it sits where the owner's next read would give it its second chance — so a reader
 * that gets null asks the owner instead.
 */
public final class MemoryStore {

  /**
   * Bytes of each array of the ring ({@code maxBytes} when smaller): 4 MiB less room for the array's
   * header, so that with G1 each array fills whole regions (a 4 MiB + 16 B array would take five 1 MiB
   * regions, wasting a fifth of the heap it holds).
   */
  static final int SEGMENT_BYTES = (4 << 20) - 64;
  /** The most distinct strings (statuses, tier names, manifest revisions) kept once and referred to. */
  static final int MAX_SHARED_STRINGS = 4096;

  // Record layout (big-endian), never spanning two arrays:
  private static final int LENGTH = 0;       // int: the record's bytes, this header included
  private static final int HASH = 4;         // int: the key's hash
  private static final int WRITTEN_NS = 8;   // long: ticker time of the write
  private static final int STORED_AT = 16;   // long: StoredEntry.storedAtMs
  private static final int TTL = 24;         // long: StoredEntry.ttlMs
  private static final int RESOLVED_AT = 32; // long: resolvedAtMs
  private static final int OBSERVED_AT = 40; // long: observedAtMs, NO_LONG when absent
  private static final int FLAGS = 48;       // byte: bit 0 degraded
  private static final int DIRECTION = 49;   // byte: Direction ordinal
  private static final int CLAIM = 50;       // byte: Claim ordinal + 1, 0 when absent
  private static final int KEY_LEN = 52;     // int: UTF-8 bytes of the key
  private static final int STABLE_LEN = 56;  // int: bytes of the stable JSON
  private static final int HEADER = 60;      // then: key, four strings (status, source, revision, reason), JSON
  /** At a record's place: the rest of this array is unused; the next record starts the next array. */
  private static final int PAD = -1;
  private static final long NO_LONG = Long.MIN_VALUE;
  private static final Direction[] DIRECTIONS = Direction.values();
  private static final Claim[] CLAIMS = Claim.values();

  private final long maxEntries;
  private final int segmentBytes;
  private final long capacity;
  private final byte[][] segments;
  private final long longestTtlNs;
  private final Ticker ticker;
  /** Absolute ring positions: the next write, and the oldest record still in the ring. */
  private long head;
  private long tail;
  private long live;
  /** The index: per slot the key's hash and the record's position + 1 (0: empty). */
  private int[] hashes;
  private long[] positions;
  private final int maxSlots;
  /** Strings kept once: code = index; a record refers to them by code. */
  private final List<String> shared = new ArrayList<>();
  private final Map<String, Integer> sharedCodes = new HashMap<>();
  /** Held for writing by the owner's every call; {@link #peek} reads optimistically and validates. */
  private final StampedLock lock = new StampedLock();

  /**
   * @param maxEntries the most answers kept
   * @param maxBytes the most bytes the ring holds (each record: its JSON, its key in UTF-8, about
   *     70 bytes of fields, and the inline strings a record cannot share)
   * @param longestTtlMs the longest TTL any answer gets; an answer given a shorter one stays in
   *     memory until then but is never served past its own ({@link StoredEntry#ttlMs()}, checked by
   *     {@link StoredEntry#replayableTo})
   * @param ticker the expiry clock (nanoseconds), injectable for tests
   */
  public MemoryStore(long maxEntries, long maxBytes, long longestTtlMs, Ticker ticker) {
    if (maxEntries < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("maxEntries and maxBytes must be positive");
    }
    this.maxEntries = maxEntries;
    this.segmentBytes = (int) Math.min(SEGMENT_BYTES, maxBytes);
    long count = Math.max(1, Math.min(maxBytes / segmentBytes, 1 << 20));
    this.capacity = count * segmentBytes;
    this.segments = new byte[(int) count][];
    this.longestTtlNs = Math.min(Math.max(0, longestTtlMs), Long.MAX_VALUE / 1_000_000L) * 1_000_000L;
    this.ticker = ticker;
    long slotsForEntries = Long.highestOneBit(Math.min(maxEntries, 1L << 28)) << 2;
    this.maxSlots = (int) Math.max(16, Math.min(1L << 30, slotsForEntries));
    int initial = Math.min(maxSlots, 1024);
    this.hashes = new int[initial];
    this.positions = new long[initial];
  }

  /** The stored entry, or null. The owner's: may drop an expired entry or move a hot one to the front. */
  public StoredEntry get(String key) {
    long stamp = lock.writeLock();
    try {
      return getLocked(key);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  private StoredEntry getLocked(String key) {
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    int h = hash(key);
    int slot = find(h, k);
    if (slot < 0) {
      return null;
    }
    long pos = positions[slot] - 1;
    byte[] seg = segment(pos);
    int off = offset(pos);
    if (ticker.read() - getLong(seg, off + WRITTEN_NS) > longestTtlNs) {
      deleteSlot(slot);
      live--;
      return null;
    }
    StoredEntry e = decode(seg, off);
    if (secondChanceDue(pos)) {
      putLocked(key, e); // second chance: a hot answer read near the end of the ring moves to its front
    }
    return e;
  }

  /**
   * The stored entry, read from any thread without changing anything; null when there is none, or
   * when this read could not be sure of it (a write by the owner overlapped it, the entry expired,
   * or the owner's read would move it to the front): the caller then asks the owner ({@link #get}).
   * Never throws for a torn read, and never allocates more than one record's bytes.
   */
  public StoredEntry peek(String key) {
    long stamp = lock.tryOptimisticRead();
    if (stamp == 0) {
      return null;
    }
    StoredEntry e;
    try {
      e = peekUnlocked(key);
    } catch (RuntimeException torn) {
      e = null; // the owner moved the record under this read; validate fails below
    }
    return lock.validate(stamp) ? e : null;
  }

  /** {@link #getLocked} without its changes, every length checked before it is used (the bytes may be mid-write). */
  private StoredEntry peekUnlocked(String key) {
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    int h = hash(key);
    long[] pos1 = positions;
    int[] hs = hashes;
    if (hs.length != pos1.length) {
      return null;
    }
    int mask = pos1.length - 1;
    long found = -1;
    for (int i = h & mask, probes = 0; pos1[i] != 0 && probes < pos1.length; i = (i + 1) & mask, probes++) {
      if (hs[i] == h && keyEquals(pos1[i] - 1, k)) {
        found = pos1[i] - 1;
        break;
      }
    }
    if (found < 0) {
      return null;
    }
    byte[] seg = segment(found);
    int off = offset(found);
    int len = getInt(seg, off + LENGTH);
    if (len < HEADER || off + len > seg.length
        || ticker.read() - getLong(seg, off + WRITTEN_NS) > longestTtlNs || secondChanceDue(found)) {
      return null;
    }
    int keyLen = getInt(seg, off + KEY_LEN);
    int stableLen = getInt(seg, off + STABLE_LEN);
    if (keyLen < 0 || stableLen < 0 || (long) HEADER + keyLen + stableLen > len) {
      return null;
    }
    return decode(seg, off);
  }

  /** Whether the record at {@code pos} is read near the end of a nearly full ring: the owner's read moves it to the front. */
  private boolean secondChanceDue(long pos) {
    return nearlyFull() && pos - tail < (head - tail) / 8;
  }

  /** Stores an entry, replacing any under the same key. The owner's. */
  public void put(String key, StoredEntry entry) {
    long stamp = lock.writeLock();
    try {
      putLocked(key, entry);
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  private void putLocked(String key, StoredEntry entry) {
    byte[] k = key.getBytes(StandardCharsets.UTF_8);
    int h = hash(key);
    int old = find(h, k);
    if (old >= 0) {
      deleteSlot(old);
      live--;
    }
    StoredAnswer a = entry.answer();
    int status = code(a.status(), true);
    int source = code(a.resolutionSource(), true);
    int revision = code(a.manifestRevision(), true);
    int reason = code(a.reason(), false);
    long len = (long) HEADER + k.length + a.encodedLength()
        + size(status, a.status()) + size(source, a.resolutionSource())
        + size(revision, a.manifestRevision()) + size(reason, a.reason());
    if (len > segmentBytes) {
      return; // larger than one array: not kept (the shared or durable store may still have it)
    }
    int n = (int) len;
    long start = head;
    int off = offset(start);
    if (off + n > segmentBytes) {
      start += segmentBytes - off; // does not fit in the rest of this array: skip to the next
    }
    while (start + n - tail > capacity) {
      if (tail >= head) { // emptied: start afresh where the record goes
        head = start;
        tail = start;
        break;
      }
      evictOldest();
    }
    while (live >= maxEntries) {
      evictOldest();
    }
    if (start != head && segmentBytes - offset(head) >= 4) {
      putInt(segment(head), offset(head), PAD);
    }
    byte[] seg = segmentForWrite(start);
    off = offset(start);
    putInt(seg, off + LENGTH, n);
    putInt(seg, off + HASH, h);
    putLong(seg, off + WRITTEN_NS, ticker.read());
    putLong(seg, off + STORED_AT, entry.storedAtMs());
    putLong(seg, off + TTL, entry.ttlMs());
    putLong(seg, off + RESOLVED_AT, a.resolvedAtMs());
    putLong(seg, off + OBSERVED_AT, a.observedAtMs() == null ? NO_LONG : a.observedAtMs());
    seg[off + FLAGS] = (byte) (a.degraded() ? 1 : 0);
    seg[off + DIRECTION] = (byte) a.direction().ordinal();
    seg[off + CLAIM] = (byte) (a.claim() == null ? 0 : a.claim().ordinal() + 1);
    putInt(seg, off + KEY_LEN, k.length);
    putInt(seg, off + STABLE_LEN, a.encodedLength());
    int p = off + HEADER;
    System.arraycopy(k, 0, seg, p, k.length);
    p += k.length;
    p = writeString(seg, p, status, a.status());
    p = writeString(seg, p, source, a.resolutionSource());
    p = writeString(seg, p, revision, a.manifestRevision());
    p = writeString(seg, p, reason, a.reason());
    a.copyStable(seg, p);
    head = start + n;
    insert(h, start);
    live++;
  }

  /** Whether the next puts will evict: within an eighth of either bound. */
  private boolean nearlyFull() {
    return live >= maxEntries - maxEntries / 8 || head - tail >= capacity - capacity / 8;
  }

  /** Number of entries (some may have expired and not yet been dropped). */
  public long size() {
    return live;
  }

  /** The bytes the ring holds: live records, replaced ones not yet overwritten, and padding. */
  long weightedBytes() {
    return head - tail;
  }

  // ------------------------------------------------------------------ records

  private StoredEntry decode(byte[] seg, int off) {
    int keyLen = getInt(seg, off + KEY_LEN);
    int stableLen = getInt(seg, off + STABLE_LEN);
    int[] at = {off + HEADER + keyLen};
    String status = readString(seg, at);
    String source = readString(seg, at);
    String revision = readString(seg, at);
    String reason = readString(seg, at);
    byte[] stable = Arrays.copyOfRange(seg, at[0], at[0] + stableLen);
    long observed = getLong(seg, off + OBSERVED_AT);
    int claim = seg[off + CLAIM];
    StoredAnswer a = StoredAnswer.restore(stable, status, DIRECTIONS[seg[off + DIRECTION]], source,
        claim == 0 ? null : CLAIMS[claim - 1], (seg[off + FLAGS] & 1) != 0, reason, revision,
        observed == NO_LONG ? null : observed, getLong(seg, off + RESOLVED_AT));
    return new StoredEntry(a, getLong(seg, off + STORED_AT), getLong(seg, off + TTL));
  }

  /** Drops the oldest record (or the padding at the tail) from the ring, and from the index if it is there. */
  private void evictOldest() {
    if (tail == head) {
      throw new IllegalStateException("memory store: nothing left to evict");
    }
    int off = offset(tail);
    int rest = segmentBytes - off;
    byte[] seg = segment(tail);
    int len = rest < 4 ? PAD : getInt(seg, off + LENGTH);
    if (len == PAD) {
      tail += rest;
      return;
    }
    int slot = slotOf(getInt(seg, off + HASH), tail);
    if (slot >= 0) {
      deleteSlot(slot);
      live--;
    }
    tail += len;
  }

  /**
   * A string's code in a record: its shared code (≥ 0), -1 for null, or -2 - its UTF-8 length
   * written inline (reasons always, and any string once {@value #MAX_SHARED_STRINGS} are shared).
   */
  private int code(String s, boolean share) {
    if (s == null) {
      return -1;
    }
    if (share) {
      Integer c = sharedCodes.get(s);
      if (c != null) {
        return c;
      }
      if (shared.size() < MAX_SHARED_STRINGS) {
        sharedCodes.put(s, shared.size());
        shared.add(s);
        return shared.size() - 1;
      }
    }
    return -2 - s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static int size(int code, String s) {
    return 4 + (code <= -2 ? -2 - code : 0);
  }

  private static int writeString(byte[] seg, int p, int code, String s) {
    putInt(seg, p, code);
    p += 4;
    if (code <= -2) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      System.arraycopy(b, 0, seg, p, b.length);
      p += b.length;
    }
    return p;
  }

  private String readString(byte[] seg, int[] at) {
    int code = getInt(seg, at[0]);
    at[0] += 4;
    if (code == -1) {
      return null;
    }
    if (code >= 0) {
      return shared.get(code);
    }
    int len = -2 - code;
    String s = new String(seg, at[0], len, StandardCharsets.UTF_8);
    at[0] += len;
    return s;
  }

  private byte[] segment(long pos) {
    return segments[(int) ((pos % capacity) / segmentBytes)];
  }

  private byte[] segmentForWrite(long pos) {
    int i = (int) ((pos % capacity) / segmentBytes);
    if (segments[i] == null) {
      segments[i] = new byte[segmentBytes];
    }
    return segments[i];
  }

  private int offset(long pos) {
    return (int) ((pos % capacity) % segmentBytes);
  }

  // ------------------------------------------------------------------ index (linear probing)

  private static int hash(String key) {
    int h = key.hashCode() * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** The slot of {@code key}, or -1. */
  private int find(int h, byte[] key) {
    int mask = positions.length - 1;
    for (int i = h & mask; positions[i] != 0; i = (i + 1) & mask) {
      if (hashes[i] == h && keyEquals(positions[i] - 1, key)) {
        return i;
      }
    }
    return -1;
  }

  /** The slot pointing at the record at {@code pos}, or -1 (it was replaced or dropped). */
  private int slotOf(int h, long pos) {
    int mask = positions.length - 1;
    for (int i = h & mask; positions[i] != 0; i = (i + 1) & mask) {
      if (positions[i] == pos + 1) {
        return i;
      }
    }
    return -1;
  }

  private boolean keyEquals(long pos, byte[] key) {
    byte[] seg = segment(pos);
    int off = offset(pos);
    return getInt(seg, off + KEY_LEN) == key.length
        && Arrays.equals(seg, off + HEADER, off + HEADER + key.length, key, 0, key.length);
  }

  private void insert(int h, long pos) {
    if ((live + 1) * 2 > positions.length && positions.length < maxSlots) {
      grow();
    }
    int mask = positions.length - 1;
    int i = h & mask;
    while (positions[i] != 0) {
      i = (i + 1) & mask;
    }
    hashes[i] = h;
    positions[i] = pos + 1;
  }

  private void grow() {
    int[] oldHashes = hashes;
    long[] oldPositions = positions;
    hashes = new int[oldHashes.length * 2];
    positions = new long[oldPositions.length * 2];
    int mask = positions.length - 1;
    for (int j = 0; j < oldPositions.length; j++) {
      if (oldPositions[j] != 0) {
        int i = oldHashes[j] & mask;
        while (positions[i] != 0) {
          i = (i + 1) & mask;
        }
        hashes[i] = oldHashes[j];
        positions[i] = oldPositions[j];
      }
    }
  }

  /** Empties slot {@code i}, shifting back the entries after it that probed past it. */
  private void deleteSlot(int i) {
    int mask = positions.length - 1;
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      if (positions[j] == 0) {
        break;
      }
      int home = hashes[j] & mask;
      boolean stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) {
        hashes[i] = hashes[j];
        positions[i] = positions[j];
        i = j;
      }
    }
    hashes[i] = 0;
    positions[i] = 0;
  }

  // ------------------------------------------------------------------ bytes

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }

  private static int getInt(byte[] b, int at) {
    return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
  }

  private static void putLong(byte[] b, int at, long v) {
    putInt(b, at, (int) (v >>> 32));
    putInt(b, at + 4, (int) v);
  }

  private static long getLong(byte[] b, int at) {
    return (long) getInt(b, at) << 32 | (getInt(b, at + 4) & 0xffffffffL);
  }
}
