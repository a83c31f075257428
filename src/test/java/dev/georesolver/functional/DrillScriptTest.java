package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.support.Tools;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/drill.sh} against a running resolver whose two top rungs are stand-in providers
 * (confidence 0.95 and 0.8): under steady load it forces tier 1 open, releases it, reports latency,
 * routing and confidence per phase, and exits 0 when traffic returned to tier 1 — and 1 when it did
 * not (tier 1 still failing after the release). Usage mistakes and an unreachable resolver exit 2.
 */
@ExtendWith(VertxExtension.class)
class DrillScriptTest {

  private static Stack stack(Vertx vertx, FakeProvider primary, FakeProvider secondary) {
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 1500, "typical_ms: 20", "retry_budget: 0",
            "circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 60000, success_threshold: 1 }")
        .tier("secondary", "generic", secondary.url(), "open_data", 1500, "typical_ms: 20")
        .tier("cached_index", "cached_index", null, "cached", 200, "typical_ms: 5")
        .yaml()).await();
  }

  private static Tools.Result drill(String url, String... options) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", "scripts/drill.sh", url));
    cmd.addAll(List.of(options));
    return Tools.run(cmd, Map.of(), 120);
  }

  @Test
  @DisplayName("forces tier 1 open under load, releases it, reports each phase, and sees traffic return (exit 0)")
  void trafficReturns(Vertx vertx) throws Exception {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.3522, 48.8566, "EPSG:4326", 0.95))).await();
    FakeProvider secondary = FakeProvider.start(vertx, json(generic(2.3525, 48.8569, "EPSG:4326", 0.8))).await();
    Stack s = stack(vertx, primary, secondary);

    Tools.Result r = drill("http://127.0.0.1:" + s.port, "--seconds", "4", "--rate", "40");
    System.out.println("scripts/drill.sh output:\n" + r.output());
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output())
        .contains("tier 1 is primary (ladder: primary, secondary, cached_index;")
        .contains("forced primary open (state forced_open)", "released primary (state closed)")
        .containsPattern("(?m)^before +\\d+ +0 +[\\d.]+ +[\\d.]+ +[\\d.]+ +\\d+ +\\d+$")
        .containsPattern("(?m)^during +\\d+ +0 ")
        .containsPattern("(?m)^after +\\d+ +0 ")
        .containsPattern("(?m)^  before +primary [\\d.]+% \\([\\d.]+%\\)")
        .containsPattern("(?m)^  during .*secondary [\\d.]+% \\(100\\.0%\\)")
        .containsPattern("(?m)^  before +0\\.95 ")
        .containsPattern("(?m)^  during .*0\\.80 [\\d.]+%")
        .contains("ok: while forced open, primary served no walked answer")
        .containsPattern("ok: traffic returned to primary: [\\d.]+% of walked answers after release");
    assertThat(s.get("/health/ready").await().bodyAsJsonObject().getJsonArray("tiers").getJsonObject(0).getString("state"))
        .as("the drill leaves the breaker released").isEqualTo("closed");
  }

  @Test
  @DisplayName("exits 1 when traffic does not return: tier 1 keeps failing after the release")
  void trafficDoesNotReturn(Vertx vertx) throws Exception {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.3522, 48.8566, "EPSG:4326", 0.95))).await();
    FakeProvider secondary = FakeProvider.start(vertx, json(generic(2.3525, 48.8569, "EPSG:4326", 0.8))).await();
    Stack s = stack(vertx, primary, secondary);
    // The real outage begins with the drill: tier 1 fails from the moment it is forced open.
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> {
      if ("forced_open".equals(m.body().getString("to"))) {
        primary.behave(FakeProvider.status(503, "down"));
      }
    });

    Tools.Result r = drill("http://127.0.0.1:" + s.port, "--seconds", "2", "--rate", "40");
    assertThat(r.exit()).as(r.output()).isEqualTo(1);
    assertThat(r.output()).contains("ok: while forced open, primary served no walked answer")
        .containsPattern("FAILED: traffic did not return to primary: [\\d.]+% of walked answers after release, [\\d.]+% before");
  }

  @Test
  @DisplayName("exits 2 for a usage mistake, an unreachable resolver or a tier the resolver does not run")
  void usageAndUnreachable(Vertx vertx) throws Exception {
    Tools.Result usage = drill("http://127.0.0.1:1", "--rate", "0");
    assertThat(usage.exit()).isEqualTo(2);
    assertThat(usage.output()).contains("--rate must be a positive whole number", "usage: scripts/drill.sh");

    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Tools.Result unreachable = drill("http://127.0.0.1:" + closed, "--seconds", "1");
    assertThat(unreachable.exit()).isEqualTo(2);
    assertThat(unreachable.output()).contains("does not answer");

    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p, p);
    Tools.Result unknown = drill("http://127.0.0.1:" + s.port, "--tier", "nope", "--seconds", "1", "--rate", "5");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.output()).contains("POST /admin/tiers/nope/force-open answered 404");
  }
}
