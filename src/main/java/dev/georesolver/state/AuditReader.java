package dev.georesolver.state;

import dev.georesolver.state.rules.AuditGaps;
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
 * the end are found too; and what the database alone could forge is checked against the deployment
 * secret ({@link AuditKey}): each retention anchor's signature and age (older than the retention
 * period), each configured tenant's trail being there (its signed opened marker), and the store's
 * tables being there.
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
   * @param gaps the gap records the chain holds (records that never reached the store, said so in the chain)
   */
  public record Report(String tenant, long records, Anchor anchor, Break broken, AuditGaps.Tally gaps) {
    /** A report of a chain with no gap record. */
    public Report(String tenant, long records, Anchor anchor, Break broken) {
      this(tenant, records, anchor, broken, AuditGaps.Tally.NONE);
    }

    /** Whether the chain holds. */
    public boolean ok() {
      return broken == null;
    }

    /** Whether the chain holds and says no record is missing from it. */
    public boolean complete() {
      return ok() && gaps.records() == 0;
    }
  }

  /**
   * What a verification expects beyond the chains themselves.
   *
   * @param configured the tenants whose trails must exist (the manifest's, or {@code public} without
   *     tenants; empty when auditing is off)
   * @param retentionMs {@code audit.retention_days} in ms: an anchor younger than this is a failure; 0 skips the check
   * @param signed whether anchors and opened markers must carry the deployment secret's signature
   *     (false: the chains alone are walked, as a store without a secret can show)
   */
  public record Expect(List<String> configured, long retentionMs, boolean signed) {
    /** The chains only. */
    public static final Expect CHAINS = new Expect(List.of(), 0, false);

    /** Signed anchors and markers, these tenants' trails, anchors older than {@code retentionMs}. */
    public Expect(List<String> configured, long retentionMs) {
      this(configured, retentionMs, true);
    }

    public Expect {
      configured = List.copyOf(configured);
    }

    /**
     * What {@code m} promises: with auditing on, a trail for each of its tenants (or for
     * {@code public} when it configures none) and anchors older than {@code audit.retention_days}.
     */
    public static Expect of(dev.georesolver.config.Manifest m) {
      return new Expect(trailsOf(m), m.audit().retentionDays() * 86_400_000L);
    }
  }

  /** The tenants whose trails a resolver on {@code m} opens: none with auditing off. */
  public static List<String> trailsOf(dev.georesolver.config.Manifest m) {
    if (!m.audit().enabled()) {
      return List.of();
    }
    return m.tenantsConfigured() ? m.tenants().stream().map(dev.georesolver.config.TenantConfig::id).toList()
        : List.of(dev.georesolver.state.rules.Debts.PUBLIC_TENANT);
  }

  /** Every tenant's chain in {@code store} (or only {@code tenant}'s), verified. */
  public static Future<List<Report>> verify(TablesStore store, String tenant) {
    return verify(store, tenant, Expect.CHAINS);
  }

  /**
   * Every tenant's chain in {@code store} and every configured tenant's (or only {@code tenant}'s),
   * verified, in name order.
   */
  public static Future<List<Report>> verify(TablesStore store, String tenant, Expect expect) {
    AuditStore audit = store.auditStore();
    Future<List<String>> tenants = tenant != null ? Future.succeededFuture(List.of(tenant)) : audit.tenants().map(ts -> {
      java.util.TreeSet<String> all = new java.util.TreeSet<>(ts);
      all.addAll(expect.configured());
      return new ArrayList<>(all);
    });
    return tenants.compose(ts -> {
      Future<List<Report>> all = Future.succeededFuture(new ArrayList<>());
      for (String t : ts) {
        all = all.compose(list -> audit.verify(t, expect).map(r -> {
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
    return new Report(tenant, v.count(), anchor, b, v.gaps());
  }

  /**
   * Verifies the chains in the SQLite file (every tenant's, or only {@code tenant}'s). Blocking: for
   * the command line.
   *
   * @throws StateStoreException when the file is missing, is not a state file, or has a layout
   *     this build does not read
   */
  public static List<Report> sqlite(Path file, String tenant) {
    return sqlite(file, tenant, AuditKey.NONE, Expect.CHAINS);
  }

  /** The tables the audit trail lives in, in a SQLite state file. */
  static final List<String> SQLITE_TABLES = List.of("t_rows", "t_index", "t_logs", "t_log_seq");

  /**
   * Verifies the SQLite file's trail with {@code key} and {@code expect}; a state file without the
   * trail's tables is a failure, reported as the store's. Blocking: for the command line.
   *
   * @throws StateStoreException when the file is missing or cannot be read
   */
  public static List<Report> sqlite(Path file, String tenant, AuditKey key, Expect expect) {
    if (!Files.isRegularFile(file)) {
      throw new StateStoreException("no state file at " + file.toAbsolutePath() + " (state.path)");
    }
    List<String> missing = missingTables(file);
    if (!missing.isEmpty()) {
      return List.of(new Report("(store)", 0, Anchor.NONE, new Break("(store)", 0, "-", "the state file has no table "
          + String.join(", ", missing) + ": the audit trail was removed")));
    }
    return blocking(ThreadingModel.WORKER, vertx -> Future.succeededFuture(SqliteTables.openReadOnly(vertx, file)), tenant, key,
        expect);
  }

  private static List<String> missingTables(Path file) {
    java.util.Set<String> there = SqliteTables.tableNames(file);
    return SQLITE_TABLES.stream().filter(t -> !there.contains(t)).toList();
  }

  /** Verifies the chains in the Redis at {@code url} under {@code prefix}. Blocking: for the command line. */
  public static List<Report> redis(String url, String prefix, String tenant) {
    return redis(url, prefix, tenant, AuditKey.NONE, Expect.CHAINS);
  }

  /** Verifies the trail in the Redis at {@code url} under {@code prefix} with {@code key} and {@code expect}. Blocking. */
  public static List<Report> redis(String url, String prefix, String tenant, AuditKey key, Expect expect) {
    return blocking(ThreadingModel.EVENT_LOOP, vertx -> {
      RedisTables r = new RedisTables(new GuardedRedis(vertx, "audit-verify", url, 5000, new Metrics()), prefix);
      return Future.succeededFuture(r);
    }, tenant, key, expect);
  }

  private static List<Report> blocking(ThreadingModel model, Function<Vertx, Future<Tables>> open, String tenant, AuditKey key,
      Expect expect) {
    return blocking(model, open, key, store -> verify(store, tenant, expect), "the audit trail");
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
    return blocking(model, open, AuditKey.NONE, read, what);
  }

  /** As {@link #blocking(ThreadingModel, Function, Function, String)}, the store's audit records checked with {@code key}. */
  static <T> T blocking(ThreadingModel model, Function<Vertx, Future<Tables>> open, AuditKey key,
      Function<TablesStore, Future<T>> read, String what) {
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
            t.compose(tables -> read.apply(TablesStore.over(tables, Clock.systemUTC(), false, null, 0, key))
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
