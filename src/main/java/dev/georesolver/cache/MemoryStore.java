package dev.georesolver.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import java.util.concurrent.TimeUnit;

/**
 * The bounded in-process idempotency store: served answers by key, each with its own TTL (degraded
 * answers are kept for less time), evicted when full. Full means either bound: {@code maxEntries}
 * answers or {@code maxBytes} bytes, whichever comes first, so answers of any size cannot take the
 * heap. Caffeine does the bookkeeping with one weight per entry, {@link #weight}: its estimated size,
 * but never less than {@code maxBytes / maxEntries}, so a total weight within {@code maxBytes} also
 * holds at most {@code maxEntries} entries. Its maintenance runs on the calling thread, so the store
 * stays on the owning verticle's context.
 */
public final class MemoryStore {

  /** Bytes counted per entry on top of its JSON and key: the entry, the answer and the cache's node. */
  static final int ENTRY_OVERHEAD_BYTES = 256;

  private final Cache<String, StoredEntry> cache;
  private final long minWeight;

  /**
   * @param maxEntries the most answers kept
   * @param maxBytes the most bytes kept, as estimated by {@link #weight}
   * @param longestTtlMs the longest TTL any answer gets; an answer given a shorter one stays in
   *     memory until then but is never served past its own ({@link StoredEntry#ttlMs()}, checked by
   *     {@link StoredEntry#replayableTo}), which saves per-entry expiry bookkeeping on every put
   * @param ticker Caffeine's clock (nanoseconds), injectable for tests
   */
  public MemoryStore(long maxEntries, long maxBytes, long longestTtlMs, Ticker ticker) {
    this.minWeight = Math.max(1, maxBytes / maxEntries + (maxBytes % maxEntries == 0 ? 0 : 1));
    this.cache = Caffeine.newBuilder()
        .maximumWeight(maxBytes)
        .<String, StoredEntry>weigher((k, v) -> (int) Math.min(Integer.MAX_VALUE, Math.max(minWeight, weight(k, v))))
        .expireAfterWrite(longestTtlMs, TimeUnit.MILLISECONDS)
        .executor(Runnable::run)
        .ticker(ticker)
        .build();
  }

  /** The estimated bytes an entry holds: its stored JSON, its key (UTF-16) and a fixed overhead. */
  static long weight(String key, StoredEntry e) {
    return (long) e.answer().encodedLength() + 2L * key.length() + ENTRY_OVERHEAD_BYTES;
  }

  /** The stored entry, or null. */
  public StoredEntry get(String key) {
    return cache.getIfPresent(key);
  }

  /** Stores an entry, replacing any under the same key. */
  public void put(String key, StoredEntry entry) {
    cache.put(key, entry);
  }

  /** Approximate number of entries. */
  public long size() {
    return cache.estimatedSize();
  }

  /** The weight held, bytes as estimated (each entry at least {@code maxBytes / maxEntries}). */
  long weightedBytes() {
    cache.cleanUp();
    return cache.policy().eviction().orElseThrow().weightedSize().orElse(0L);
  }
}
