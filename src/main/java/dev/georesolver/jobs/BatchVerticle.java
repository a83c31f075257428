package dev.georesolver.jobs;

import dev.georesolver.batch.BatchInputException;
import dev.georesolver.batch.BatchLimits;
import dev.georesolver.batch.BatchReader;
import dev.georesolver.batch.BatchReaders;
import dev.georesolver.batch.BatchRow;
import dev.georesolver.batch.RowResult;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.BatchConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.web.Problems;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.geo.Direction;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.concurrent.TimeUnit;

/**
 * Runs batch jobs: one responsibility, scheduling the rows of jobs through the chain as batch
 * traffic. Talks only over the bus — to the state verticle's {@code geocode.state.batches.*} and
 * to {@link Addresses#RESOLVE} / {@link Addresses#REVERSE} with {@link Addresses#PRIORITY_HEADER}
 * {@code batch} and the job's tenant in {@link Addresses#TENANT_HEADER}, so rows are deduplicated,
 * audited, reconciled, bounded by breakers and kept in their tenant's region like any request.
 *
 * <p><b>Submitting</b> ({@link Addresses#BATCH_SUBMIT}): the uploaded file is read through once on a
 * worker (a file that is no batch, or over {@code batch.max_rows}, is refused before any job
 * exists), the job is created — or the tenant's job with the same idem key is answered — and the
 * rows are stored in chunks from a second read on a worker, never held whole.
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

  /** Rows per append message while loading a file. */
  static final int CHUNK_ROWS = 500;
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
    this.manifest = manifest;
    this.cfg = manifest.batch();
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    vertx.setPeriodic(TICK_MS, id -> tick());
    vertx.setPeriodic(Math.max(100, cfg.leaseMs() / 3), id -> renewAll());
    return vertx.eventBus().<JsonObject>consumer(Addresses.BATCH_SUBMIT, this::onSubmit).completion();
  }

  // ---- submitting -----------------------------------------------------------------------------

  /** What the first read of a file found. */
  private record Scan(long rows, List<String> columns, String format, char delimiter, boolean bom) {}

  private void onSubmit(Message<JsonObject> m) {
    JsonObject b = m.body();
    Path path = Path.of(b.getString("path"));
    String tenant = b.getString("tenant");
    String header = b.getString("idem_key");
    String idemKey = header != null ? "key:" + IdempotencyKey.sha256Hex(header) : "sha256:" + b.getString("sha256");
    String intent = b.getString("intent") != null ? b.getString("intent") : manifest.defaultIntent();
    if (manifest.intent(intent).isEmpty()) {
      delete(path);
      m.fail(FailureCode.BAD_REQUEST.code(), Problems.problem("invalid-request", "Invalid request", 400,
          "intent must be one of " + String.join(", ", new java.util.TreeSet<>(manifest.intentNames()))).encode());
      return;
    }
    find(tenant, idemKey).compose(existing -> {
      if (existing != null) {
        return Future.succeededFuture(new JsonObject().put("created", false).put("job", existing.toJson()));
      }
      return vertx.executeBlocking(() -> scan(path), false).compose(scan -> create(tenant, idemKey, intent, b, scan)
          .compose(created -> {
            if (created.getBoolean("created")) {
              BatchJob job = BatchJob.fromJson(created.getJsonObject("job"));
              // The job exists: its rows are stored from here on while the client already has its id.
              vertx.executeBlocking(() -> load(path, job), false).onComplete(ar -> {
                delete(path);
                if (ar.failed()) {
                  log.error("batch {}: loading its rows failed, the job is cancelled: {}", job.id(), ar.cause().getMessage());
                  request(Addresses.STATE_BATCHES_CANCEL, new JsonObject().put("job", job.id()));
                } else {
                  idleUntilMs = 0;
                }
              });
              return Future.succeededFuture(created);
            }
            return Future.succeededFuture(created);
          }));
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        if (!ar.result().getBoolean("created")) {
          delete(path);
        }
        m.reply(ar.result());
        return;
      }
      delete(path);
      Throwable t = ar.cause();
      if (t instanceof BatchInputException e) {
        boolean size = e.kind() == BatchInputException.Kind.TOO_MANY_ROWS || e.kind() == BatchInputException.Kind.TOO_LARGE;
        m.fail(FailureCode.BAD_REQUEST.code(), Problems.problem(size ? "batch_too_large" : "not_a_batch",
            size ? "Batch file too large" : "Not a batch file", size ? 413 : 400, e.getMessage()).encode());
      } else {
        m.fail(FailureCode.STORE_UNAVAILABLE.code(), String.valueOf(t.getMessage()));
      }
    });
  }

  private Future<BatchJob> find(String tenant, String idemKey) {
    return request(Addresses.STATE_BATCHES_FIND, new JsonObject().put("tenant", tenant).put("idem_key", idemKey))
        .map(j -> j == null ? null : BatchJob.fromJson(j));
  }

  private Future<JsonObject> create(String tenant, String idemKey, String intent, JsonObject b, Scan scan) {
    JsonObject spec = new JsonObject().put("intent", intent).put("format", scan.format())
        .put("columns", new JsonArray(new ArrayList<>(scan.columns()))).put("delimiter", String.valueOf(scan.delimiter()))
        .put("bom", scan.bom()).put("sha256", b.getString("sha256")).put("slice_rows", cfg.sliceRows())
        .put("name", b.getString("name"));
    BatchJob job = new BatchJob(id(), tenant, idemKey, BatchJob.LOADING, spec, scan.rows(), 0, 0, 0, 0, 0, clock.millis(),
        null, null);
    return request(Addresses.STATE_BATCHES_CREATE, job.toJson());
  }

  private static String id() {
    return "b_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
  }

  private BatchLimits limits() {
    return BatchLimits.defaults().withMaxRows(cfg.maxRows());
  }

  /** The first read, on a worker: every row checked, nothing kept but the counts and columns. */
  private Scan scan(Path path) throws IOException, BatchInputException {
    try (InputStream in = Files.newInputStream(path); BatchReader r = BatchReaders.open(in, limits())) {
      while (r.next() != null) {
        // Only reading through: the reader checks every row and the bounds.
      }
      return new Scan(r.rowsRead(), r.columns(), r.format().name().toLowerCase(java.util.Locale.ROOT), r.delimiter(),
          r.byteOrderMark());
    }
  }

  /** The second read, on a worker: rows stored in chunks, each written before the next is read. */
  private Void load(Path path, BatchJob job) throws Exception {
    try (InputStream in = Files.newInputStream(path); BatchReader r = BatchReaders.open(in, limits())) {
      JsonArray chunk = new JsonArray();
      BatchRow row;
      while ((row = r.next()) != null) {
        JsonObject item = new JsonObject().put("i", row.index()).put("row", StoredRows.of(row));
        if (!row.valid()) {
          item.put("result", RowResult.invalid(row.problem()).toJson());
        }
        chunk.add(item);
        if (chunk.size() >= CHUNK_ROWS) {
          await(request(Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", job.id()).put("rows", chunk)));
          chunk = new JsonArray();
        }
      }
      if (!chunk.isEmpty()) {
        await(request(Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", job.id()).put("rows", chunk)));
      }
      await(request(Addresses.STATE_BATCHES_SEAL, new JsonObject().put("job", job.id()).put("total", r.rowsRead())
          .put("columns", new JsonArray(new ArrayList<>(r.columns())))));
      log.info("batch {}: {} rows stored for tenant {}", job.id(), r.rowsRead(), job.tenant());
      return null;
    }
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      log.warn("cannot delete upload {}: {}", p, e.getMessage());
    }
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
