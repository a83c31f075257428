package dev.georesolver.fuzz;

import dev.georesolver.support.GzipBomb;
import dev.georesolver.support.RawProvider;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in provider (the {@code generic} contract, on a raw socket: {@link RawProvider}) that
 * misbehaves on purpose. Which {@link Misbehaviour} answers a request is a function of the fuzz
 * seed and the request's query, so replaying one fuzz case replays the provider's part in it too.
 *
 * <p>Adding a misbehaviour is one constant and one method: name it in {@link Misbehaviour} with its
 * weight, and say what it does in {@link #act}. The raw socket lets it write what an HTTP server
 * library would refuse to: bodies without end, lying lengths, bombs, trickles.
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
    /**
     * 429 with a Retry-After of millennia (delta-seconds, more digits than a long holds, or a date
     * in the year 9999): the tier must hold its breaker open for its {@code retry_after_max_ms}, no
     * longer.
     */
    FAR_RETRY_AFTER(1),
    /** No match: 404 or an empty body. */
    NO_MATCH(8),
    /** 200 with a body that is not the contract: broken JSON, wrong types, numbers out of range. */
    GARBAGE(12),
    /** An unknown CRS, or coordinates that cannot be transformed. */
    BAD_CRS(4),
    /** A Content-Length far over the body cap, with the body streaming behind it. */
    OVERSIZED(3),
    /** A chunked body that never ends. */
    CHUNKED_ENDLESS(3),
    /** A body without a length, read until the connection closes, that never ends. */
    READ_UNTIL_CLOSE(3),
    /** Half a megabyte of gzip that inflates to 512 MiB. */
    GZIP_BOMB(3),
    /** A valid answer, one byte every 50 ms: the attempt's timeout must cut it. */
    TRICKLE(3),
    /** A valid answer whose label is a mebibyte and more. */
    HUGE_LABEL(3),
    /**
     * A valid answer whose label echoes the request as an error page would — the request line,
     * every header (the tier's credential among them), line breaks and a forged log line.
     */
    ECHO_CREDENTIAL(4),
    /**
     * A response HTTP cannot read: broken chunk framing, or a status line that quotes the request
     * (credential and all).
     */
    MALFORMED(2),
    /** Closes the connection without answering. */
    RESET(4);

    final int weight;

    Misbehaviour(int weight) {
      this.weight = weight;
    }
  }

  /** The most a never-ending body writes to one connection (the resolver must stop far sooner). */
  private static final long ENDLESS_LIMIT = 256L * 1024 * 1024;
  /** One gzip bomb, built once, shared by every request that gets one. */
  private static final Buffer BOMB = Buffer.buffer(GzipBomb.halfGigabyte());
  private static final Buffer HUGE_LABEL_BODY = Buffer.buffer(new JsonObject().put("x", 4.35).put("y", 50.85)
      .put("crs", "EPSG:4326").put("confidence", 0.5).put("label", "Huge " + "h".repeat(1024 * 1024 + 17)).encode());

  private final Vertx vertx;
  private final long seed;
  private final long tierTimeoutMs;
  private final Map<Misbehaviour, AtomicLong> counts = new EnumMap<>(Misbehaviour.class);
  private final int totalWeight;
  private RawProvider server;

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
    return RawProvider.start(vertx, p::handle).map(s -> {
      p.server = s;
      return p;
    });
  }

  /** The endpoint URL. */
  String url() {
    return server.url("/geocode");
  }

  /** How many requests each misbehaviour answered. */
  Map<Misbehaviour, Long> counts() {
    Map<Misbehaviour, Long> m = new EnumMap<>(Misbehaviour.class);
    counts.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  /** Starts the counts again from zero. */
  void resetCounts() {
    counts.values().forEach(c -> c.set(0));
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

  private void handle(RawProvider.Exchange ex) {
    Misbehaviour m = choose(ex.query());
    counts.get(m).incrementAndGet();
    act(m, ex, new SplittableRandom(seed ^ ex.query().hashCode()));
  }

  private void act(Misbehaviour m, RawProvider.Exchange ex, SplittableRandom r) {
    switch (m) {
      case ANSWER -> json(ex, 200, point(r));
      case PROJECTED -> json(ex, 200, new JsonObject().put("x", r.nextDouble(-2e7, 2e7)).put("y", r.nextDouble(-1.9e7, 1.9e7))
          .put("crs", "EPSG:3857").put("confidence", r.nextDouble()));
      case SLOW -> vertx.setTimer(1 + r.nextLong(tierTimeoutMs * 3 / 2), id -> json(ex, 200, point(r)));
      case HANG -> { }
      case SERVER_ERROR -> text(ex, new int[] {500, 502, 503, 504}[r.nextInt(4)], "upstream trouble, try again later");
      case RATE_LIMITED -> text(ex, 429, "slow down", "Retry-After: " + (r.nextBoolean() ? "0" : "1"));
      case FAR_RETRY_AFTER -> text(ex, 429, "come back in a while", "Retry-After: "
          + new String[] {"99999999999", "9".repeat(40), "Fri, 31 Dec 9999 23:59:59 GMT"}[r.nextInt(3)]);
      case NO_MATCH -> text(ex, r.nextBoolean() ? 404 : 200, "");
      case GARBAGE -> garbage(ex, r);
      case BAD_CRS -> json(ex, 200, new JsonObject().put("x", 1e300).put("y", -1e300)
          .put("crs", r.nextBoolean() ? "EPSG:999999" : "urn:ogc:def:crs:NOPE::1").put("confidence", 0.5));
      case OVERSIZED -> {
        ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + 64L * 1024 * 1024 + "\r\n\r\n");
        ex.pump(Buffer.buffer("{\"x\":1,\"y\":2,\"label\":\"" + "a".repeat(64 * 1024)), 4L * 64 * 1024);
        vertx.setTimer(2000, id -> ex.close());
      }
      case CHUNKED_ENDLESS -> {
        ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        ex.pump(Buffer.buffer("4000\r\n" + "{\"x\":1},".repeat(0x4000 / 8) + "\r\n"), ENDLESS_LIMIT);
      }
      case READ_UNTIL_CLOSE -> {
        ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[");
        ex.pump(Buffer.buffer("[1,2],".repeat(4096)), ENDLESS_LIMIT);
      }
      case GZIP_BOMB -> ex.respond(200, "application/json", BOMB, "Content-Encoding: gzip");
      case TRICKLE -> trickle(ex, point(r).encode());
      case HUGE_LABEL -> ex.respond(200, "application/json", HUGE_LABEL_BODY);
      case ECHO_CREDENTIAL -> json(ex, 200, point(r).put("label", echo(ex)));
      case MALFORMED -> {
        if (r.nextBoolean()) {
          ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"x\":1,\"y\"\r\n");
        } else {
          ex.write("HTTP/1.1 2OO " + echo(ex).replace("\r", "").replace("\n", " ") + "\r\nContent-Length: 2\r\n\r\n{}");
        }
        vertx.setTimer(100, id -> ex.close());
      }
      case RESET -> ex.close();
    }
  }

  private static JsonObject point(SplittableRandom r) {
    return new JsonObject().put("x", r.nextDouble(-180, 180)).put("y", r.nextDouble(-90, 90)).put("crs", "EPSG:4326")
        .put("confidence", r.nextDouble()).put("label", "Somewhere " + r.nextInt(1000));
  }

  /** The request as an error page would print it back: line, every header, and a forged log line. */
  private static String echo(RawProvider.Exchange ex) {
    StringBuilder sb = new StringBuilder("You sent: GET ").append(ex.uri);
    ex.headers.forEach((k, v) -> sb.append("\r\n").append(k).append(": ").append(v));
    return sb.append("\n00:00:00.000 ERROR dev.georesolver.cli.Main - forged by the provider").toString();
  }

  private void trickle(RawProvider.Exchange ex, String body) {
    ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n");
    int[] at = {0};
    vertx.setPeriodic(50, id -> {
      if (ex.closed() || at[0] == body.length()) {
        vertx.cancelTimer(id);
      } else {
        ex.write(body.substring(at[0], ++at[0]));
      }
    });
  }

  private static void garbage(RawProvider.Exchange ex, SplittableRandom r) {
    String[] bodies = {
        "{\"x\": 1, \"y\": ", "not json at all", "[1,2,3]", "{\"x\": \"east\", \"y\": \"north\", \"crs\": 4326}",
        "{\"x\": NaN, \"y\": Infinity}", "{\"x\": 400, \"y\": 95, \"crs\": \"EPSG:4326\", \"confidence\": 7}",
        "{\"x\": 1e999, \"y\": -1e999, \"crs\": \"EPSG:4326\", \"confidence\": 0.5}", "\u0000\u0001\u0002",
        "{\"x\": 1, \"y\": 2, \"crs\": \"EPSG:4326\", \"confidence\": -1}", "null", "{}",
    };
    text(ex, 200, bodies[r.nextInt(bodies.length)]);
  }

  private static void json(RawProvider.Exchange ex, int status, JsonObject body) {
    if (!ex.closed()) {
      ex.respond(status, "application/json", body.toBuffer());
    }
  }

  private static void text(RawProvider.Exchange ex, int status, String body, String... headers) {
    if (!ex.closed()) {
      ex.respond(status, "text/plain", Buffer.buffer(body), headers);
    }
  }
}
