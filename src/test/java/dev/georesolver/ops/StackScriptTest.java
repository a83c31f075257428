package dev.georesolver.ops;

import dev.georesolver.support.RedisServer;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.Tools;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/stack.sh} starts the local stack natively — Redis with AOF, the stand-in
 * providers, two resolver instances sharing the Redis — fails over when the primary stand-in is
 * switched to failing, replays one instance's answer on the other, and leaves no process behind.
 */
@ExtendWith(VertxExtension.class)
class StackScriptTest {

  private static Tools.Result stack(Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", "scripts/stack.sh"));
    cmd.addAll(List.of(args));
    return Tools.run(cmd, env, 150);
  }

  @Test
  @DisplayName("up, a failover through the stack, a replay across the two instances, status, then down stops every part")
  void upFailoverReplayDown(Vertx vertx) throws Exception {
    Path run = Files.createTempDirectory("georesolver-stack");
    Map<String, String> env = Map.of("GEO_STACK_DIR", run.toString(), "GEO_STACK_CLASSPATH", ResolverProcess.mainClasspath());
    List<Long> pids = new ArrayList<>();
    boolean down = false;
    try {
      Tools.Result up = stack(env, "up");
      assertThat(up.exit()).as(up.output()).isZero();
      assertThat(up.output()).contains("stack.sh: up in " + run)
          .containsPattern("redis +\\d+ +\\d+ +up +PONG; appendonly yes")
          .containsPattern("providers +\\d+ +\\d+ +up +primary :\\d+ ok \\(calls 0\\); secondary :\\d+ ok")
          .containsPattern("resolver-a +\\d+ +\\d+ +up +ready yes; primary=closed secondary=closed cached_index=closed world_gazetteer=closed; store reachable true")
          .containsPattern("resolver-b +\\d+ +\\d+ +up +ready yes");
      for (String part : List.of("redis", "providers", "resolver-a", "resolver-b")) {
        pids.add(Long.parseLong(Files.readString(run.resolve(part + ".pid")).strip()));
      }
      Tools.Result again = stack(env, "up");
      assertThat(again.exit()).isEqualTo(1);
      assertThat(again.output()).contains("already up");

      Properties ports = new Properties();
      ports.load(new StringReader(Files.readString(run.resolve("stack.env"))));
      int a = Integer.parseInt(ports.getProperty("RESOLVER_A_PORT"));
      int b = Integer.parseInt(ports.getProperty("RESOLVER_B_PORT"));
      String redis = "redis://127.0.0.1:" + ports.getProperty("REDIS_PORT");
      WebClient client = WebClient.create(vertx);
      String token = UUID.randomUUID().toString().substring(0, 8);

      JsonObject first = geocode(client, a, "1 Stack Street " + token);
      assertThat(first.getString("resolution_source")).isEqualTo("primary");
      assertThat(first.getBoolean("degraded")).isFalse();
      RedisServer.awaitKey(vertx, redis, "geo:idem:" + first.getString("idempotency_key"));
      JsonObject replay = geocode(client, b, "1 Stack Street " + token);
      assertThat(replay.getBoolean("replayed")).as("instance b replays instance a's answer from Redis").isTrue();
      assertThat(replay.getString("idempotency_key")).isEqualTo(first.getString("idempotency_key"));
      assertThat(replay.getString("resolution_source")).isEqualTo("primary");
      assertThat(replay.getDouble("lon")).isEqualTo(first.getDouble("lon"));

      Tools.Result fail = stack(env, "provider", "primary", "fail");
      assertThat(fail.exit()).as(fail.output()).isZero();
      assertThat(fail.output()).contains("\"mode\":\"fail\"");
      JsonObject failover = geocode(client, a, "2 Stack Street " + token);
      assertThat(failover.getString("resolution_source")).isEqualTo("secondary");
      assertThat(failover.getBoolean("degraded")).isTrue();
      assertThat(failover.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("transient");
      RedisServer.awaitKey(vertx, redis, "geo:idem:" + failover.getString("idempotency_key"));
      JsonObject degradedReplay = geocode(client, b, "2 Stack Street " + token);
      assertThat(degradedReplay.getBoolean("replayed")).isTrue();
      assertThat(degradedReplay.getString("resolution_source")).isEqualTo("secondary");
      assertThat(fallbackRecords(run.resolve("logs/resolver-a.log")))
          .as("instance a logged its fallback activation once, as JSON")
          .filteredOn(j -> failover.getString("trace_id").equals(j.getString("trace_id")))
          .singleElement().satisfies(j -> assertThat(j.getString("rung")).isEqualTo("secondary"));

      Tools.Result status = stack(env, "status");
      assertThat(status.exit()).isZero();
      assertThat(status.output()).containsPattern("primary :\\d+ fail \\(calls [1-9]\\d*\\)")
          .containsPattern("(?s)(.*\\bup\\b.*){4}");

      Tools.Result stop = stack(env, "down");
      down = true;
      assertThat(stop.exit()).as(stop.output()).isZero();
      assertThat(stop.output()).contains("stack.sh: down");
      for (long pid : pids) {
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pid " + pid + " after down").isFalse();
      }
      assertThat(stack(env, "status").output()).containsPattern("(?s)(.*\\bdown\\b.*){4}").doesNotContain(" up ");
    } finally {
      if (!down) {
        stack(env, "down");
      }
      deleteTree(run);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static JsonObject geocode(WebClient client, int port, String q) {
    return client.get(port, "127.0.0.1", "/v1/geocode").addQueryParam("q", q).send().await().bodyAsJsonObject();
  }

  private static List<JsonObject> fallbackRecords(Path log) throws IOException {
    return Files.readAllLines(log).stream().map(JsonObject::new)
        .filter(j -> j.getBoolean("fallback_chain_activated", false)).toList();
  }
}
