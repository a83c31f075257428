package dev.georesolver.state;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.shadow.ShadowTable;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.sqlite.SqliteTables;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the shadow figures straight from a store, outside a running resolver: what
 * {@code georesolver shadow report} and {@code advise} read when no server is named. The SQLite file
 * is opened read-only and without its lock (a resolver may have it open meanwhile). Blocking: for
 * the command line.
 */
public final class ShadowReader {

  private ShadowReader() {}

  /**
   * The figures in the SQLite file.
   *
   * @throws StateStoreException when the file is missing or cannot be read
   */
  public static ShadowTable sqlite(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new StateStoreException("no state file at " + file.toAbsolutePath() + " (state.path)");
    }
    return AuditReader.blocking(ThreadingModel.WORKER, vertx -> Future.succeededFuture(SqliteTables.openReadOnly(vertx, file)),
        store -> store.shadow().read(), "the shadow figures");
  }

  /** The figures in the Redis at {@code url} under {@code prefix}. */
  public static ShadowTable redis(String url, String prefix) {
    return AuditReader.blocking(ThreadingModel.EVENT_LOOP,
        vertx -> Future.succeededFuture(new RedisTables(new GuardedRedis(vertx, "shadow-report", url, 5000, new Metrics()), prefix)),
        store -> store.shadow().read(), "the shadow figures");
  }
}
