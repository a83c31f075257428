package dev.georesolver.bus;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A small in-process buffer that hands records to the state verticle as <b>one</b> message every
 * {@code flushMs}, or at once when {@code batchMax} are waiting (debts from a chain instance, the
 * memory store's write-behind, audit records), so the hot path
 * pays a list append and never a bus hop of its own. Adding never blocks and never fails the
 * caller.
 *
 * <p>When the store is slow or down the batch is kept and sent again at the next flush; the buffer
 * holds at most {@code max} records, and what it cannot hold is refused loudly (counted by
 * {@code onRefused}, logged with its key), never dropped silently. Confined to the owning
 * verticle's context: not thread-safe.
 *
 * @param <T> the record type
 */
public final class WriteBuffer<T> {

  private static final Logger log = LoggerFactory.getLogger(WriteBuffer.class);

  private final Vertx vertx;
  private final String name;
  private final String address;
  private final long flushMs;
  private final int max;
  private final Function<List<T>, Object> message;
  private final Function<T, String> keyOf;
  private final Consumer<List<T>> onRefused;
  private final int batchMax;
  private final Counts counts;
  private final List<T> pending = new ArrayList<>();
  private long timer = -1;
  private boolean inFlight;
  private long refusedSinceLog;
  private long failures;
  /** Whether the last write found no store listening at all (it stopped, or never ran). */
  private boolean noStore;

  /**
   * @param name what it buffers, for logs ({@code debts}, {@code cache})
   * @param address where the batch goes (request/reply)
   * @param message the message body for a batch
   * @param keyOf a record's key, for the log line when it is refused
   * @param onRefused told which records were refused
   */
  public WriteBuffer(Vertx vertx, String name, String address, long flushMs, int max, Function<List<T>, Object> message,
      Function<T, String> keyOf, Consumer<List<T>> onRefused) {
    this(vertx, name, address, flushMs, max, Integer.MAX_VALUE, message, keyOf, onRefused, Counts.NONE);
  }

  /**
   * What a buffer tells besides refusals: records the store took, and records kept for a retry after
   * a failed write. Called on the owning context.
   */
  public interface Counts {
    /** {@code n} records were written (the store replied). */
    void written(int n);

    /** {@code n} records could not be written and are kept for the next flush. */
    void retried(int n);

    /** Counts nothing. */
    Counts NONE = new Counts() {
      @Override
      public void written(int n) {
      }

      @Override
      public void retried(int n) {
      }
    };
  }

  /**
   * A buffer that sends at most {@code batchMax} records per message (the rest go in the next one at
   * once) and reports what it wrote and retried to {@code counts}.
   */
  public WriteBuffer(Vertx vertx, String name, String address, long flushMs, int max, int batchMax,
      Function<List<T>, Object> message, Function<T, String> keyOf, Consumer<List<T>> onRefused, Counts counts) {
    this.batchMax = batchMax;
    this.counts = counts;
    this.vertx = vertx;
    this.name = name;
    this.address = address;
    this.flushMs = flushMs;
    this.max = max;
    this.message = message;
    this.keyOf = keyOf;
    this.onRefused = onRefused;
  }

  /** Buffers one record for the next flush (or refuses it, loudly, when the buffer is full). */
  public void add(T record) {
    if (pending.size() >= max) {
      onRefused.accept(List.of(record));
      if (refusedSinceLog++ % 1000 == 0) {
        log.warn("{} buffer full ({} records: the state store is slow or down); refused the record of key {} ({} refused so far)",
            name, max, shortKey(keyOf.apply(record)), refusedSinceLog);
      }
      return;
    }
    pending.add(record);
    if (pending.size() >= batchMax && !inFlight) {
      // a full batch waits for no timer
      flush();
    } else {
      schedule();
    }
  }

  /** Buffers {@code record} when there is room, true; false (and nothing refused or counted) when the buffer is full. */
  public boolean tryAdd(T record) {
    if (pending.size() >= max) {
      return false;
    }
    add(record);
    return true;
  }

  /** Records waiting. */
  public int size() {
    return pending.size();
  }

  /** The most records it holds. */
  public int max() {
    return max;
  }

  /**
   * Hands over everything waiting now, retrying failed writes, for at most {@code withinMs}: the
   * records still waiting when it gave up (none when all were written). It gives up at once when
   * no store listens any more (it stopped first). For a clean stop.
   */
  public Future<List<T>> drain(long withinMs) {
    Promise<List<T>> done = Promise.promise();
    long until = System.nanoTime() + withinMs * 1_000_000;
    flush();
    poll(done, until);
    return done.future();
  }

  private void poll(Promise<List<T>> done, long untilNanos) {
    if (pending.isEmpty() && !inFlight) {
      done.complete(List.of());
    } else if (System.nanoTime() - untilNanos >= 0 || (noStore && !inFlight)) {
      done.complete(List.copyOf(pending));
    } else {
      if (!inFlight) {
        flush();
      }
      vertx.setTimer(20, id -> poll(done, untilNanos));
    }
  }

  private void schedule() {
    if (timer < 0 && !inFlight) {
      timer = vertx.setTimer(flushMs, id -> {
        timer = -1;
        flush();
      });
    }
  }

  private void flush() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    if (pending.isEmpty() || inFlight) {
      return;
    }
    int n = Math.min(batchMax, pending.size());
    List<T> batch = new ArrayList<>(pending.subList(0, n));
    pending.subList(0, n).clear();
    inFlight = true;
    // The resolver's own write, across tenants (the chain's audit and debts, the write-behind).
    vertx.eventBus().request(address, message.apply(batch), Caller.SYSTEM.on(dev.georesolver.bus.Node.of(vertx).to(address).setSendTimeout(10_000))).onComplete(ar -> {
      inFlight = false;
      noStore = ar.failed() && ar.cause() instanceof io.vertx.core.eventbus.ReplyException re
          && re.failureType() == io.vertx.core.eventbus.ReplyFailure.NO_HANDLERS;
      if (ar.failed()) {
        int room = Math.max(0, max - pending.size());
        List<T> kept = batch.size() > room ? batch.subList(0, room) : batch;
        if (kept.size() < batch.size()) {
          onRefused.accept(List.copyOf(batch.subList(kept.size(), batch.size())));
          log.warn("{}: {} record(s) could not be kept for retry (buffer full), first key {}", name, batch.size() - kept.size(),
              shortKey(keyOf.apply(batch.get(kept.size()))));
        }
        pending.addAll(0, kept);
        counts.retried(kept.size());
        if (failures++ % 100 == 0) {
          log.warn("{}: writing {} record(s) to the state store failed ({}); kept for retry, first key {} ({} failed writes)", name,
              batch.size(), ar.cause().getMessage(), shortKey(keyOf.apply(batch.get(0))), failures);
        }
      } else {
        failures = 0;
        counts.written(batch.size());
      }
      if (ar.succeeded() && pending.size() >= batchMax) {
        flush();
      } else if (!pending.isEmpty()) {
        schedule();
      }
    });
  }

  private static String shortKey(String k) {
    return k == null ? "-" : k.length() > 16 ? k.substring(0, 16) : k;
  }
}
