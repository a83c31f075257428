package dev.georesolver.state;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditChain.Anchor;
import dev.georesolver.state.rules.AuditChain.Break;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.state.tables.Tables;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Reads the audit trail straight from a store, outside a running resolver, and walks each tenant's
 * chain ({@link AuditChain.Verifier}): what {@code georesolver audit verify} prints. The SQLite file
 * is opened read-only and without its lock (a resolver may have it open meanwhile). Besides the chain
 * itself, the last number the chain ever took must be where the walk ended, so records removed from
 * the end are found too.
 */
public final class AuditReader {

  /** Records read per page. */
  static final int PAGE = 1000;

  private AuditReader() {}

  /**
   * One tenant's chain, verified.
   *
   * @param tenant whose
   * @param records records read
   * @param anchor where the chain started (retention's anchor, or none)
   * @param broken the first broken record, or null when the chain holds
   */
  public record Report(String tenant, long records, Anchor anchor, Break broken) {
    /** Whether the chain holds. */
    public boolean ok() {
      return broken == null;
    }
  }

  /** Every tenant's chain in {@code store} (or only {@code tenant}'s), verified. */
  public static Future<List<Report>> verify(TablesStore store, String tenant) {
    AuditStore audit = store.auditStore();
    Future<List<String>> tenants = tenant != null ? Future.succeededFuture(List.of(tenant)) : audit.tenants();
    return tenants.compose(ts -> {
      Future<List<Report>> all = Future.succeededFuture(new ArrayList<>());
      for (String t : ts) {
        all = all.compose(list -> audit.verify(t).map(r -> {
          list.add(r);
          return list;
        }));
      }
      return all;
    });
  }

  /** The walk's verdict, with the last number the chain took checked against where the walk ended. */
  static Report report(String tenant, AuditChain.Verifier v, Anchor anchor, long lastSeq) {
    Break b = v.broken();
    if (b == null) {
      Anchor end = v.head();
      if (lastSeq > end.seq()) {
        b = new Break(tenant, end.seq() + 1, "?", "records " + (end.seq() + 1) + (lastSeq > end.seq() + 1 ? "-" + lastSeq : "")
            + " are missing at the end (the chain's last number is " + lastSeq + ")");
      }
    }
    return new Report(tenant, v.count(), anchor, b);
  }

  /**
   * Verifies the chains in the SQLite file (every tenant's, or only {@code tenant}'s). Blocking: for
   * the command line.
   *
   * @throws StateStoreException when the file is missing, is not a state file, or has a layout
   *     this build does not read
   */
  public static List<Report> sqlite(Path file, String tenant) {
    if (!Files.isRegularFile(file)) {
      throw new StateStoreException("no state file at " + file.toAbsolutePath() + " (state.path)");
    }
    return blocking(ThreadingModel.WORKER, vertx -> Future.succeededFuture(SqliteTables.openReadOnly(vertx, file)), tenant);
  }

  /** Verifies the chains in the Redis at {@code url} under {@code prefix}. Blocking: for the command line. */
  public static List<Report> redis(String url, String prefix, String tenant) {
    return blocking(ThreadingModel.EVENT_LOOP, vertx -> {
      RedisTables r = new RedisTables(new GuardedRedis(vertx, "audit-verify", url, 5000, new Metrics()), prefix);
      return Future.succeededFuture(r);
    }, tenant);
  }

  private static List<Report> blocking(ThreadingModel model, Function<Vertx, Future<Tables>> open, String tenant) {
    return blocking(model, open, store -> verify(store, tenant), "the audit trail");
  }

  /**
   * Runs {@code read} over the store {@code open} makes, on a Vert.x of its own, and waits for it:
   * what the command line's readers of a store share. Blocking.
   *
   * @param what what is read, for the failure's message
   * @throws StateStoreException when the store cannot be opened or read
   */
  static <T> T blocking(ThreadingModel model, Function<Vertx, Future<Tables>> open, Function<TablesStore, Future<T>> read,
      String what) {
    Vertx vertx = Vertx.vertx();
    try {
      CompletableFuture<T> out = new CompletableFuture<>();
      vertx.deployVerticle(new VerticleBase() {
        @Override
        public Future<?> start() {
          Context ctx = context;
          ctx.runOnContext(v -> {
            Future<Tables> t;
            try {
              t = open.apply(vertx);
            } catch (RuntimeException e) {
              out.completeExceptionally(e);
              return;
            }
            t.compose(tables -> read.apply(TablesStore.over(tables, Clock.systemUTC(), false, null, 0))
                    .eventually(() -> tables.close()))
                .onSuccess(out::complete).onFailure(out::completeExceptionally);
          });
          return Future.succeededFuture();
        }
      }, new DeploymentOptions().setThreadingModel(model));
      return out.get(10, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof StateStoreException s ? s
          : new StateStoreException("cannot read " + what + ": " + c.getMessage(), c);
    } catch (Exception e) {
      throw new StateStoreException("cannot read " + what + ": " + e.getMessage(), e);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> null).join();
    }
  }
}
