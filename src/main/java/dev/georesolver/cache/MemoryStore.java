package dev.georesolver.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import java.util.concurrent.TimeUnit;

/**
 * The bounded in-process idempotency store: served answers by key, each with its own TTL (degraded
 * answers are kept for less time), evicted by size when full. Caffeine does the bookkeeping; its
 * maintenance runs on the calling thread, so the store stays on the owning verticle's context.
 */
public final class MemoryStore {

  private final Cache<String, StoredEntry> cache;

  /**
   * @param maxEntries the most answers kept
   * @param longestTtlMs the longest TTL any answer gets; an answer given a shorter one stays in
   *     memory until then but is never served past its own ({@link StoredEntry#ttlMs()}, checked by
   *     {@link StoredEntry#replayableTo}), which saves per-entry expiry bookkeeping on every put
   * @param ticker Caffeine's clock (nanoseconds), injectable for tests
   */
  public MemoryStore(long maxEntries, long longestTtlMs, Ticker ticker) {
    this.cache = Caffeine.newBuilder()
        .maximumSize(maxEntries)
        .expireAfterWrite(longestTtlMs, TimeUnit.MILLISECONDS)
        .executor(Runnable::run)
        .ticker(ticker)
        .build();
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
}
