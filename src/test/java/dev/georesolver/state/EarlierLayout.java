package dev.georesolver.state;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Writes state the way the earlier release's store left it (its tables or its keys, written raw, as
 * its statements and scripts did), so an import can be tested against what a deployment holds. One
 * implementation per backend: {@code state.sqlite.LegacySqliteFile}, {@code state.redis.LegacyRedisKeys}.
 */
public interface EarlierLayout extends AutoCloseable {

  /** A queue item as the earlier queue left it once in {@code i.state()}; again for one it went on with. */
  void item(QueueItem i);

  /** A correction appended to the earlier outbox at {@code atMs}; the cursor the earlier store handed out for it. */
  String correction(Correction c, long atMs);

  /** A named delivery cursor as a webhook saved it. */
  void cursor(String name, String cursor);

  /** Records appended to a tenant's chain as the earlier store did (numbers, hashes, head). */
  void audit(String tenant, List<AuditEvent> events);

  /** The earlier retention: the anchor moved to record {@code upTo}, the records up to it removed. */
  void retain(String tenant, long upTo);

  /** A batch job with its place in the job list and its idempotency name; again for one it went on with. */
  void job(BatchJob j);

  /** A batch row and its result (null: none yet). */
  void row(String jobId, long i, JsonObject row, JsonObject result);

  /** A slice of an open job. */
  void slice(String jobId, long number, BatchRules.Slice s);

  /** A stored answer written behind (SQLite only). */
  void idem(String key, StoredEntry e, long resolvedAtMs);

  /** A cached-index entry written behind (SQLite only). */
  void index(IndexEntry e, long expiresAtMs);

  @Override
  void close();
}
