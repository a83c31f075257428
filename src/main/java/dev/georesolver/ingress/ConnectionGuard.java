package dev.georesolver.ingress;

import dev.georesolver.web.ServerLimits;
import dev.georesolver.web.RejectedRequest;
import dev.georesolver.web.Problems;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.metrics.Metrics;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Holds one ingress instance's client connections to their limits: the connection cap (shared by
 * every instance on the port through {@link ConnectionCount}) and the read deadlines of
 * {@link ConnectionWatch}, enforced by a sweep a few times per shortest deadline. A connection
 * over the cap is closed as it is accepted; one whose headers are late is closed; one whose body is
 * late is answered 408 and closed. Requests being answered are never touched: their budget bounds
 * them.
 *
 * <p>Confined to the owning verticle's event loop: give {@link #onConnection} to the server's
 * connection handler and wrap its request handlers with {@link #watching}.
 */
final class ConnectionGuard {

  private static final Logger log = LoggerFactory.getLogger(ConnectionGuard.class);

  private final Vertx vertx;
  private final ServerLimits limits;
  private final ConnectionCount count;
  private final Metrics metrics;
  private final Ticker ticker;
  private final Predicate<HttpServerRequest> paced;
  private final Map<HttpConnection, Tracked> tracked = new HashMap<>();
  private long sweepTimer = -1;

  /** A connection and what it is doing. */
  private static final class Tracked {
    final ConnectionWatch watch;
    HttpServerRequest request;

    Tracked(ConnectionWatch watch) {
      this.watch = watch;
    }
  }

  ConnectionGuard(Vertx vertx, ServerLimits limits, ConnectionCount count, Metrics metrics, Ticker ticker) {
    this(vertx, limits, count, metrics, ticker, req -> false);
  }

  /** @param paced requests whose route judges their body's progress itself: no body deadline here */
  ConnectionGuard(Vertx vertx, ServerLimits limits, ConnectionCount count, Metrics metrics, Ticker ticker,
      Predicate<HttpServerRequest> paced) {
    this.paced = paced;
    this.vertx = vertx;
    this.limits = limits;
    this.count = count;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /** How often deadlines are checked: a quarter of the shortest, between 10 ms and 1 s. */
  long sweepIntervalMs() {
    long shortest = Math.min(limits.headerTimeoutMs(), Math.min(limits.bodyTimeoutMs(), limits.idleTimeoutMs()));
    return Math.max(10, Math.min(1000, shortest / 4));
  }

  /** Starts checking deadlines. */
  void start() {
    sweepTimer = vertx.setPeriodic(sweepIntervalMs(), id -> sweep());
  }

  /** Stops checking deadlines. */
  void stop() {
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
  }

  /** Admits a new connection, or closes it when the cap is reached. */
  void onConnection(HttpConnection conn) {
    long now = ticker.nanoTime();
    if (!count.tryAcquire()) {
      metrics.httpRejected("connection_limit");
      int refused = count.refused(now);
      if (refused > 0) {
        log.warn("connection limit {} reached: {} new connection(s) refused since the last report; {} open"
            + " (raise {} if this is real traffic)", count.cap(), refused, count.open(), ServerLimits.ENV_MAX_CONNECTIONS);
      }
      conn.close();
      return;
    }
    tracked.put(conn, new Tracked(new ConnectionWatch(limits, now)));
    conn.closeHandler(v -> {
      if (tracked.remove(conn) != null) {
        count.release();
      }
    });
  }

  /** {@code next}, noting first that the connection has a request. */
  Handler<HttpServerRequest> watching(Handler<HttpServerRequest> next) {
    return req -> {
      Tracked t = tracked.get(req.connection());
      if (t != null) {
        t.request = req;
        t.watch.requestStarted(ticker.nanoTime());
      }
      next.handle(req);
    };
  }

  private void sweep() {
    long now = ticker.nanoTime();
    List<HttpConnection> late = new ArrayList<>();
    List<HttpServerRequest> slowBodies = new ArrayList<>();
    for (Map.Entry<HttpConnection, Tracked> e : tracked.entrySet()) {
      Tracked t = e.getValue();
      switch (t.watch.check(now, phase(t, now))) {
        case HEADERS_LATE -> late.add(e.getKey());
        case BODY_LATE -> slowBodies.add(t.request);
        case KEEP -> { }
      }
    }
    // Closing may run close handlers at once, which change the map: act after the walk.
    for (HttpConnection conn : late) {
      metrics.httpRejected("header_timeout");
      conn.close();
    }
    for (HttpServerRequest req : slowBodies) {
      RejectedRequest r = RejectedRequest.bodyTimeout(limits.bodyTimeoutMs());
      metrics.httpRejected(r.reason());
      Problems.rejected(req, r, null);
    }
  }

  private ConnectionWatch.Phase phase(Tracked t, long now) {
    HttpServerRequest req = t.request;
    if (req != null && req.response().ended()) {
      t.watch.answered(now);
      t.request = null;
      req = null;
    }
    if (req == null) {
      return ConnectionWatch.Phase.AWAITING_HEADERS;
    }
    // A paced body (a batch upload) is judged by its route's minimum rate, not by one deadline.
    return req.isEnded() || paced.test(req) ? ConnectionWatch.Phase.ANSWERING : ConnectionWatch.Phase.READING_BODY;
  }
}
