package dev.georesolver.state;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditRules;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * What an earlier release's layout of the durable state holds, read page by page in neutral terms
 * (the records of {@code state.rules} and {@code bus}), so that {@link LegacyImport} moves it into
 * the current layout through the modules, whichever backend held it. Implementations:
 * {@code state.sqlite.SqliteLegacy} (the earlier tables of the same file) and
 * {@code state.redis.RedisLegacy} (the earlier keys under the same prefix).
 *
 * <p>Every read is bounded by its {@code limit}: nothing is loaded whole. A page's {@code next} is an
 * opaque cursor for the following read, null after the last page. Reads may return a record twice
 * (a Redis {@code SCAN}); the import is idempotent, so that costs nothing. Use from the state
 * verticle's context.
 */
public interface Legacy {

  /**
   * A page of records and where the next one starts (null: this was the last).
   *
   * @param unreadable records of this page that could not be read (a damaged row or key): left out
   *     of {@code items}, named in a WARN line by the reader, and counted so the import's figures
   *     still add up
   */
  record Page<T>(List<T> items, String next, int unreadable) {
    public Page {
      items = List.copyOf(items);
    }

    public Page(List<T> items, String next) {
      this(items, next, 0);
    }
  }

  /**
   * An outbox entry with the number it keeps: the entry's own number on SQLite; on Redis its stream
   * id {@code <ms>-<n>} as {@link dev.georesolver.state.rules.Cursors#legacy} maps it, so the cursors
   * consumers and webhooks hold go on working.
   *
   * @param correction the correction's JSON, without its cursor
   */
  record OutboxEntry(long seq, JsonObject correction) {}

  /** A named delivery cursor (a webhook's), as an entry number. */
  record DeliveryCursor(String name, String cursor) {}

  /**
   * A batch row as stored: its index, the row as submitted, and its first result (null while it has
   * none).
   */
  record BatchRow(long index, JsonObject row, JsonObject result) {}

  /** A batch slice: its number and its lease (done once every row of it has a result). */
  record Slice(long number, BatchRules.Slice state) {}

  /**
   * An entry of a cache write-behind log, with its number in the log kept (the replay reads the
   * log in that order).
   *
   * @param value the stored answer's bytes ({@code idem}: the stored entry's JSON; {@code index}: the
   *     cached-index entry's JSON)
   */
  record CacheEntry(long seq, String key, long recentMs, long expiresAtMs, long resolvedAtMs, Long basisMs, byte[] value) {}

  /** What the earlier layout is, for the log: {@code SQLite tables of <file>}, {@code Redis keys under <prefix>}. */
  String describe();

  /** Whether the earlier layout is there (anything of it, even empty tables left to drop). */
  Future<Boolean> present();

  /**
   * A digest of what changes in the earlier layout when an earlier release writes to it, or
   * {@code ""} when none can (a locked file): the import compares it before and after, and moves
   * nothing away while an earlier resolver still writes.
   */
  Future<String> fingerprint();

  /**
   * What the earlier layout holds, by kind ({@code queue}, {@code outbox}, {@code cursors},
   * {@code audit}, {@code jobs}, {@code batch_rows}, {@code cache.idem}, {@code cache.index}, and on
   * Redis {@code queue.dead} and {@code queue.delayed}), for the kinds a backend counts exactly and
   * cheaply; the import checks it handled at least as many of each.
   */
  Future<Map<String, Long>> counts();

  /**
   * Reconcile queue items, every state.
   *
   * @param nowMs the time an item's last change is given when the layout did not keep it
   */
  Future<Page<QueueItem>> queue(String after, int limit, long nowMs);

  /** Outbox entries, in their order. */
  Future<Page<OutboxEntry>> outbox(String after, int limit);

  /** The named delivery cursors (a handful: one per webhook), as entry numbers. */
  Future<List<DeliveryCursor>> cursors();

  /** The tenants with an audit chain (one per configured tenant). */
  Future<List<String>> auditTenants();

  /** Where {@code tenant}'s chain starts: its retention anchor, or {@link AuditChain.Anchor#NONE}. */
  Future<AuditChain.Anchor> auditAnchor(String tenant);

  /** {@code tenant}'s chain records in sequence order, with their numbers, hashes, times and ids. */
  Future<Page<AuditRules.Link>> audit(String tenant, String after, int limit);

  /** Batch jobs, every state, with their figures as stored. */
  Future<Page<BatchJob>> jobs(String after, int limit);

  /** A job's rows and their results. */
  Future<Page<BatchRow>> batchRows(BatchJob job, String after, int limit);

  /** The slices of {@code job} numbered {@code from} to {@code from + limit - 1} that it has. */
  Future<List<Slice>> slices(BatchJob job, long from, int limit);

  /** A cache write-behind log ({@code idem} or {@code index}) in its order; none on Redis. */
  Future<Page<CacheEntry>> cache(String kind, String after, int limit);

  /** Removes the earlier layout: all of it, once {@link LegacyImport} moved and checked it. */
  Future<Void> remove();

  /** {@code s} fit for a log line: at most 80 characters, control characters as {@code ?}. */
  static String printable(String s) {
    return printable(s, 80);
  }

  /** {@code s} fit for a log line: at most {@code max} characters, control characters as {@code ?}. */
  static String printable(String s, int max) {
    if (s == null) {
      return "null";
    }
    String cut = s.length() > max ? s.substring(0, max) + "..." : s;
    return cut.replaceAll("[\\p{Cntrl}\\x{2028}\\x{2029}]", "?");
  }
}
