package dev.georesolver.functional;

import dev.georesolver.support.RedisServer;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Work done once per cluster: two clustered resolver nodes, each with every role, sharing one real
 * Redis. Degraded answers given by both queue their debts in the one stream; when the primary
 * recovers both reconcilers drain it through the store's consumer group, and every key is
 * corrected exactly once, whichever node answered it and whichever node's reconciler took it.
 */
@ExtendWith(VertxExtension.class)
class ClusterReconcileScenarioTest {

  static final int ADDRESSES = 12;

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static JsonObject get(WebClient web, int port, String path) {
    return web.get(port, "127.0.0.1", path).timeout(10_000).send().await().bodyAsJsonObject();
  }

  @Test
  @DisplayName("two clustered nodes on one Redis: debts from both drained once, each key corrected exactly once")
  void drainedOncePerCluster(Vertx vertx) throws Exception {
    DrillLadder l = DrillLadder.start(vertx);
    WebClient web = WebClient.create(vertx);
    String cluster = "georesolver-reconcile-" + ProcessHandle.current().pid();
    int hz1 = freePort();
    int hz2 = freePort();
    try (RedisServer redis = RedisServer.start()) {
      List<ResolverProcess> nodes = new ArrayList<>();
      try {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<ResolverProcess>> starting = new ArrayList<>();
        for (int[] hz : new int[][] {{hz1, hz2}, {hz2, hz1}}) {
          Path m = Files.createTempFile(TestState.freshDir(), "cluster-drill", ".yaml");
          Files.writeString(m, l.yaml(null, "rate_per_s: 8", "interval_ms: 500", "lease_ms: 1500"));
          starting.add(pool.submit(() -> ResolverProcess.start(DrillLadder.env(), ClusterScenarioTest.JVM, 90,
              "--manifest", m.toString(), "--port", "0", "--event-loops", "1", "--redis", redis.url(), "--cluster",
              "--cluster-name", cluster, "--cluster-host", "127.0.0.1", "--cluster-port", Integer.toString(hz[0]),
              "--cluster-members", "127.0.0.1:" + hz[1], "--cluster-insecure")));
        }
        for (Future<ResolverProcess> f : starting) {
          nodes.add(f.get(120, TimeUnit.SECONDS));
        }
        pool.shutdown();
        // Plaintext between the nodes, for this test only: allowed by the flag, and said loudly.
        assertThat(nodes.get(0).stdout()).anyMatch(line -> line.contains("WARN") && line.contains("CLUSTER INSECURE"));
        int p1 = nodes.get(0).port();
        int p2 = nodes.get(1).port();

        l.outage();
        Map<String, String> keys = new LinkedHashMap<>();
        for (int i = 0; i < ADDRESSES; i++) {
          String q = "cluster drill " + i + " Harbour Road";
          JsonObject r = web.get(i % 2 == 0 ? p1 : p2, "127.0.0.1", "/v1/geocode").addQueryParam("q", q).timeout(10_000)
              .send().await().bodyAsJsonObject();
          if (r.getBoolean("degraded", false)) {
            keys.put(q, r.getString("idempotency_key"));
          }
        }
        assertThat(keys).as("degraded answers from both nodes").hasSizeGreaterThanOrEqualTo(ADDRESSES / 2);
        DrillLadder.await("the debts of both nodes in the one queue", Duration.ofSeconds(20), () -> {
          JsonObject q = get(web, p1, "/v1/reconcile");
          return q.getLong("pending") + q.getLong("in_progress") + q.getLong("done") >= keys.size();
        });
        l.recover();
        // The reconciler walks only rungs whose breaker is closed, and live traffic probes a half-open
        // one: each node's own breaker closes on its own probes. A probe answered degraded is a debt too.
        int[] probe = {0};
        DrillLadder.await("the cluster drained the queue", Duration.ofSeconds(90), () -> {
          for (int port : new int[] {p1, p2}) {
            String q = "cluster probe " + probe[0]++ + " Quay";
            JsonObject r = web.get(port, "127.0.0.1", "/v1/geocode").addQueryParam("q", q).timeout(10_000).send().await()
                .bodyAsJsonObject();
            if (r.getBoolean("degraded", false)) {
              keys.put(q, r.getString("idempotency_key"));
            }
          }
          JsonObject q = get(web, p2, "/v1/reconcile");
          return q.getLong("pending") == 0 && q.getLong("in_progress") == 0 && q.getLong("done") >= keys.size();
        });
        List<String> corrected = new ArrayList<>();
        JsonArray cs = get(web, p1, "/v1/corrections?limit=100&after=0").getJsonArray("corrections");
        cs.forEach(c -> corrected.add(((JsonObject) c).getString("idempotency_key")));
        assertThat(corrected).as("zero keys corrected twice").doesNotHaveDuplicates();
        assertThat(corrected).as("zero items lost").containsAll(keys.values());
      } finally {
        for (ResolverProcess n : nodes) {
          n.close();
        }
      }
    }
  }
}
