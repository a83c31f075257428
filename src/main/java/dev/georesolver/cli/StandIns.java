package dev.georesolver.cli;

import dev.georesolver.config.TierConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One HTTP server on 127.0.0.1 (a free port each) per remote rung, standing in for its provider
 * during {@code validate --simulate}: every request is answered with {@link TierConfig#standInBody} in
 * the rung's own dialect after the rung's {@code typical_ms} (a timer, never a blocked event loop), and
 * the {@code Idempotency-Key} of every request is counted, so the simulation can tell which
 * rungs a tenant's addresses reached and whether a replay asked a provider again.
 *
 * <p>Thread-safe: the servers' handlers run on event loops, the command reads {@link #received}
 * from its own thread. Each rung remembers at most {@link #MAX_KEYS} keys per case.
 */
final class StandIns {

  /** The most keys one stand-in remembers between two {@link #clear}s: a bound above any plan's load. */
  static final int MAX_KEYS = 4 * SimulationPlan.MAX_REQUESTS;

  private final Map<String, HttpServer> servers;
  private final Map<String, Map<String, Integer>> received;

  private StandIns(Map<String, HttpServer> servers, Map<String, Map<String, Integer>> received) {
    this.servers = servers;
    this.received = received;
  }

  /** Starts a stand-in for each remote rung of {@code tiers} (local rungs need none). */
  static Future<StandIns> start(Vertx vertx, List<TierConfig> tiers) {
    Map<String, Map<String, Integer>> received = new ConcurrentHashMap<>();
    Map<String, Future<HttpServer>> starting = new LinkedHashMap<>();
    for (TierConfig t : tiers) {
      String body = t.standInBody().orElse(null);
      if (body == null) {
        continue;
      }
      Map<String, Integer> keys = new ConcurrentHashMap<>();
      received.put(t.name(), keys);
      starting.put(t.name(), vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
          .requestHandler(r -> answer(vertx, r, body, t.typicalMs(), keys))
          .listen());
    }
    return Future.all(List.copyOf(starting.values())).map(v -> {
      Map<String, HttpServer> servers = new LinkedHashMap<>();
      starting.forEach((name, f) -> servers.put(name, f.result()));
      return new StandIns(servers, received);
    });
  }

  private static void answer(Vertx vertx, HttpServerRequest r, String body, long delayMs, Map<String, Integer> keys) {
    String key = r.getHeader("Idempotency-Key");
    if (key != null && (keys.size() < MAX_KEYS || keys.containsKey(key))) {
      keys.merge(key, 1, Integer::sum);
    }
    // The whole request read first (a POST dialect sends a body), then the provider's usual time.
    r.body().onComplete(read -> vertx.setTimer(delayMs, id -> r.response()
        .putHeader("content-type", "application/json; charset=utf-8")
        .end(body)));
  }

  /** Per remote rung, its stand-in's base URL, {@code http://127.0.0.1:<port>}. */
  Map<String, String> urls() {
    Map<String, String> out = new LinkedHashMap<>();
    servers.forEach((name, s) -> out.put(name, "http://127.0.0.1:" + s.actualPort()));
    return out;
  }

  /** Per remote rung, a copy of the idempotency keys its stand-in was sent since the last {@link #clear}. */
  Map<String, Set<String>> received() {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    received.forEach((name, keys) -> out.put(name, Set.copyOf(keys.keySet())));
    return out;
  }

  /** How many times any stand-in was sent {@code key} since the last {@link #clear}. */
  int times(String key) {
    return key == null ? 0 : received.values().stream().mapToInt(keys -> keys.getOrDefault(key, 0)).sum();
  }

  /** Forgets the keys received: a new case begins. */
  void clear() {
    received.values().forEach(Map::clear);
  }
}
