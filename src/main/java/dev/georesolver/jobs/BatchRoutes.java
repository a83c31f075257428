package dev.georesolver.jobs;

import dev.georesolver.batch.OutputFormat;
import dev.georesolver.batch.ResultWriter;
import dev.georesolver.batch.ResultWriters;
import dev.georesolver.batch.RowResult;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.config.BatchConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.web.Problems;
import dev.georesolver.web.RouteModule;
import dev.georesolver.web.TenantAuth;
import dev.georesolver.tenant.Tenant;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The batch API, mounted on the ingress router behind its tenant guard; each handler talks to the
 * batch and state verticles over the bus.
 *
 * <ul>
 *   <li>{@code POST /v1/batches[?intent=…]}: the body (CSV with a header row, JSON Lines, or a JSON
 *       array; at most {@code batch.max_upload_mb}) is streamed over the bus to the batch verticle
 *       in chunks, with backpressure (no file here, no path in any message). 201 with {@code Location} and the job; 200
 *       with the tenant's existing job when the same {@code Idempotency-Key} — or, without one, the
 *       same content — was submitted before; 400/413 problem+json, before any job exists, for a
 *       file that is no batch, names no accepted column set, or is over {@code batch.max_rows};
 *       503 with {@code Retry-After} when {@code batch.max_uploads} uploads are in progress; 507
 *       when the content could not be written or the state store's disk is below
 *       {@code state.min_free_mb} (nothing is kept: sending it again later works); 429
 *       {@code quota_exceeded} when the tenant's live jobs or their rows would go over its quota
 *       ({@code batch.tenant_max_live_jobs}, {@code batch.tenant_max_live_rows}, or the tenant's own);
 *   <li>{@code GET /v1/batches}: {@code {"batches": [job…]}}, newest first (a tenant its own; an
 *       admin every one);
 *   <li>{@code GET /v1/batches/{id}}: the job ({@link JobView});
 *   <li>{@code GET /v1/batches/{id}/results?format=csv|ndjson|geojson}: the input columns and the
 *       result columns, in input order, streamed page by page with backpressure (a finished job
 *       only: 409 before);
 *   <li>{@code DELETE /v1/batches/{id}}: cancels; the job after.
 * </ul>
 * Another tenant's job reads as none (404), and so does a job removed {@code batch.keep_days} after it ended.
 */
public final class BatchRoutes {

  /** Characters an {@code Idempotency-Key} may have. */
  static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");
  /** Job ids as this build makes them. */
  static final Pattern JOB_ID = Pattern.compile("b_[0-9a-f]{20}");
  /** How long a chunk, an open or an abort may wait for its reply, milliseconds. */
  static final long SEND_TIMEOUT_MS = 60_000;
  /** How long the end of an upload may wait for its job (the first read of the whole file), milliseconds. */
  static final long SUBMIT_TIMEOUT_MS = 600_000;
  /** Rows read from the store per page of results. */
  static final int PAGE_ROWS = 1000;

  private final Vertx vertx;
  private final EventBus bus;
  private final TenantAuth auth;
  private final Manifest manifest;
  private final BatchConfig cfg;
  private final Clock clock;

  private BatchRoutes(Vertx vertx, TenantAuth auth, Manifest manifest, Clock clock) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.auth = auth;
    this.manifest = manifest;
    this.cfg = manifest.batch();
    this.clock = clock;
  }

  /** The routes as a module of the ingress, mounted when the manifest's {@code batch} is enabled. */
  public static final RouteModule MODULE = new RouteModule() {
    @Override
    public void mount(Router router, Mount m) {
      if (m.manifest().batch().enabled()) {
        BatchRoutes.mount(router, m.vertx(), m.auth(), m.manifest(), Clock.systemUTC());
      }
    }

    /** An upload is judged by its pace ({@code batch.upload_min_bytes_per_s} over {@code batch.upload_window_ms}). */
    @Override
    public boolean pacesBody(HttpServerRequest req) {
      return req.method() == HttpMethod.POST && "/v1/batches".equals(req.path());
    }
  };

  /**
   * Mounts the routes; {@code auth} (in front of {@code /v1/*}) names the caller's tenant, and
   * {@code manifest} is the revision the router serves (its upload size and quotas apply).
   */
  static void mount(Router router, Vertx vertx, TenantAuth auth, Manifest manifest, Clock clock) {
    BatchRoutes r = new BatchRoutes(vertx, auth, manifest, clock);
    router.post("/v1/batches").handler(r::submit);
    router.get("/v1/batches").handler(r::list);
    router.get("/v1/batches/:id").handler(r::show);
    router.get("/v1/batches/:id/results").handler(r::results);
    router.delete("/v1/batches/:id").handler(r::cancel);
  }

  // ---- POST -----------------------------------------------------------------------------------

  private void submit(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    String key = req.getHeader("Idempotency-Key");
    String intent = ctx.queryParams().get("intent");
    List<FieldProblem> problems = new ArrayList<>();
    if (key != null && !IDEMPOTENCY_KEY.matcher(key).matches()) {
      problems.add(new FieldProblem("Idempotency-Key", "must be 1 to 255 printable ASCII characters"));
    }
    if (intent != null && !intent.matches("[a-z0-9_-]{1,64}")) {
      problems.add(new FieldProblem("intent", "must name an intent"));
    }
    if (!problems.isEmpty()) {
      req.resume();
      Problems.badRequest(ctx.response(), problems, null);
      return;
    }
    Tenant tenant = auth.tenant(ctx);
    if (intent != null && !auth.permits(ctx, intent, null)) {
      return;
    }
    String length = req.getHeader("Content-Length");
    if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > cfg.maxUploadBytes()) {
      ctx.response().putHeader("Connection", "close");
      Problems.batchTooLarge(ctx.response(), cfg.maxUploadBytes());
      return;
    }
    req.pause();
    // The quota of the revision serving this upload travels with it: a reload applies new bounds at once.
    bus.<JsonObject>request(Addresses.BATCH_UPLOAD_OPEN, new JsonObject().put("tenant", tenant.id()).put("idem_key", key)
            .put("intent", intent).put("quota", Quotas.of(manifest, tenant.id()).toJson()),
            new DeliveryOptions().setSendTimeout(SEND_TIMEOUT_MS))
        .map(Message::body)
        .compose(open -> new Sending(req, open.getString("upload"), open.getInteger("chunk_bytes", 65_536)).run())
        .onSuccess(reply -> answerSubmitted(ctx.response(), reply))
        .onFailure(t -> {
          if (t instanceof TooLarge) {
            ctx.response().putHeader("Connection", "close");
            Problems.batchTooLarge(ctx.response(), cfg.maxUploadBytes());
          } else if (t instanceof TooSlow slow) {
            ctx.response().putHeader("Connection", "close");
            Problems.uploadTooSlow(ctx.response(), slow.getMessage());
          } else {
            if (!req.isEnded()) {
              // The body was not read to its end: the connection cannot carry another request.
              ctx.response().putHeader("Connection", "close");
            }
            Problems.batchRefused(ctx.response(), t);
          }
        });
  }

  private void answerSubmitted(HttpServerResponse resp, JsonObject reply) {
    BatchJob job = BatchJob.fromJson(reply.getJsonObject("job"));
    boolean created = reply.getBoolean("created");
    if (created) {
      resp.setStatusCode(201).putHeader("Location", "/v1/batches/" + job.id());
    }
    json(resp, JobView.of(job, clock.millis()));
  }

  /** Over {@code batch.max_upload_mb}. No stack trace: an expected outcome. */
  private static final class TooLarge extends RuntimeException {
    TooLarge() {
      super("upload too large", null, false, false);
    }
  }

  /** Slower than {@code batch.upload_min_bytes_per_s} over a window. No stack trace: an expected outcome. */
  private static final class TooSlow extends RuntimeException {
    TooSlow(String detail) {
      super(detail, null, false, false);
    }
  }

  /**
   * Streams one request's body to the upload's address: chunks of at most {@code chunkBytes}, one
   * in flight at a time; the request is paused while a chunk's worth waits for the one in flight,
   * so at most two chunks are held here. Bounded by {@code max_upload_mb}; a failed chunk, a broken
   * request or an oversize body aborts the upload (the receiver deletes what it had).
   */
  private final class Sending {
    final HttpServerRequest req;
    final String address;
    final int chunkBytes;
    final io.vertx.core.Promise<JsonObject> done = io.vertx.core.Promise.promise();
    Buffer pending = Buffer.buffer();
    final UploadPace pace = new UploadPace(cfg.uploadMinBytesPerS(), cfg.uploadWindowMs(), clock.millis());
    long paceTimer = -1;
    long bytes;
    boolean inFlight;
    boolean ended;
    boolean over;

    Sending(HttpServerRequest req, String address, int chunkBytes) {
      this.req = req;
      this.address = address;
      this.chunkBytes = Math.max(1024, chunkBytes);
    }

    Future<JsonObject> run() {
      req.handler(buf -> {
        if (over) {
          return;
        }
        bytes += buf.length();
        if (bytes > cfg.maxUploadBytes()) {
          fail(new TooLarge());
          return;
        }
        pace.received(buf.length());
        pending.appendBuffer(buf);
        pump();
      });
      req.exceptionHandler(this::fail);
      req.endHandler(v -> {
        ended = true;
        vertx.cancelTimer(paceTimer);
        pump();
      });
      paceTimer = vertx.setPeriodic(Math.max(50, cfg.uploadWindowMs() / 4), id -> judge());
      req.resume();
      return done.future().onComplete(ar -> vertx.cancelTimer(paceTimer));
    }

    /** Cuts the upload off when the client sent less than the minimum over a whole window; time we held it back does not count. */
    private void judge() {
      long now = clock.millis();
      if (over || ended) {
        vertx.cancelTimer(paceTimer);
        return;
      }
      if (inFlight && pending.length() >= chunkBytes) {
        pace.held(now);
        return;
      }
      if (!pace.tooSlow(now)) {
        pump(true);
      } else {
        fail(new TooSlow("the upload arrived slower than " + cfg.uploadMinBytesPerS() + " bytes/s over "
            + cfg.uploadWindowMs() + " ms (batch.upload_min_bytes_per_s, batch.upload_window_ms); " + pace.total()
            + " bytes had arrived"));
      }
    }

    private void pump() {
      pump(false);
    }

    /** Sends what is due; {@code flush}: a partial chunk too (each pace tick), so the receiver hears from a live upload. */
    private void pump(boolean flush) {
      if (over) {
        return;
      }
      if (pending.length() >= chunkBytes) {
        req.pause();
      }
      if (inFlight) {
        return;
      }
      if (pending.length() >= chunkBytes || ((ended || flush) && pending.length() > 0)) {
        int n = Math.min(chunkBytes, pending.length());
        Buffer chunk = pending.getBuffer(0, n);
        pending = pending.getBuffer(n, pending.length());
        inFlight = true;
        bus.<JsonObject>request(address, chunk, op(Addresses.UPLOAD_CHUNK)).onComplete(ar -> {
          inFlight = false;
          if (ar.failed()) {
            over = true;
            done.tryFail(ar.cause());
            return;
          }
          if (!ended && pending.length() < chunkBytes) {
            req.resume();
          }
          pump();
        });
        return;
      }
      if (ended) {
        over = true;
        bus.<JsonObject>request(address, Buffer.buffer(), op(Addresses.UPLOAD_END).setSendTimeout(SUBMIT_TIMEOUT_MS))
            .map(Message::body).onComplete(done);
      }
    }

    private void fail(Throwable t) {
      if (over) {
        return;
      }
      over = true;
      req.pause();
      bus.request(address, Buffer.buffer(), op(Addresses.UPLOAD_ABORT));
      done.tryFail(t);
    }

    private DeliveryOptions op(String op) {
      return new DeliveryOptions().setSendTimeout(SEND_TIMEOUT_MS).addHeader(Addresses.UPLOAD_OP_HEADER, op);
    }
  }

  // ---- GET, DELETE ----------------------------------------------------------------------------

  private void list(RoutingContext ctx) {
    Tenant t = auth.tenant(ctx);
    bus.<JsonObject>request(Addresses.STATE_BATCHES_LIST, new JsonObject().put("tenant", t.admin() ? null : t.id())
            .put("limit", 100), caller(t).on(new DeliveryOptions().setSendTimeout(10_000)))
        .onSuccess(m -> {
          JsonArray out = new JsonArray();
          m.body().getJsonArray("batches").forEach(j -> out.add(JobView.of(BatchJob.fromJson((JsonObject) j), clock.millis())));
          json(ctx.response(), new JsonObject().put("batches", out));
        })
        .onFailure(e -> Problems.storeUnavailable(ctx.response(), "the state store did not answer: " + e.getMessage()));
  }

  /** The caller's job named by the path, or null after answering 404 / 503. */
  private Future<BatchJob> job(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (id == null || !JOB_ID.matcher(id).matches()) {
      Problems.noSuchBatch(ctx.response());
      return Future.succeededFuture(null);
    }
    Tenant t = auth.tenant(ctx);
    return bus.<JsonObject>request(Addresses.STATE_BATCHES_GET, new JsonObject().put("job", id),
            caller(t).on(new DeliveryOptions().setSendTimeout(10_000)))
        .map(m -> {
          BatchJob j = m.body() == null ? null : BatchJob.fromJson(m.body());
          if (j == null || (!t.admin() && !t.id().equals(j.tenant()))) {
            Problems.noSuchBatch(ctx.response());
            return null;
          }
          return j;
        })
        .recover(e -> {
          Problems.storeUnavailable(ctx.response(), "the state store did not answer: " + e.getMessage());
          return Future.succeededFuture(null);
        });
  }

  /** Whom the store is asked for: the authenticated tenant, an admin's marker only for an admin. */
  private static Caller caller(Tenant t) {
    return Caller.of(t.id(), t.admin());
  }

  private void show(RoutingContext ctx) {
    job(ctx).onSuccess(j -> {
      if (j != null) {
        json(ctx.response(), JobView.of(j, clock.millis()));
      }
    });
  }

  private void cancel(RoutingContext ctx) {
    job(ctx).onSuccess(j -> {
      if (j == null) {
        return;
      }
      bus.<JsonObject>request(Addresses.STATE_BATCHES_CANCEL, new JsonObject().put("job", j.id()),
              caller(auth.tenant(ctx)).on(new DeliveryOptions().setSendTimeout(10_000)))
          .onSuccess(m -> json(ctx.response(), JobView.of(BatchJob.fromJson(m.body()), clock.millis())))
          .onFailure(e -> Problems.storeUnavailable(ctx.response(), "the state store did not answer: " + e.getMessage()));
    });
  }

  // ---- results --------------------------------------------------------------------------------

  private void results(RoutingContext ctx) {
    String f = ctx.queryParams().get("format");
    OutputFormat format;
    try {
      format = f == null ? OutputFormat.CSV : OutputFormat.valueOf(f.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      Problems.badRequest(ctx.response(), List.of(new FieldProblem("format", "must be csv, ndjson or geojson")), null);
      return;
    }
    job(ctx).onSuccess(j -> {
      if (j == null) {
        return;
      }
      if (!j.finished()) {
        Problems.batchNotFinished(ctx.response(), JobView.of(j, clock.millis()).getString("state"));
        return;
      }
      stream(ctx.response(), j, format);
    });
  }

  private void stream(HttpServerResponse resp, BatchJob j, OutputFormat format) {
    List<String> columns = new ArrayList<>();
    j.spec().getJsonArray("columns", new JsonArray()).forEach(c -> columns.add(String.valueOf(c)));
    String d = j.spec().getString("delimiter", ",");
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
    ResultWriter w;
    try {
      w = ResultWriters.open(format, out, columns, d.isEmpty() ? ',' : d.charAt(0), j.spec().getBoolean("bom", false), 0);
    } catch (IOException e) {
      Problems.fail(resp, e, null);
      return;
    }
    resp.setChunked(true).putHeader("content-type", switch (format) {
      case CSV -> "text/csv; charset=utf-8";
      case NDJSON -> "application/x-ndjson";
      case GEOJSON -> "application/geo+json";
    }).putHeader("Content-Disposition", "attachment; filename=\"" + j.id() + "." + format.label() + "\"");
    page(resp, j, w, out, 0);
  }

  /** One page: read, written through the writer, sent; the next once the response has room. */
  private void page(HttpServerResponse resp, BatchJob j, ResultWriter w, ByteArrayOutputStream out, long from) {
    // The job's tenant: job(ctx) has already found the job to be the caller's (or the caller an admin).
    bus.<JsonObject>request(Addresses.STATE_BATCHES_PAGE, new JsonObject().put("job", j.id()).put("from", from)
            .put("limit", PAGE_ROWS), Caller.tenant(j.tenant()).on(new DeliveryOptions().setSendTimeout(30_000)))
        .onFailure(e -> resp.reset())
        .onSuccess(m -> {
          JsonArray rows = m.body().getJsonArray("rows");
          try {
            for (Object o : rows) {
              JsonObject r = (JsonObject) o;
              JsonObject result = r.getJsonObject("result");
              w.write(StoredRows.row(r.getLong("i"), r.getJsonObject("row")), result == null
                  ? new RowResult(j.state(), null, null, null, null, null, null, null, null, "not resolved: the job was " + j.state())
                  : RowResult.fromJson(result));
            }
            boolean last = rows.size() < PAGE_ROWS;
            if (last) {
              w.finish();
            } else {
              w.flush();
            }
            Buffer chunk = Buffer.buffer(out.toByteArray());
            out.reset();
            if (last) {
              resp.end(chunk);
              return;
            }
            resp.write(chunk);
            long next = from + rows.size();
            if (resp.writeQueueFull()) {
              resp.drainHandler(v -> page(resp, j, w, out, next));
            } else {
              page(resp, j, w, out, next);
            }
          } catch (IOException e) {
            resp.reset();
          }
        });
  }

  private static void json(HttpServerResponse resp, JsonObject body) {
    resp.putHeader("content-type", "application/json").end(body.toBuffer());
  }
}
