package dev.georesolver.bench;

import dev.georesolver.GeoResolver;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.DebtBatch;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.geo.Direction;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The reconciler's drain rate: {@code --items} debts queued while the primary's breaker is open,
 * then the primary recovers, and the time from its breaker closing to the queue being empty is
 * measured. The resolver runs in this JVM as {@code Main} deploys it (event loops and instances as
 * given), against the stand-in provider (its own Vert.x); the debts are queued through the state
 * verticle's own address, as the chains' buffers hand them over. Prints the figures with the load
 * average, since the machine may be shared.
 *
 * <pre>
 * java -cp target/georesolver-bench.jar dev.georesolver.bench.BenchMain drain [--items 10000]
 *     [--rate 100000] [--concurrency 8] [--batch 200] [--event-loops 2] [--provider-delay-ms 0]
 *     [--redis-url redis://127.0.0.1:6390]
 * </pre>
 */
public final class DrainBench {

  private DrainBench() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args);
    int items = f.integer("items", 10_000);
    int rate = f.integer("rate", 100_000);
    int concurrency = f.integer("concurrency", 8);
    int batch = f.integer("batch", 200);
    int loops = f.integer("event-loops", 2);
    int delay = f.integer("provider-delay-ms", 0);
    String redis = f.get("redis-url", null);
    int providerPort = freePort();
    Vertx providerVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    providerVertx.deployVerticle(() -> new StandInProvider(providerPort), new DeploymentOptions().setInstances(1)).await();
    String base = "http://127.0.0.1:" + providerPort;
    Path dir = Files.createTempDirectory("drain-bench");
    String yaml = String.format(Locale.ROOT, """
        routing:
          budget_ms: 2000
          idempotency: { deduplication_store: "%s" }
          tiers:
            - { name: primary, adapter: generic, endpoint: "%s/primary", claim: exact, timeout_ms: 500, typical_ms: 5,
                pool_size: 64, circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 1000, success_threshold: 1 } }
            - { name: fallback, adapter: generic, endpoint: "%s/fallback", claim: open_data, timeout_ms: 1000, typical_ms: 5 }
        state: { path: "%s" }
        reconcile: { rate_per_s: %d, batch: %d, concurrency: %d, interval_ms: 600000, lease_ms: 60000 }
        """, redis == null ? "memory" : "redis", base, base, dir.resolve("state.db"), rate, batch, concurrency);
    Manifest m = ManifestLoader.parse(yaml, Map.of());
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
    GeoResolver.Options d = GeoResolver.Options.defaults(0, Map.of());
    // A port chosen here: several ingress instances share one fixed port (port 0 would give each its own).
    GeoResolver.Options o = new GeoResolver.Options(freePort(), loops, loops, Map.of(), redis, Map.of(), Clock.systemUTC(), d.ticker(),
        d.random());
    int port = GeoResolver.deploy(vertx, m, o).await().port();
    WebClient web = WebClient.create(vertx);
    String load0 = loadAverage();

    // Open the primary's breaker with live traffic, then queue the debts.
    lane(web, providerPort, "primary", true, 0);
    for (int i = 0; i < 5; i++) {
      web.get(port, "127.0.0.1", "/v1/geocode").addQueryParam("q", "open the breaker " + i).send().await();
    }
    long seed0 = System.nanoTime();
    long now = System.currentTimeMillis();
    List<Debt> chunk = new ArrayList<>(500);
    for (int i = 0; i < items; i++) {
      String q = "bench item " + i + " Long Street";
      ResolveRequest req = new ResolveRequest(Direction.FORWARD, q, Map.of(), null, null, null, "describe", null, null);
      chunk.add(new Debt(dev.georesolver.normalize.IdempotencyKey.of(q, null), "describe", Direction.FORWARD, "public", req,
          "fallback", "resolved", null, "open_data", 1.0, 2.0, 0.6, now, now + i));
      if (chunk.size() == 500 || i == items - 1) {
        vertx.eventBus().request(Addresses.STATE_DEBTS_ENQUEUE, new DebtBatch(chunk), new DeliveryOptions().setSendTimeout(60_000))
            .await();
        chunk = new ArrayList<>(500);
      }
    }
    double seedS = (System.nanoTime() - seed0) / 1e9;
    JsonObject before = stats(vertx);

    // Recovery: live traffic until the breaker closes; then time the drain.
    lane(web, providerPort, "primary", false, delay);
    CompletableFuture<Long> closed = new CompletableFuture<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_EVENTS, msg -> {
      if ("primary".equals(msg.body().getString("tier")) && "closed".equals(msg.body().getString("to"))) {
        closed.complete(System.nanoTime());
      }
    }).completion().await();
    for (int i = 0; !closed.isDone(); i++) {
      web.get(port, "127.0.0.1", "/v1/geocode").addQueryParam("q", "probe " + i).send().await();
      Thread.sleep(50);
    }
    long t0 = closed.get();
    JsonObject after;
    while (true) {
      after = stats(vertx);
      if (after.getLong("pending") == 0 && after.getLong("in_progress") == 0) {
        break;
      }
      Thread.sleep(20);
    }
    long t1 = System.nanoTime();
    JsonObject status = vertx.eventBus().<JsonObject>request(Addresses.RECONCILE_STATUS, "").await().body();
    double secs = (t1 - t0) / 1e9;
    System.out.printf(Locale.ROOT, "drain bench: %d items on %s, rate_per_s %d, concurrency %d, batch %d, %d event loop(s), "
            + "provider delay %d ms%n", items, redis == null ? "sqlite" : "redis", rate, concurrency, batch, loops, delay);
    System.out.printf(Locale.ROOT, "  queued in %.2f s (%.0f debts/s through the state verticle); queue before the drain %s%n",
        seedS, items / seedS, before.encode());
    System.out.printf(Locale.ROOT, "  breaker closed -> queue empty: %.2f s, %.0f items/s (reconciler's 60 s window: %s/s); done %d%n",
        secs, items / secs, status.getValue("drain_rate_per_s"), after.getLong("done"));
    System.out.printf("  load average: %s at start, %s at the end (%d cores)%n", load0, loadAverage(),
        Runtime.getRuntime().availableProcessors());
    vertx.close().await();
    providerVertx.close().await();
    System.exit(0);
  }

  private static JsonObject stats(Vertx vertx) {
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_DEBTS_STATS, "").await().body();
  }

  private static void lane(WebClient web, int port, String name, boolean hang, int delayMs) {
    web.get(port, "127.0.0.1", "/_ctl/lane").addQueryParam("name", name).addQueryParam("hang", Boolean.toString(hang))
        .addQueryParam("delay_ms", Integer.toString(delayMs)).send().await();
  }

  private static String loadAverage() {
    try {
      String[] p = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return p[0] + " " + p[1] + " " + p[2];
    } catch (Exception e) {
      return "unknown";
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
