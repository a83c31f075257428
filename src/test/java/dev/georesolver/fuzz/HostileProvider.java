package dev.georesolver.fuzz;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in provider (the {@code generic} contract, real sockets) that misbehaves on purpose. Which
 * {@link Misbehaviour} answers a request is a function of the fuzz seed and the request's query, so
 * replaying one fuzz case replays the provider's part in it too.
 *
 * <p>Adding a misbehaviour is one constant and one method: name it in {@link Misbehaviour} with its
 * weight, and say what it does in {@link #act}. Still to add once the resolver bounds what it
 * reads (issue 9, provider half): chunked and read-until-close bodies with no end, gzip bombs,
 * labels and error texts of megabytes, error texts that echo the request (and so its key), a
 * far-future {@code Retry-After}.
 */
final class HostileProvider {

  /** What the provider does with a request, and how often (relative weights). */
  enum Misbehaviour {
    /** A valid answer at once. */
    ANSWER(30),
    /** A valid answer in a projected CRS. */
    PROJECTED(5),
    /** A valid answer, after a delay of up to one and a half times the tier's timeout. */
    SLOW(10),
    /** Never answers: the tier's timeout must cut it. */
    HANG(3),
    /** 500, 502, 503 or 504 with a short text. */
    SERVER_ERROR(10),
    /** 429 with a Retry-After of 0 or 1 s (which holds the tier's breaker open that long). */
    RATE_LIMITED(1),
    /** No match: 404 or an empty body. */
    NO_MATCH(8),
    /** 200 with a body that is not the contract: broken JSON, wrong types, numbers out of range. */
    GARBAGE(12),
    /** An unknown CRS, or coordinates that cannot be transformed. */
    BAD_CRS(4),
    /**
     * A Content-Length far over the body cap, with the body streaming behind it. Weight 0 until the
     * tier resets such an answer quietly: today each one logs {@code Stream reset} at ERROR from
     * Vert.x's client (found by this harness; issue 9, provider half).
     */
    OVERSIZED(0),
    /** Closes the connection without answering. */
    RESET(4);

    final int weight;

    Misbehaviour(int weight) {
      this.weight = weight;
    }
  }

  private final Vertx vertx;
  private final long seed;
  private final long tierTimeoutMs;
  private final Map<Misbehaviour, AtomicLong> counts = new EnumMap<>(Misbehaviour.class);
  private final int totalWeight;
  private HttpServer server;

  private HostileProvider(Vertx vertx, long seed, long tierTimeoutMs) {
    this.vertx = vertx;
    this.seed = seed;
    this.tierTimeoutMs = tierTimeoutMs;
    int w = 0;
    for (Misbehaviour m : Misbehaviour.values()) {
      counts.put(m, new AtomicLong());
      w += m.weight;
    }
    this.totalWeight = w;
  }

  /** Starts the provider on a free port. */
  static Future<HostileProvider> start(Vertx vertx, long seed, long tierTimeoutMs) {
    HostileProvider p = new HostileProvider(vertx, seed, tierTimeoutMs);
    // Long lines: the resolver forwards addresses of up to 1,000 characters in the query.
    return vertx.createHttpServer(new HttpServerOptions().setMaxInitialLineLength(64 * 1024))
        .requestHandler(p::handle).listen(0).map(s -> {
          p.server = s;
          return p;
        });
  }

  /** The endpoint URL. */
  String url() {
    return "http://localhost:" + server.actualPort() + "/geocode";
  }

  /** How many requests each misbehaviour answered. */
  Map<Misbehaviour, Long> counts() {
    Map<Misbehaviour, Long> m = new EnumMap<>(Misbehaviour.class);
    counts.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  /** The misbehaviour for a request with this query: fixed by the seed, so replays repeat it. */
  Misbehaviour choose(String query) {
    SplittableRandom r = new SplittableRandom(seed ^ (query == null ? 0 : query.hashCode()) * 0x9E3779B97F4A7C15L);
    int pick = r.nextInt(totalWeight);
    for (Misbehaviour m : Misbehaviour.values()) {
      pick -= m.weight;
      if (pick < 0) {
        return m;
      }
    }
    throw new AssertionError();
  }

  private void handle(HttpServerRequest req) {
    Misbehaviour m = choose(req.query());
    counts.get(m).incrementAndGet();
    act(m, req, new SplittableRandom(seed ^ (req.query() == null ? 1 : req.query().hashCode())));
  }

  private void act(Misbehaviour m, HttpServerRequest req, SplittableRandom r) {
    switch (m) {
      case ANSWER -> json(req, 200, point(r));
      case PROJECTED -> json(req, 200, new JsonObject().put("x", r.nextDouble(-2e7, 2e7)).put("y", r.nextDouble(-1.9e7, 1.9e7))
          .put("crs", "EPSG:3857").put("confidence", r.nextDouble()));
      case SLOW -> vertx.setTimer(1 + r.nextLong(tierTimeoutMs * 3 / 2), id -> json(req, 200, point(r)));
      case HANG -> { }
      case SERVER_ERROR -> text(req, new int[] {500, 502, 503, 504}[r.nextInt(4)], "upstream trouble, try again later");
      case RATE_LIMITED -> {
        req.response().putHeader("Retry-After", r.nextBoolean() ? "0" : "1");
        text(req, 429, "slow down");
      }
      case NO_MATCH -> {
        if (r.nextBoolean()) {
          text(req, 404, "");
        } else {
          text(req, 200, "");
        }
      }
      case GARBAGE -> garbage(req, r);
      case BAD_CRS -> json(req, 200, new JsonObject().put("x", 1e300).put("y", -1e300)
          .put("crs", r.nextBoolean() ? "EPSG:999999" : "urn:ogc:def:crs:NOPE::1").put("confidence", 0.5));
      case OVERSIZED -> oversized(req);
      case RESET -> req.connection().close();
    }
  }

  private static JsonObject point(SplittableRandom r) {
    return new JsonObject().put("x", r.nextDouble(-180, 180)).put("y", r.nextDouble(-90, 90)).put("crs", "EPSG:4326")
        .put("confidence", r.nextDouble()).put("label", "Somewhere " + r.nextInt(1000));
  }

  private static void garbage(HttpServerRequest req, SplittableRandom r) {
    String[] bodies = {
        "{\"x\": 1, \"y\": ", "not json at all", "[1,2,3]", "{\"x\": \"east\", \"y\": \"north\", \"crs\": 4326}",
        "{\"x\": NaN, \"y\": Infinity}", "{\"x\": 400, \"y\": 95, \"crs\": \"EPSG:4326\", \"confidence\": 7}",
        "{\"x\": 1e999, \"y\": -1e999, \"crs\": \"EPSG:4326\", \"confidence\": 0.5}", "\u0000\u0001\u0002",
        "{\"x\": 1, \"y\": 2, \"crs\": \"EPSG:4326\", \"confidence\": -1}", "null", "{}",
    };
    text(req, 200, bodies[r.nextInt(bodies.length)]);
  }

  private void oversized(HttpServerRequest req) {
    req.response().setStatusCode(200).putHeader("content-type", "application/json")
        .putHeader("content-length", Long.toString(64L * 1024 * 1024));
    Buffer chunk = Buffer.buffer("{\"x\":1,\"y\":2,\"label\":\"" + "a".repeat(64 * 1024));
    // A few chunks are enough: the resolver must refuse on the header, not on the bytes.
    for (int i = 0; i < 4 && !req.response().closed(); i++) {
      req.response().write(chunk);
    }
    vertx.setTimer(2000, id -> req.connection().close());
  }

  private static void json(HttpServerRequest req, int status, JsonObject body) {
    if (!req.response().closed()) {
      req.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.toBuffer());
    }
  }

  private static void text(HttpServerRequest req, int status, String body) {
    if (!req.response().closed()) {
      req.response().setStatusCode(status).putHeader("content-type", "text/plain").end(body);
    }
  }
}
