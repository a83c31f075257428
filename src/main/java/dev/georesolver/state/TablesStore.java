package dev.georesolver.state;

import dev.georesolver.state.tables.Tables;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Clock;

/**
 * The durable store, written once over a {@link Tables} backend: the reconcile queue, the
 * corrections outbox, the audit trail, batch jobs, the shadow figures, and (on an embedded backend with the memory
 * cache) the cache's write-behind. Which backend holds them changes nothing here. Use from the state
 * verticle's context.
 */
public final class TablesStore implements StateStore {

  /** The most rows one housekeeping step removes per kind. */
  static final int PRUNE_SLICE = 5_000;

  private final Tables tables;
  private final Clock clock;
  private final QueueStore debts;
  private final OutboxStore outbox;
  private final AuditStore audit;
  private final BatchStore batches;
  private final CacheStore cache;
  private final ShadowStore shadow;

  private TablesStore(Tables tables, Clock clock, CacheStore cache, CacheCorrection correction, AuditKey auditKey) {
    this.tables = tables;
    this.clock = clock;
    this.outbox = new OutboxStore(tables);
    this.debts = new QueueStore(tables, outbox, correction, clock);
    this.audit = new AuditStore(tables, clock, auditKey);
    this.batches = new BatchStore(tables, clock);
    this.cache = cache;
    this.shadow = new ShadowStore(tables);
  }

  /**
   * The store over {@code tables}.
   *
   * @param keepsCache whether the memory store writes behind to it (an embedded backend with the
   *     memory cache): corrections then replace the cached answers in the same transaction
   * @param shared how corrections reach a shared cache (Redis), or null when there is none
   * @param indexTtlS the cached-index entry lifetime, seconds
   */
  public static TablesStore over(Tables tables, Clock clock, boolean keepsCache, CacheCorrection shared, long indexTtlS) {
    return over(tables, clock, keepsCache, shared, indexTtlS, AuditKey.NONE);
  }

  /**
   * The store over {@code tables} whose audit trail signs and checks with {@code auditKey} (the
   * deployment secret's keys; {@link AuditKey#NONE} signs nothing).
   */
  public static TablesStore over(Tables tables, Clock clock, boolean keepsCache, CacheCorrection shared, long indexTtlS,
      AuditKey auditKey) {
    CacheStore cache = keepsCache ? new CacheStore(tables, clock, indexTtlS) : null;
    CacheCorrection correction = cache != null ? cache : shared != null ? shared : CacheCorrection.NONE;
    return new TablesStore(tables, clock, cache, correction, auditKey);
  }

  /** The backend. */
  public Tables tables() {
    return tables;
  }

  @Override
  public String kind() {
    return tables.kind();
  }

  @Override
  public Debts debts() {
    return debts;
  }

  @Override
  public Outbox corrections() {
    return outbox;
  }

  @Override
  public StateStore.Cache cache() {
    return cache == null ? StateStore.Cache.NONE : cache;
  }

  @Override
  public Audit audit() {
    return audit;
  }

  @Override
  public Batches batches() {
    return batches;
  }

  @Override
  public Shadow shadow() {
    return shadow;
  }

  /**
   * One housekeeping step: done items past their keep, answers corrected long ago, outbox entries
   * past their retention. Bounded, so it
   * never holds the store for long.
   *
   * @return the rows removed
   */
  public Future<Integer> housekeeping() {
    return debts.prune(PRUNE_SLICE).compose(a -> outbox.prune(clock.millis(), PRUNE_SLICE).map(b -> a + b))
        .compose(ab -> outbox.trim(clock.millis(), PRUNE_SLICE).map(c -> ab + c));
  }

  /** Brings the cache logs back toward {@code maxEntries} each, a slice at a time; whether more is over. */
  public Future<Boolean> pruneCache(long maxEntries, int slice) {
    return cache == null ? Future.succeededFuture(false) : cache.prune(maxEntries, slice);
  }

  QueueStore queueStore() {
    return debts;
  }

  OutboxStore outboxStore() {
    return outbox;
  }

  BatchStore batchStore() {
    return batches;
  }

  /** The write-behind logs, for the migration even when this store keeps no cache (an earlier layout's logs are kept). */
  CacheStore cacheStore() {
    return cache != null ? cache : new CacheStore(tables, clock, 0);
  }

  /** Every tenant's audit chain, verified (the command line's {@code audit verify}). */
  public AuditStore auditStore() {
    return audit;
  }

  @Override
  public Future<JsonObject> status() {
    return tables.status();
  }

  @Override
  public Future<Void> close() {
    return tables.close();
  }
}
