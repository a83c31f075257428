package dev.georesolver.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.ResolveResult;

import java.util.concurrent.TimeUnit;

/**
 * The bounded in-process idempotency store: served answers by key, each with its own TTL (degraded
 * answers are kept for less time), evicted by size when full. Caffeine does the bookkeeping; its
 * maintenance runs on the calling thread, so the store stays on the owning verticle's context.
 */
public final class MemoryStore {

  /**
   * A stored answer.
   *
   * @param result the answer as served
   * @param storedAtMs wall-clock epoch millis when stored
   * @param ttlMs how long it is kept
   */
  public record Stored(ResolveResult result, long storedAtMs, long ttlMs) {}

  private final Cache<String, Stored> cache;

  /**
   * @param maxEntries the most answers kept
   * @param longestTtlMs the longest TTL any answer gets; an answer given a shorter one stays in
   *     memory until then but is never served past its own ({@link Stored#ttlMs()}, checked by
   *     the caller), which saves per-entry expiry bookkeeping on every put
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

  /** The stored answer, or null. */
  public Stored get(String key) {
    return cache.getIfPresent(key);
  }

  /** Stores an answer for {@code ttlMs}. */
  public void put(String key, ResolveResult result, long storedAtMs, long ttlMs) {
    cache.put(key, new Stored(result, storedAtMs, ttlMs));
  }

  /** Approximate number of entries. */
  public long size() {
    return cache.estimatedSize();
  }
}
