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
import dev.georesolver.bus.BatchQuota;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.BatchConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.web.Problems;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The batch verticle's intake: receives uploads as content over the bus
 * ({@link Addresses#BATCH_UPLOAD_OPEN}, then chunks to the upload's own address), keeps each in its
 * {@link Spool} while it arrives, and turns it into a job: a first read checks every row (a file
 * that is no batch, or over {@code batch.max_rows}, is refused before any job exists), the job is
 * created — or the tenant's job with the same idem key is answered — and a second read stores the
 * rows in chunks while the client already has the job's id. The content is deleted once its job is
 * loaded, refused or abandoned.
 *
 * <p>Bounds: at most {@code batch.max_uploads} uploads are received or loaded at once (one more is
 * refused 503 before its body is read); a chunk is at most {@link #CHUNK_BYTES}; the content at most
 * {@code batch.max_upload_mb}; an upload idle for twice {@code batch.upload_window_ms} is dropped.
 * Reading runs on a pool of its own ({@code batch.max_uploads} threads), one chunk of rows per task,
 * and a task never waits for a reply: each store write is a future the next read is composed on.
 * Confined to the verticle's context.
 */
final class Intake {

  private static final Logger log = LoggerFactory.getLogger(Intake.class);

  /** Content bytes in one chunk message at most. */
  static final int CHUNK_BYTES = 256 * 1024;
  /** Rows per append message while loading. */
  static final int CHUNK_ROWS = 500;
  /** What a refused upload is told to wait before trying again, seconds. */
  static final long RETRY_AFTER_S = 5;
  /** Name of the loading pool (shared by the batch verticles of one Vert.x). */
  static final String POOL = "georesolver-batch-load";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Vertx vertx;
  private final Manifest manifest;
  private final BatchConfig cfg;
  private final Clock clock;
  private final Spool spool;
  private final Runnable loaded;
  private final Map<String, Upload> uploads = new HashMap<>();
  private WorkerExecutor pool;

  /** One upload, from open until its content is gone. */
  private static final class Upload {
    final String id;
    final String tenant;
    final String keyHeader;
    final String intent;
    final String name;
    final MessageDigest sha;
    final BatchQuota quota;
    Spool.Sink sink;
    MessageConsumer<Buffer> consumer;
    long bytes;
    long lastMs;
    boolean writing;
    boolean ended;
    boolean gone;

    Upload(String id, String tenant, String keyHeader, String intent, String name, MessageDigest sha, BatchQuota quota) {
      this.quota = quota;
      this.id = id;
      this.tenant = tenant;
      this.keyHeader = keyHeader;
      this.intent = intent;
      this.name = name;
      this.sha = sha;
    }
  }

  /**
   * @param loaded run when a job's rows are all stored (the worker may look for work at once)
   */
  Intake(Vertx vertx, Manifest manifest, Clock clock, Spool spool, Runnable loaded) {
    this.vertx = vertx;
    this.manifest = manifest;
    this.cfg = manifest.batch();
    this.clock = clock;
    this.spool = spool;
    this.loaded = loaded;
  }

  Future<Void> start() {
    pool = vertx.createSharedWorkerExecutor(POOL, cfg.maxUploads());
    return pool.executeBlocking(() -> {
      spool.start();
      return null;
    }, false).compose(v -> vertx.eventBus().<JsonObject>consumer(Addresses.BATCH_UPLOAD_OPEN, this::onOpen).completion())
        .onSuccess(v -> vertx.setPeriodic(Math.max(100, cfg.uploadWindowMs() / 2), id -> dropIdle()));
  }

  Future<Void> stop() {
    if (pool == null) {
      return Future.succeededFuture();
    }
    return pool.executeBlocking(() -> {
      spool.stop();
      return null;
    }, false).<Void>mapEmpty().eventually(() -> pool.close());
  }

  /** Uploads being received or loaded now. */
  int active() {
    return uploads.size();
  }

  // ---- receiving ------------------------------------------------------------------------------

  private void onOpen(Message<JsonObject> m) {
    JsonObject b = m.body();
    if (uploads.size() >= cfg.maxUploads()) {
      m.fail(FailureCode.REFUSED.code(), refusal("batch_busy", "Too many batch uploads", 503,
          cfg.maxUploads() + " uploads are being received or loaded now (batch.max_uploads); try again shortly").encode());
      return;
    }
    String intent = b.getString("intent") != null ? b.getString("intent") : manifest.defaultIntent();
    if (manifest.intent(intent).isEmpty()) {
      m.fail(FailureCode.BAD_REQUEST.code(), Problems.problem("invalid-request", "Invalid request", 400,
          "intent must be one of " + String.join(", ", new TreeSet<>(manifest.intentNames()))).encode());
      return;
    }
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      m.fail(FailureCode.STORE_UNAVAILABLE.code(), String.valueOf(e.getMessage()));
      return;
    }
    byte[] r = new byte[16];
    RANDOM.nextBytes(r);
    // The ingress sends the quota of the revision it serves; a sender that does not gets this process's.
    BatchQuota quota = b.getJsonObject("quota") != null ? BatchQuota.fromJson(b.getJsonObject("quota"))
        : Quotas.of(manifest, b.getString("tenant"));
    Upload u = new Upload(HexFormat.of().formatHex(r), b.getString("tenant"), b.getString("idem_key"), intent,
        b.getString("name"), sha, quota);
    u.lastMs = clock.millis();
    uploads.put(u.id, u);
    spool.open(u.id).compose(sink -> {
      u.sink = sink;
      u.consumer = vertx.eventBus().consumer(Addresses.BATCH_UPLOAD_PREFIX + u.id, msg -> onContent(u, msg));
      return u.consumer.completion();
    }).onSuccess(v -> m.reply(new JsonObject().put("upload", Addresses.BATCH_UPLOAD_PREFIX + u.id).put("chunk_bytes", CHUNK_BYTES)))
        .onFailure(t -> {
          log.error("batch upload: cannot keep content here: {}", String.valueOf(t.getMessage()));
          discard(u);
          m.fail(FailureCode.REFUSED.code(), refusal("insufficient_storage", "Insufficient storage", 507,
              "the upload could not be kept on the batch node; nothing was stored; try again later").encode());
        });
  }

  private void onContent(Upload u, Message<Buffer> msg) {
    u.lastMs = clock.millis();
    String op = msg.headers().get(Addresses.UPLOAD_OP_HEADER);
    if (u.gone || u.ended || u.writing) {
      msg.fail(FailureCode.BAD_REQUEST.code(), Problems.problem("invalid-request", "Invalid request", 400,
          u.writing ? "one chunk at a time: wait for the reply" : "the upload has ended").encode());
      return;
    }
    if (Addresses.UPLOAD_ABORT.equals(op)) {
      discard(u);
      msg.reply(new JsonObject());
      return;
    }
    if (Addresses.UPLOAD_END.equals(op)) {
      end(u, msg);
      return;
    }
    Buffer data = msg.body();
    if (!Addresses.UPLOAD_CHUNK.equals(op) || data == null || data.length() > CHUNK_BYTES) {
      discard(u);
      msg.fail(FailureCode.BAD_REQUEST.code(), Problems.problem("invalid-request", "Invalid request", 400,
          "an upload message is a chunk of at most " + CHUNK_BYTES + " bytes, an end or an abort").encode());
      return;
    }
    if (u.bytes + data.length() > cfg.maxUploadBytes()) {
      discard(u);
      msg.fail(FailureCode.BAD_REQUEST.code(), Problems.problem("batch_too_large", "Batch file too large", 413,
          "a batch file may take at most " + cfg.maxUploadBytes() + " bytes (batch.max_upload_mb)").encode());
      return;
    }
    u.bytes += data.length();
    u.sha.update(data.getBytes());
    u.writing = true;
    u.sink.write(data).onComplete(ar -> {
      u.writing = false;
      if (ar.succeeded()) {
        msg.reply(new JsonObject());
        return;
      }
      // A short write would become a truncated job under the whole content's hash: nothing is kept.
      log.error("batch upload: writing its content failed after {} bytes ({}); the upload is refused and nothing is kept",
          u.bytes, String.valueOf(ar.cause().getMessage()));
      discard(u);
      msg.fail(FailureCode.REFUSED.code(), refusal("insufficient_storage", "Insufficient storage", 507,
          "the upload could not be written on the batch node (" + u.bytes + " bytes in); nothing was stored; "
              + "submit it again later").encode());
    });
  }

  private void end(Upload u, Message<Buffer> msg) {
    u.ended = true;
    u.consumer.unregister();
    u.sink.close()
        .recover(t -> Future.failedFuture(new Unwritten(t)))
        .compose(v -> submit(u))
        .onComplete(ar -> {
          if (ar.succeeded()) {
            msg.reply(ar.result());
            return;
          }
          discard(u);
          Throwable t = ar.cause();
          if (t instanceof BatchInputException e) {
            boolean size = e.kind() == BatchInputException.Kind.TOO_MANY_ROWS || e.kind() == BatchInputException.Kind.TOO_LARGE;
            msg.fail(FailureCode.BAD_REQUEST.code(), Problems.problem(size ? "batch_too_large" : "not_a_batch",
                size ? "Batch file too large" : "Not a batch file", size ? 413 : 400, e.getMessage()).encode());
          } else if (t instanceof Unwritten || t instanceof IOException) {
            log.error("batch upload: its content could not be completed or read back: {}", String.valueOf(t.getMessage()));
            msg.fail(FailureCode.REFUSED.code(), refusal("insufficient_storage", "Insufficient storage", 507,
                "the upload could not be written on the batch node; nothing was stored; submit it again later").encode());
          } else if (t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE
              && re.failureCode() == FailureCode.REFUSED.code()) {
            msg.fail(FailureCode.REFUSED.code(), re.getMessage());
          } else {
            msg.fail(FailureCode.STORE_UNAVAILABLE.code(), String.valueOf(t.getMessage()));
          }
        });
  }

  /** The content could not be completed on disk. No stack trace: an expected outcome. */
  private static final class Unwritten extends RuntimeException {
    Unwritten(Throwable cause) {
      super(String.valueOf(cause.getMessage()), cause, false, false);
    }
  }

  /** Drops uploads that received nothing for twice the progress window (their sender is gone). */
  private void dropIdle() {
    long now = clock.millis();
    for (Upload u : new ArrayList<>(uploads.values())) {
      if (!u.ended && !u.writing && now - u.lastMs > 2 * cfg.uploadWindowMs()) {
        log.warn("batch upload {}: nothing received for {} ms; dropped", u.id.substring(0, 8), now - u.lastMs);
        discard(u);
      }
    }
  }

  /** Forgets an upload and deletes its content (once). */
  private void discard(Upload u) {
    if (u.gone) {
      return;
    }
    u.gone = true;
    uploads.remove(u.id);
    if (u.consumer != null) {
      u.consumer.unregister();
    }
    if (u.sink != null) {
      Spool.Sink sink = u.sink;
      sink.close().otherwiseEmpty().compose(v -> spool.delete(sink.path()));
    }
  }

  /** A problem JSON for {@link FailureCode#REFUSED}: the status to answer and how long to wait. */
  static JsonObject refusal(String type, String title, int status, String detail) {
    return Problems.problem(type, title, status, detail).put("retry_after_s", RETRY_AFTER_S);
  }

  // ---- turning content into a job -------------------------------------------------------------

  /** What the first read of a file found. */
  private record Scan(long rows, List<String> columns, String format, char delimiter, boolean bom) {}

  private Future<JsonObject> submit(Upload u) {
    String sha256 = HexFormat.of().formatHex(u.sha.digest());
    String idemKey = u.keyHeader != null ? "key:" + IdempotencyKey.sha256Hex(u.keyHeader) : "sha256:" + sha256;
    Path path = u.sink.path();
    return find(u.tenant, idemKey).compose(existing -> {
      if (existing != null) {
        discard(u);
        return Future.succeededFuture(new JsonObject().put("created", false).put("job", existing.toJson()));
      }
      return pool.executeBlocking(() -> scan(path), false).compose(scan -> create(u, idemKey, sha256, scan)).map(created -> {
        if (!created.getBoolean("created")) {
          discard(u);
          return created;
        }
        BatchJob job = BatchJob.fromJson(created.getJsonObject("job"));
        // The job exists: its rows are stored from here on while the client already has its id.
        load(path, job).onComplete(ar -> {
          discard(u);
          if (ar.failed()) {
            log.error("batch {}: loading its rows failed, the job is failed: {}", job.id(), String.valueOf(ar.cause().getMessage()));
            request(Addresses.STATE_BATCHES_FAIL, new JsonObject().put("job", job.id()).put("reason",
                "its rows could not all be stored; nothing of it will run: submit the file again for a fresh job"));
          } else {
            loaded.run();
          }
        });
        return created;
      });
    });
  }

  private Future<BatchJob> find(String tenant, String idemKey) {
    return request(Addresses.STATE_BATCHES_FIND, new JsonObject().put("tenant", tenant).put("idem_key", idemKey))
        .map(j -> j == null ? null : BatchJob.fromJson(j));
  }

  private Future<JsonObject> create(Upload u, String idemKey, String sha256, Scan scan) {
    JsonObject spec = new JsonObject().put("intent", u.intent).put("format", scan.format())
        .put("columns", new JsonArray(new ArrayList<>(scan.columns()))).put("delimiter", String.valueOf(scan.delimiter()))
        .put("bom", scan.bom()).put("sha256", sha256).put("slice_rows", cfg.sliceRows()).put("name", u.name);
    BatchJob job = new BatchJob(jobId(), u.tenant, idemKey, BatchJob.LOADING, spec, scan.rows(), 0, 0, 0, 0, 0, clock.millis(),
        null, null);
    return request(Addresses.STATE_BATCHES_CREATE, job.toJson().put("quota", u.quota.toJson()));
  }

  private static String jobId() {
    return "b_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
  }

  private BatchLimits limits() {
    return BatchLimits.defaults().withMaxRows(cfg.maxRows());
  }

  /** The first read, on the loading pool: every row checked, nothing kept but the counts and columns. */
  private Scan scan(Path path) throws IOException, BatchInputException {
    try (InputStream in = Files.newInputStream(path); BatchReader r = BatchReaders.open(in, limits())) {
      while (r.next() != null) {
        // Only reading through: the reader checks every row and the bounds.
      }
      return new Scan(r.rowsRead(), r.columns(), r.format().name().toLowerCase(Locale.ROOT), r.delimiter(), r.byteOrderMark());
    }
  }

  /** The second read: one task on the loading pool per chunk of rows, each stored before the next is read. */
  private Future<Void> load(Path path, BatchJob job) {
    return pool.executeBlocking(() -> new Reading(path, limits()), false)
        .compose(r -> loadFrom(r, job).eventually(() -> pool.executeBlocking(() -> {
          r.close();
          return null;
        }, false)));
  }

  private Future<Void> loadFrom(Reading r, BatchJob job) {
    return pool.executeBlocking(() -> r.chunk(CHUNK_ROWS), false).compose(chunk -> {
      if (chunk.isEmpty()) {
        return request(Addresses.STATE_BATCHES_SEAL, new JsonObject().put("job", job.id()).put("total", r.reader.rowsRead())
            .put("columns", new JsonArray(new ArrayList<>(r.reader.columns())))).map(v -> {
              log.info("batch {}: {} rows stored for tenant {}", job.id(), r.reader.rowsRead(), job.tenant());
              return (Void) null;
            });
      }
      return request(Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", job.id()).put("rows", chunk))
          .compose(v -> loadFrom(r, job));
    });
  }

  /** An open second read. Used by one pool task at a time (each composed on the one before). */
  private static final class Reading implements AutoCloseable {
    final InputStream in;
    final BatchReader reader;

    Reading(Path path, BatchLimits limits) throws IOException, BatchInputException {
      this.in = Files.newInputStream(path);
      try {
        this.reader = BatchReaders.open(in, limits);
      } catch (IOException | BatchInputException | RuntimeException e) {
        in.close();
        throw e;
      }
    }

    /** Up to {@code n} rows as stored: {@code {"i", "row", "result"?}}; empty at the end. */
    JsonArray chunk(int n) throws IOException, BatchInputException {
      JsonArray chunk = new JsonArray();
      BatchRow row;
      while (chunk.size() < n && (row = reader.next()) != null) {
        JsonObject item = new JsonObject().put("i", row.index()).put("row", StoredRows.of(row));
        if (!row.valid()) {
          item.put("result", RowResult.invalid(row.problem()).toJson());
        }
        chunk.add(item);
      }
      return chunk;
    }

    @Override
    public void close() throws IOException {
      try {
        reader.close();
      } finally {
        in.close();
      }
    }
  }

  private Future<JsonObject> request(String address, JsonObject body) {
    // Loading stores a job for its tenant as the resolver's own work: the tenant was authorised at the upload.
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions().setSendTimeout(60_000)))
        .map(Message::body);
  }
}
