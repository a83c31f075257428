package dev.georesolver.cache;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.WriteBuffer;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The memory store's write-behind to the state store: the buffer the dedupe and index verticles
 * hand their answers to, set up from the reply to {@link Addresses#STATE_CACHE_LOAD} (its
 * {@link Addresses#CACHE_FLUSH_HEADER interval} and {@link Addresses#CACHE_BUFFER_HEADER bound}), at
 * most {@link #BATCH_MAX} records a message. Pure factory; the buffer it makes is confined to the
 * caller's context.
 */
public final class WriteBehind {

  /**
   * The most write-behind records in one message; a buffer holding this many hands them over at
   * once instead of waiting for its interval.
   */
  public static final int BATCH_MAX = 5_000;
  /** The interval used when the reply carries none, milliseconds. */
  static final long DEFAULT_FLUSH_MS = 500;
  /** The bound used when the reply carries none, records. */
  static final int DEFAULT_BUFFER_MAX = 10_000;

  private WriteBehind() {}

  /**
   * The buffer for one kind of entry.
   *
   * @param name what it buffers, for logs ({@code cache}, {@code index})
   * @param reply the headers of the cache load's reply
   * @param message the write message for a batch
   * @param keyOf an entry's key, for the log line when it is refused
   * @param onRefused told how many entries were refused (buffer full)
   */
  public static <T> WriteBuffer<T> buffer(Vertx vertx, String name, MultiMap reply, Function<List<T>, Object> message,
      Function<T, String> keyOf, Consumer<Integer> onRefused) {
    return new WriteBuffer<>(vertx, name, Addresses.STATE_CACHE_WRITE, flushMs(reply), bufferMax(reply), BATCH_MAX, message, keyOf,
        refused -> onRefused.accept(refused.size()), WriteBuffer.Counts.NONE);
  }

  private static long flushMs(MultiMap headers) {
    try {
      return Long.parseLong(headers.get(Addresses.CACHE_FLUSH_HEADER));
    } catch (RuntimeException e) {
      return DEFAULT_FLUSH_MS;
    }
  }

  private static int bufferMax(MultiMap headers) {
    try {
      return Integer.parseInt(headers.get(Addresses.CACHE_BUFFER_HEADER));
    } catch (RuntimeException e) {
      return DEFAULT_BUFFER_MAX;
    }
  }
}
