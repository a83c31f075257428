package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import dev.georesolver.support.Tools;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded store across restarts: with the memory store, replays and the cached index come back
 * from the SQLite file after a restart; a state file that is not a database, or that another
 * process holds, stops start-up with a clear message and exit status 2; the file's directory is
 * created when missing.
 */
class StateRestartScenarioTest {

  private static String yaml(FakeProvider primary, Path state) {
    return manifest()
        .tier("primary", "generic", primary.url(), "exact", 300,
            "circuit_breaker: { failure_threshold: 1000, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 5")
        .extra("state: { path: \"" + state + "\" }")
        .yaml();
  }

  @Test
  @DisplayName("after a restart the replays and the cached-index rung answer exactly as before it")
  void cacheSurvivesARestart() {
    Path state = TestState.freshDir().resolve("deep/er/state.db");
    Vertx before = Vertx.vertx();
    JsonObject first;
    FakeProvider primary;
    try {
      primary = FakeProvider.start(before, FakeProvider.json(FakeProvider.generic(7.1, 46.2, "EPSG:4326", 0.9))).await();
      Stack s = Stack.deploy(before, yaml(primary, state)).await();
      first = s.geocode("3 Rue du Lac, Geneva").await().bodyAsJsonObject();
      assertThat(first.getString("resolution_source")).isEqualTo("primary");
      sleep(600);
    } finally {
      before.close().await();
    }
    assertThat(Files.exists(state)).as("its directory was created").isTrue();
    Vertx after = Vertx.vertx();
    try {
      FakeProvider down = FakeProvider.start(after, FakeProvider.status(503, "down")).await();
      Stack s = Stack.deploy(after, yaml(down, state)).await();
      JsonObject replay = s.geocode("3 Rue du Lac, Geneva").await().bodyAsJsonObject();
      assertThat(replay.getBoolean("replayed", false)).as("replayed from the reloaded store").isTrue();
      assertThat(replay.getString("resolution_source")).isEqualTo("primary");
      assertThat(replay.getDouble("lon")).isEqualTo(first.getDouble("lon"));
      assertThat(replay.getLong("replay_age_s")).as("its age counts from when it was stored").isGreaterThanOrEqualTo(0);
      assertThat(down.count()).isZero();
      // Another bbox makes another idempotency key: the walk reaches the cached index, which still knows the address.
      JsonObject cached = s.geocode("3 Rue du Lac, Geneva", "bbox", "6,45,8,47").await().bodyAsJsonObject();
      assertThat(cached.getString("resolution_source")).isEqualTo("cache");
      assertThat(cached.getString("claim")).isEqualTo("cached");
      assertThat(cached.getDouble("lon")).isEqualTo(first.getDouble("lon"));
      assertThat(cached.getLong("observed_at_ms")).isEqualTo(first.getLong("resolved_at_ms"));
    } finally {
      after.close().await();
    }
  }

  private static Tools.Result main(Path manifest) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(ResolverProcess.javaBin(), "-Xmx128m", "-cp", ResolverProcess.mainClasspath(),
        "dev.georesolver.cli.Main", "--manifest", manifest.toString(), "--port", "0"));
    return Tools.run(cmd, Map.of(), 60);
  }

  @Test
  @DisplayName("a state file that is not a database stops start-up with exit 2 and says so")
  void notADatabase() throws Exception {
    Path dir = TestState.freshDir();
    Path state = dir.resolve("state.db");
    Files.writeString(state, "definitely not SQLite ".repeat(100));
    Path m = dir.resolve("m.yaml");
    Files.writeString(m, manifest().tier("g", "gazetteer", null, "locality", 200).extra("state: { path: \"" + state + "\" }").yaml());
    Tools.Result r = main(m);
    assertThat(r.exit()).as(r.output()).isEqualTo(2);
    assertThat(r.output()).contains("refusing to start").contains("is not a SQLite database").contains(state.toString());
  }

  @Test
  @DisplayName("a state file held by another resolver process stops start-up with exit 2 and says so")
  void lockedByAnotherProcess() throws Exception {
    Path dir = TestState.freshDir();
    Path state = dir.resolve("state.db");
    Path m = dir.resolve("m.yaml");
    Files.writeString(m, manifest().tier("g", "gazetteer", null, "locality", 200).extra("state: { path: \"" + state + "\" }").yaml());
    try (ResolverProcess holder = ResolverProcess.start(Map.of(), "--manifest", m.toString(), "--port", "0", "--event-loops", "1")) {
      Tools.Result r = main(m);
      assertThat(r.exit()).as(r.output()).isEqualTo(2);
      assertThat(r.output()).contains("refusing to start").contains("in use by another process");
      assertThat(holder.alive()).isTrue();
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
