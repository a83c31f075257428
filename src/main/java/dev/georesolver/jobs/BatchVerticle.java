package dev.georesolver.jobs;

import dev.georesolver.batch.BatchRow;
import dev.georesolver.batch.RowResult;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.BatchConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.geo.Direction;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Runs batch jobs: one responsibility, scheduling the rows of jobs through the chain as batch
 * traffic. Talks only over the bus — to the state verticle's {@code geocode.state.batches.*} and
 * to {@link Addresses#RESOLVE} / {@link Addresses#REVERSE} with {@link Addresses#PRIORITY_HEADER}
 * {@code batch} and the job's tenant in {@link Addresses#TENANT_HEADER}, so rows are deduplicated,
 * audited, reconciled, bounded by breakers and kept in their tenant's region like any request.
 *
 * <p><b>Submitting</b> ({@link Addresses#BATCH_UPLOAD_OPEN}): uploads arrive as content over the
 * bus, chunk by chunk with backpressure, and become jobs ({@link Intake}); no message names a file,
 * so the ingress and this verticle may run on different nodes.
 *
 * <p><b>Working</b>: the verticle leases slices of rows from open jobs (free slices, and slices whose
 * holder stopped renewing: a killed instance's rows are taken over), sends at most
 * {@code batch.concurrency} rows of one job and {@code batch.max_in_flight} in all, and records each
 * result once. When a tier pushes back ({@link Pushback}) the row waits and is sent again, and the
 * job's {@link Window} halves; it grows back as rows are answered. A row already answered upstream
 * replays from the idempotency store when it is sent again after a restart. Leases are renewed every
 * third of {@code batch.lease_ms}; a lost lease or a cancelled job drops the slice's rows here.
 */
public final class BatchVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(BatchVerticle.class);

  /** How often rows are sent and results written, milliseconds. */
  static final long TICK_MS = 50;
  /** How long to wait before asking for work again when none was found, milliseconds. */
  static final long IDLE_MS = 1000;
  /** A row's longest wait after push back, milliseconds. */
  static final long MAX_BACKOFF_MS = 30_000;
  /** Results written in one message at most. */
  static final int RECORD_MAX = 500;

  private final Manifest manifest;
  private final BatchConfig cfg;
  private final Clock clock;
  private final Function<Vertx, Spool> spool;
  private Intake intake;
  private final String owner = "batch-" + UUID.randomUUID();
  private final Map<String, Slice> slices = new LinkedHashMap<>();
  private final Map<String, Window> windows = new HashMap<>();
  /** Rows of each job sent and not answered yet; a job leaves the map when it has none. */
  private final Map<String, Integer> inFlightByJob = new HashMap<>();
  private final Map<String, List<JsonObject>> unrecorded = new HashMap<>();
  /** Jobs whose results are being written now (one write per job at a time). */
  private final Set<String> recording = new HashSet<>();
  private int inFlight;
  private boolean leasing;
  private long idleUntilMs;

  /** One leased slice: its rows still to send, and those sent but not yet recorded. */
  private static final class Slice {
    final BatchJob job;
    final int number;
    final ArrayDeque<JsonObject> todo = new ArrayDeque<>();
    final Map<Long, Integer> tries = new HashMap<>();
    int waiting;
    int outstanding;
    boolean dropped;

    Slice(BatchJob job, int number) {
      this.job = job;
      this.number = number;
    }

    String key() {
      return job.id() + "#" + number;
    }

    boolean drained() {
      return todo.isEmpty() && waiting == 0 && outstanding == 0;
    }
  }

  public BatchVerticle(Manifest manifest, Clock clock) {
    this(manifest, clock, Spool::files);
  }

  /** With the uploads' content kept by {@code spool} (a test injects write failures there). */
  public BatchVerticle(Manifest manifest, Clock clock, Function<Vertx, Spool> spool) {
    this.manifest = manifest;
    this.cfg = manifest.batch();
    this.clock = clock;
    this.spool = spool;
  }

  @Override
  public Future<?> start() {
    intake = new Intake(vertx, manifest, clock, spool.apply(vertx), () -> idleUntilMs = 0);
    vertx.setPeriodic(TICK_MS, id -> tick());
    vertx.setPeriodic(Math.max(100, cfg.leaseMs() / 3), id -> renewAll());
    return intake.start();
  }

  @Override
  public Future<?> stop() {
    return intake == null ? Future.succeededFuture() : intake.stop();
  }

  // ---- working --------------------------------------------------------------------------------

  private void tick() {
    flushResults();
    send();
    leaseMore();
  }

  private int queued() {
    int n = 0;
    for (Slice s : slices.values()) {
      n += s.todo.size() + s.waiting;
    }
    return n;
  }

  private void leaseMore() {
    long jobs = slices.values().stream().map(s -> s.job.id()).distinct().count();
    // At the job bound, wait until a job held is done before taking a slice of another.
    if (leasing || clock.millis() < idleUntilMs || queued() >= cfg.maxInFlight() || jobs >= cfg.maxJobs()) {
      return;
    }
    leasing = true;
    request(Addresses.STATE_BATCHES_LEASE, new JsonObject().put("owner", owner).put("lease_ms", cfg.leaseMs()))
        .onComplete(ar -> {
          leasing = false;
          if (ar.failed() || ar.result() == null) {
            idleUntilMs = clock.millis() + IDLE_MS;
            return;
          }
          JsonObject l = ar.result();
          Slice s = new Slice(BatchJob.fromJson(l.getJsonObject("job")), l.getInteger("slice"));
          l.getJsonArray("rows").forEach(r -> s.todo.add((JsonObject) r));
          slices.put(s.key(), s);
          windows.computeIfAbsent(s.job.id(), k -> new Window(cfg.concurrency()));
          send();
        });
  }

  private void send() {
    for (Slice s : slices.values()) {
      Window w = windows.get(s.job.id());
      while (!s.todo.isEmpty() && inFlight < cfg.maxInFlight() && inFlightByJob.getOrDefault(s.job.id(), 0) < w.size()) {
        dispatch(s, s.todo.poll());
      }
    }
  }

  private void dispatch(Slice s, JsonObject item) {
    long i = item.getLong("i");
    BatchRow row = StoredRows.row(i, item.getJsonObject("row"));
    inFlight++;
    s.outstanding++;
    inFlightByJob.merge(s.job.id(), 1, Integer::sum);
    JsonObject body = row.request().copy().put("intent", s.job.intent());
    DeliveryOptions o = new DeliveryOptions()
        .setSendTimeout(cfg.budgetMs() + 2000)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(cfg.budgetMs()))
        .addHeader(Addresses.PRIORITY_HEADER, Addresses.PRIORITY_BATCH)
        .addHeader(Addresses.TENANT_HEADER, s.job.tenant());
    String address = row.direction() == Direction.REVERSE ? Addresses.REVERSE : Addresses.RESOLVE;
    vertx.eventBus().<JsonObject>request(address, body, o).onComplete(ar -> {
      inFlight--;
      s.outstanding--;
      inFlightByJob.computeIfPresent(s.job.id(), (k, n) -> n > 1 ? n - 1 : null);
      if (s.dropped) {
        return;
      }
      Window w = windows.get(s.job.id());
      if (ar.succeeded()) {
        JsonObject result = ar.result().body();
        if (Pushback.pushedBack(result)) {
          w.pushedBack();
          later(s, item);
          return;
        }
        w.answered();
        record(s, i, RowResult.fromResult(result));
        return;
      }
      onFailure(s, item, ar.cause());
    });
  }

  private void onFailure(Slice s, JsonObject item, Throwable t) {
    long i = item.getLong("i");
    if (t instanceof ReplyException re) {
      if (re.failureType() == ReplyFailure.NO_HANDLERS) {
        later(s, item);
        return;
      }
      if (re.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
        int code = re.failureCode();
        if (code == FailureCode.BAD_REQUEST.code()) {
          record(s, i, RowResult.invalid(problemText(re.getMessage())));
          return;
        }
        if (code == FailureCode.FORBIDDEN.code() || code == FailureCode.MISCONFIGURED.code()) {
          record(s, i, RowResult.failed(re.getMessage()));
          return;
        }
      }
    }
    int tries = s.tries.merge(i, 1, Integer::sum);
    if (tries > cfg.retries()) {
      record(s, i, RowResult.failed(t instanceof ReplyException re && re.failureType() == ReplyFailure.TIMEOUT
          ? "no answer within the budget" : String.valueOf(t.getMessage())));
      return;
    }
    later(s, item);
  }

  private static String problemText(String message) {
    try {
      JsonObject p = new JsonObject(message);
      JsonArray fields = p.getJsonArray("invalid_params");
      if (fields != null && !fields.isEmpty()) {
        JsonObject f = fields.getJsonObject(0);
        return f.getString("name") + ": " + f.getString("reason");
      }
      return p.getString("detail", message);
    } catch (RuntimeException e) {
      return message;
    }
  }

  /** Sends the row again after a backoff that doubles with each push back it met, capped. */
  private void later(Slice s, JsonObject item) {
    int n = item.getInteger("backoffs", 0);
    item.put("backoffs", n + 1);
    long delay = Math.min(MAX_BACKOFF_MS, cfg.backoffMs() << Math.min(16, n));
    s.waiting++;
    vertx.setTimer(delay, id -> {
      s.waiting--;
      if (!s.dropped) {
        s.todo.addFirst(item);
        send();
      }
    });
  }

  private void record(Slice s, long i, RowResult r) {
    unrecorded.computeIfAbsent(s.job.id(), k -> new ArrayList<>()).add(new JsonObject().put("i", i).put("result", r.toJson()));
    if (unrecorded.get(s.job.id()).size() >= RECORD_MAX) {
      flushResults();
    }
  }

  /** Writes the results held, one message per job at a time; a failed write keeps them for the next tick. */
  private void flushResults() {
    for (String job : new ArrayList<>(unrecorded.keySet())) {
      List<JsonObject> held = unrecorded.get(job);
      if (held.isEmpty() || recording.contains(job)) {
        continue;
      }
      List<JsonObject> batch = new ArrayList<>(held.subList(0, Math.min(RECORD_MAX, held.size())));
      held.subList(0, batch.size()).clear();
      recording.add(job);
      request(Addresses.STATE_BATCHES_RECORD, new JsonObject().put("job", job).put("results", new JsonArray(new ArrayList<>(batch))))
          .onComplete(ar -> {
            recording.remove(job);
            if (ar.failed()) {
              log.warn("batch {}: {} result(s) not written yet ({}); trying again", job, batch.size(), ar.cause().getMessage());
              unrecorded.computeIfAbsent(job, k -> new ArrayList<>()).addAll(0, batch);
              return;
            }
            BatchJob after = ar.result() == null ? null : BatchJob.fromJson(ar.result());
            if (after == null || !after.open()) {
              drop(job);
            }
            finishDrained(job);
          });
    }
  }

  /** Slices of {@code job} with every row answered and written: finished, never leased again. */
  private void finishDrained(String job) {
    if (!unrecorded.getOrDefault(job, List.of()).isEmpty() || recording.contains(job)) {
      return;
    }
    for (Slice s : new ArrayList<>(slices.values())) {
      if (s.job.id().equals(job) && s.drained() && !s.dropped) {
        slices.remove(s.key());
        request(Addresses.STATE_BATCHES_FINISH, new JsonObject().put("owner", owner).put("job", job).put("slice", s.number));
      }
    }
    if (slices.values().stream().noneMatch(s -> s.job.id().equals(job))) {
      windows.remove(job);
      unrecorded.remove(job);
    }
  }

  /**
   * How many jobs this worker keeps anything for (slices, windows, rows in flight, results waiting):
   * the jobs it works on now, never one that ended. Asked on the worker's own context; any thread.
   */
  public Future<Integer> jobsHeld() {
    io.vertx.core.Promise<Integer> p = io.vertx.core.Promise.promise();
    context.runOnContext(v -> p.complete(held()));
    return p.future();
  }

  private int held() {
    Set<String> jobs = new HashSet<>(windows.keySet());
    jobs.addAll(inFlightByJob.keySet());
    jobs.addAll(unrecorded.keySet());
    jobs.addAll(recording);
    slices.values().forEach(s -> jobs.add(s.job.id()));
    return jobs.size();
  }

  /** Drops every slice of a job that ended (cancelled, done elsewhere). */
  private void drop(String job) {
    for (Slice s : new ArrayList<>(slices.values())) {
      if (s.job.id().equals(job)) {
        s.dropped = true;
        s.todo.clear();
        slices.remove(s.key());
      }
    }
  }

  private void renewAll() {
    for (Slice s : new ArrayList<>(slices.values())) {
      request(Addresses.STATE_BATCHES_RENEW, new JsonObject().put("owner", owner).put("job", s.job.id()).put("slice", s.number)
          .put("lease_ms", cfg.leaseMs())).onSuccess(r -> {
            if (r != null && !r.getBoolean("held", false)) {
              log.info("batch {}: slice {} no longer ours (cancelled, or taken over); its rows left here are dropped",
                  s.job.id(), s.number);
              s.dropped = true;
              s.todo.clear();
              slices.remove(s.key());
            }
          });
    }
  }

  /** A state request of the batch worker's own: it acts across tenants. */
  private Future<JsonObject> request(String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions().setSendTimeout(60_000)))
        .map(Message::body);
  }
}
