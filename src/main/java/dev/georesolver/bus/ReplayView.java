package dev.georesolver.bus;

import java.util.function.Function;

/**
 * A read-only view of this node's in-memory replay store, for the chains: a replay the store can
 * answer is answered in the chain, on its own event loop, without the round trip to the dedupe
 * verticle; everything else (a miss, an entry the view could not read consistently, coalescing and
 * claims) still goes to the dedupe verticle, which owns the store and is its only writer.
 *
 * <p>The dedupe verticle {@linkplain #publish publishes} its store's reader once started and
 * {@linkplain #withdraw withdraws} it at stop; until then every {@link #replay} is a miss. One view
 * per resolver instance (several resolvers in one JVM each have their own). Thread-safe.
 */
public final class ReplayView {

  private volatile Function<String, StoredEntry> reader;

  /** Makes {@code reader} (a key's entry, or null; callable from any thread, never blocking) the view's source. */
  public void publish(Function<String, StoredEntry> reader) {
    this.reader = reader;
  }

  /** Turns the view off: every {@link #replay} is a miss. */
  public void withdraw() {
    this.reader = null;
  }

  /**
   * The replay verdict for {@code c} at {@code nowMs} when the store holds an answer that may serve
   * it (the rule of {@link StoredEntry#replayableTo}, the same the dedupe verticle applies); null
   * otherwise, and the caller claims as before.
   */
  public DedupeVerdict replay(DedupeClaim c, long nowMs) {
    Function<String, StoredEntry> r = reader;
    if (r == null || c.maxAgeMs() <= 0) {
      return null;
    }
    StoredEntry e = r.apply(c.key());
    return e != null && e.replayableTo(c, nowMs) ? e.replay(nowMs) : null;
  }
}
