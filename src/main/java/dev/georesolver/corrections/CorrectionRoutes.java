package dev.georesolver.corrections;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.web.Problems;
import dev.georesolver.web.RouteModule;
import dev.georesolver.web.TenantAuth;
import dev.georesolver.web.Revocations;
import dev.georesolver.config.CorrectionsConfig;
import dev.georesolver.state.rules.Debts;
import dev.georesolver.bus.Caller;
import dev.georesolver.state.rules.Cursors;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP face of reconciliation, mounted on the ingress router; every handler talks to the state
 * and reconciler verticles over the bus.
 *
 * <ul>
 *   <li>{@code GET /v1/corrections?after=<cursor>&limit=N} (1–1000, default 100): the outbox,
 *       oldest first, {@code {"corrections": [...], "next": "<cursor>"}}; pass {@code next} as
 *       {@code after} to continue; an empty page keeps the cursor;
 *   <li>{@code GET /v1/corrections/stream}: Server-Sent Events, one {@code correction} event per
 *       correction with {@code id:} its cursor; resumable with {@code Last-Event-ID} (or
 *       {@code ?after=}). The live subscription is taken first, then the outbox is paged from the
 *       cursor, then live events follow, de-duplicated by cursor, so nothing committed in between
 *       is missed or sent twice. A client that cannot keep up is disconnected (it resumes); a
 *       reload that revokes the key the stream was opened with ends it;
 *   <li>{@code GET /v1/reconcile}: {@code {"pending", "in_progress", "done", "dead",
 *       "oldest_pending_age_s", "drain_rate_per_s", …}} (an admin's, once tenants exist);
 *   <li>{@code GET /v1/reconcile/dead?limit=N}: the dead letters, the longest dead first, each with
 *       its key, tenant, attempts and last error (an admin's, like the figures).
 * </ul>
 *
 * <p>Each tenant reads its own corrections: the feed and the stream hold only the corrections of
 * requests made for the caller's tenant ({@code public} without tenants); an admin may pass
 * {@code tenant=<id>} for another's, or {@code tenant=*} for all. A page is then filtered from the
 * outbox, so it may hold fewer than {@code limit} corrections while {@code next} moves on.
 */
public final class CorrectionRoutes {

  /** The paths mounted. */
  public static final List<String> PATHS = List.of("/v1/corrections", "/v1/corrections/stream", "/v1/reconcile");

  /** Default page size. */
  static final int DEFAULT_LIMIT = 100;
  /** Live events a stream holds while it catches up; past it the client is disconnected and resumes. */
  static final int MAX_HELD = 10_000;
  /** Interval of the stream's keep-alive comments, milliseconds. */
  static final long HEARTBEAT_MS = 15_000;

  private CorrectionRoutes() {}

  /** The {@code tenant=} value with which an admin reads every tenant's corrections. */
  static final String ALL_TENANTS = "*";
  /** How many outbox entries one filtered page looks through at most, per entry asked for. */
  static final int SCAN_FACTOR = 20;

  /** The three routes as a module of the ingress. */
  public static final RouteModule MODULE = (router, m) -> mount(router, m.bus(), m.auth(), m.manifest().corrections(),
      StreamSlots.of(m.vertx()));

  /** Seconds a client refused a stream for a cap is told to wait ({@code Retry-After}). */
  static final long STREAM_RETRY_AFTER_S = 10;
  /** A name no consumer saves a cursor under: reading it answers the outbox's head (where a stream without a cursor starts). */
  static final String HEAD_ONLY = "corrections-stream-head";

  /** Mounts the three routes; {@code auth} (in front of {@code /v1/*}) names the caller's tenant. */
  static void mount(Router router, EventBus bus, TenantAuth auth, CorrectionsConfig cfg, StreamSlots slots) {
    router.get("/v1/corrections").handler(ctx -> {
      Feed feed = feedOf(ctx, auth);
      if (feed != null) {
        feed(ctx, bus, feed);
      }
    });
    router.get("/v1/corrections/stream").handler(ctx -> {
      Feed feed = feedOf(ctx, auth);
      if (feed != null) {
        String holder = auth.tenant(ctx).id();
        StreamSlots.Taken taken = slots.take(holder, cfg.maxStreamsPerTenant(), cfg.maxStreams());
        if (taken == StreamSlots.Taken.YES) {
          new Stream(ctx, bus, feed, auth, () -> slots.give(holder)).start();
        } else {
          HttpServerResponse resp = ctx.response().putHeader("Retry-After", Long.toString(STREAM_RETRY_AFTER_S));
          if (taken == StreamSlots.Taken.TENANT_FULL) {
            Problems.status(resp, 429, "Too Many Streams", "tenant " + holder + " has " + cfg.maxStreamsPerTenant()
                + " corrections streams open (corrections.max_streams_per_tenant); close one or retry after "
                + STREAM_RETRY_AFTER_S + " s", null);
          } else {
            Problems.status(resp, 503, "Streams Unavailable", "the resolver serves " + cfg.maxStreams()
                + " corrections streams at once (corrections.max_streams); retry after " + STREAM_RETRY_AFTER_S + " s", null);
          }
        }
      }
    });
    router.get("/v1/reconcile/dead").handler(ctx -> deadLetters(ctx, bus, auth));
    router.get("/v1/reconcile").handler(ctx -> bus.<JsonObject>request(Addresses.RECONCILE_STATUS, "",
            Node.of(ctx.vertx()).to(Addresses.RECONCILE_STATUS).setSendTimeout(5000))
        .onSuccess(m -> json(ctx.response(), m.body()))
        .onFailure(t -> unavailable(ctx.response(), "the reconciler did not answer: " + t.getMessage())));
  }

  /** {@code GET /v1/reconcile/dead?limit=N}: the dead letters (admin; under the reconcile guard). */
  private static void deadLetters(RoutingContext ctx, EventBus bus, TenantAuth auth) {
    String limitText = ctx.queryParams().get("limit");
    int limit = DEFAULT_LIMIT;
    if (limitText != null) {
      try {
        limit = Integer.parseInt(limitText);
      } catch (NumberFormatException e) {
        limit = -1;
      }
      if (limit < 1 || limit > Addresses.MAX_PAGE) {
        Problems.badRequest(ctx.response(), List.of(new FieldProblem("limit", "must be an integer in [1, " + Addresses.MAX_PAGE + "]")),
            null);
        return;
      }
    }
    // The dead letters are every tenant's: the store gives them to an admin's caller only.
    var t = auth.tenant(ctx);
    bus.<JsonObject>request(Addresses.STATE_DEBTS_DEAD, new JsonObject().put("limit", limit),
            Caller.of(t.id(), t.admin()).on(Node.of(ctx.vertx()).to(Addresses.STATE_DEBTS_DEAD).setSendTimeout(5000)))
        .onSuccess(m -> json(ctx.response(), m.body()))
        .onFailure(e -> {
          if (e instanceof ReplyException r && r.failureCode() == FailureCode.FORBIDDEN.code()) {
            Problems.forbidden(ctx.response(), "the dead letters are every tenant's: they need an admin key", null);
          } else {
            unavailable(ctx.response(), "the state store did not answer: " + e.getMessage());
          }
        });
  }

  /** Whose corrections a request reads: one tenant's, or every one's ({@code tenant} null). */
  record Feed(String tenant) {
    boolean holds(JsonObject correction) {
      return tenant == null || tenant.equals(correction.getString("tenant", Debts.PUBLIC_TENANT));
    }

    /** Whom the store is asked for: the one tenant, or all of them (an admin's feed). */
    Caller caller() {
      return tenant == null ? Caller.SYSTEM : Caller.tenant(tenant);
    }
  }

  /** The caller's feed, or null after answering 403 (a non-admin asking for another tenant's). */
  private static Feed feedOf(RoutingContext ctx, TenantAuth auth) {
    String asked = ctx.queryParams().get("tenant");
    if (ALL_TENANTS.equals(asked) && auth.tenant(ctx).admin()) {
      return new Feed(null);
    }
    String tenant = auth.feedTenant(ctx, asked);
    return tenant == null ? null : new Feed(tenant);
  }

  private static void feed(RoutingContext ctx, EventBus bus, Feed feed) {
    String after = ctx.queryParams().get("after");
    String limitText = ctx.queryParams().get("limit");
    List<FieldProblem> problems = new ArrayList<>();
    if (after != null && !after.isEmpty() && !Cursors.valid(after)) {
      problems.add(new FieldProblem("after", "must be a cursor from an earlier page (its \"next\")"));
    }
    int limit = DEFAULT_LIMIT;
    if (limitText != null) {
      try {
        limit = Integer.parseInt(limitText);
      } catch (NumberFormatException e) {
        limit = -1;
      }
      if (limit < 1 || limit > Addresses.MAX_PAGE) {
        problems.add(new FieldProblem("limit", "must be an integer in [1, " + Addresses.MAX_PAGE + "]"));
      }
    }
    if (!problems.isEmpty()) {
      Problems.badRequest(ctx.response(), problems, null);
      return;
    }
    page(bus, after, limit, feed)
        .onSuccess(p -> json(ctx.response(), p))
        .onFailure(t -> unavailable(ctx.response(), "the state store did not answer: " + t.getMessage()));
  }

  /**
   * A page of {@code feed}'s corrections after {@code after}: outbox pages are read and filtered
   * until {@code limit} are found, the outbox ends, or {@code limit × SCAN_FACTOR} entries were
   * looked through; {@code next} is the last entry looked at.
   */
  static Future<JsonObject> page(EventBus bus, String after, int limit, Feed feed) {
    return scan(bus, after, limit, feed, new JsonArray(), (long) limit * SCAN_FACTOR);
  }

  private static Future<JsonObject> scan(EventBus bus, String after, int limit, Feed feed, JsonArray found, long budget) {
    return page(bus, after, limit, feed.caller()).compose(p -> {
      JsonArray cs = p.getJsonArray("corrections", new JsonArray());
      for (int i = 0; i < cs.size() && found.size() < limit; i++) {
        JsonObject c = cs.getJsonObject(i);
        if (feed.holds(c)) {
          found.add(c);
        }
        if (found.size() == limit) {
          // Stop at the entry that filled the page: the next page starts after it.
          return Future.succeededFuture(new JsonObject().put("corrections", found).put("next", c.getString("cursor")));
        }
      }
      String next = p.getString("next");
      int scanned = p.getInteger("scanned", cs.size());
      long left = budget - scanned;
      if (scanned < limit || left <= 0) {
        return Future.succeededFuture(new JsonObject().put("corrections", found).put("next", next));
      }
      return scan(bus, next, limit, feed, found, left);
    });
  }

  static Future<JsonObject> page(EventBus bus, String after, int limit, Caller caller) {
    return bus.<JsonObject>request(Addresses.STATE_CORRECTIONS_PAGE, new JsonObject().put("after", after).put("limit", limit),
            caller.on(Node.current().to(Addresses.STATE_CORRECTIONS_PAGE).setSendTimeout(10_000)))
        .map(m -> {
          JsonObject p = m.body();
          if (p.getString("next") == null) {
            p.put("next", after == null || after.isEmpty() ? "0" : after);
          }
          return p;
        });
  }

  private static void json(HttpServerResponse resp, JsonObject body) {
    if (!resp.ended()) {
      resp.putHeader("content-type", "application/json").end(body.toBuffer());
    }
  }

  private static void unavailable(HttpServerResponse resp, String detail) {
    Problems.status(resp, 503, "Store Unavailable", detail, null);
  }

  /** One SSE client. Confined to the ingress verticle's context. */
  private static final class Stream {
    private final RoutingContext ctx;
    private final EventBus bus;
    private final Feed feed;
    private final HttpServerResponse resp;
    private final TenantAuth auth;
    private final List<JsonObject> held = new ArrayList<>();
    /** The key it was opened with, watched across reloads: a reload that revokes it ends the stream. */
    private Revocations.Watch watch;
    /** Gives its slot back, once. */
    private final Runnable release;
    private MessageConsumer<JsonObject> consumer;
    private String last;
    private boolean catchingUp = true;
    private boolean closed;
    private long heartbeat = -1;

    Stream(RoutingContext ctx, EventBus bus, Feed feed, TenantAuth auth, Runnable release) {
      this.auth = auth;
      this.release = release;
      this.ctx = ctx;
      this.bus = bus;
      this.feed = feed;
      this.resp = ctx.response();
    }

    void start() {
      String from = ctx.request().getHeader("Last-Event-ID");
      if (from == null || from.isBlank()) {
        from = ctx.queryParams().get("after");
      }
      if (from != null && !from.isBlank() && !Cursors.valid(from.strip())) {
        release.run();
        Problems.badRequest(resp, List.of(new FieldProblem("Last-Event-ID", "must be a cursor (an event id of this stream)")), null);
        return;
      }
      last = from == null || from.isBlank() ? null : from.strip();
      resp.setChunked(true)
          .putHeader("content-type", "text/event-stream; charset=utf-8")
          .putHeader("cache-control", "no-cache")
          .putHeader("x-accel-buffering", "no");
      resp.write(": georesolver corrections\n\n");
      resp.closeHandler(v -> close());
      // Another tenant's feed, or everyone's, needs the key to stay an admin's.
      watch = auth.watch(ctx, feed.tenant() == null || !feed.tenant().equals(auth.tenant(ctx).id()), this::end);
      heartbeat = ctx.vertx().setPeriodic(HEARTBEAT_MS, id -> {
        if (!closed) {
          resp.write(": keep-alive\n\n");
        }
      });
      consumer = bus.consumer(Addresses.CORRECTIONS, m -> onLive(m.body()));
      boolean fromNow = last == null;
      // Without a cursor the stream starts at the outbox's head (taken after the live subscription,
      // so nothing committed in between is missed), not at its first entry: no scan of the history.
      consumer.completion().compose(v -> fromNow ? head() : Future.succeededFuture(last)).onSuccess(at -> {
        last = at;
        catchUp();
      }).onFailure(t -> end());
    }

    private Future<String> head() {
      return bus.<JsonObject>request(Addresses.STATE_CORRECTIONS_CURSOR, new JsonObject().put("name", HEAD_ONLY),
          // The head's position is no tenant's data: asked as the resolver's own work.
          Caller.SYSTEM.on(Node.current().to(Addresses.STATE_CORRECTIONS_CURSOR).setSendTimeout(10_000)))
          .map(m -> m.body().getString("head"));
    }

    private void onLive(JsonObject c) {
      if (catchingUp) {
        if (held.size() >= MAX_HELD) {
          end();
          return;
        }
        held.add(c);
      } else {
        send(c);
      }
    }

    private void catchUp() {
      if (closed) {
        return;
      }
      page(bus, last, 200, feed.caller()).onSuccess(p -> {
        JsonArray cs = p.getJsonArray("corrections", new JsonArray());
        for (int i = 0; i < cs.size(); i++) {
          send(cs.getJsonObject(i));
        }
        if (p.getInteger("scanned", cs.size()) == 200) {
          catchUp();
          return;
        }
        catchingUp = false;
        held.forEach(this::send);
        held.clear();
      }).onFailure(t -> {
        if (t instanceof ReplyException re && re.failureCode() == FailureCode.BAD_REQUEST.code()) {
          end();
          return;
        }
        ctx.vertx().setTimer(1000, id -> catchUp());
      });
    }

    private void send(JsonObject c) {
      String cursor = c.getString("cursor");
      if (closed || cursor == null || (last != null && Cursors.compare(cursor, last) <= 0) || !feed.holds(c)) {
        return;
      }
      if (resp.writeQueueFull()) {
        end();
        return;
      }
      last = cursor;
      resp.write("id: " + cursor + "\nevent: correction\ndata: " + c.encode() + "\n\n");
    }

    private void end() {
      if (!closed) {
        close();
        if (!resp.ended()) {
          resp.end();
        }
      }
    }

    private void close() {
      if (closed) {
        return;
      }
      closed = true;
      release.run();
      if (watch != null) {
        watch.close();
      }
      if (heartbeat >= 0) {
        ctx.vertx().cancelTimer(heartbeat);
      }
      if (consumer != null) {
        consumer.unregister();
      }
    }
  }
}
