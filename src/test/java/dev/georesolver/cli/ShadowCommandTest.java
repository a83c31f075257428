package dev.georesolver.cli;

import dev.georesolver.geo.GreatCircle;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code georesolver shadow report} and {@code advise} against a running server and against its state file. */
@ExtendWith(VertxExtension.class)
class ShadowCommandTest {

  @Test
  @DisplayName("report: a table per pair and the plain sentence, from the server and from the state file alike; advise: no reorder on 20 samples, saying why")
  void shouldReportAndAdvise(Vertx vertx) throws Exception {
    double east = 2.35 + Math.toDegrees(120 / (GreatCircle.EARTH_RADIUS_M * Math.cos(Math.toRadians(48.85))));
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.95))).await();
    FakeProvider second = FakeProvider.start(vertx, json(generic(east, 48.85, "EPSG:4326", 0.9))).await();
    Path dir = TestState.freshDir();
    Path file = dir.resolve("manifest.yaml");
    Files.writeString(file, ManifestBuilder.manifest()
        .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20")
        .tier("second", "generic", second.url(), "exact", 600, "typical_ms: 20")
        .extra("shadow: { sample_rate: 1.0, max_per_s: 1000 }\nstate: { path: \"" + dir.resolve("state.db") + "\" }\n"
            + "reconcile: { enabled: false }\n")
        .yaml());
    Stack s = Stack.deployFile(vertx, file, Map.of("GEO_RELOAD_POLL_MS", "0"), Clock.systemUTC(), Map.of()).await();
    for (int i = 0; i < 20; i++) {
      s.geocode((i + 1) + " Rue de Rivoli, Paris").await();
    }
    String server = "http://localhost:" + s.port;
    CliRun.Result fromServer = CliRun.run("shadow", "report", "--server", server);
    for (int i = 0; i < 400 && !fromServer.out().contains("Shadow samples: 20 "); i++) {
      Thread.sleep(25);
      fromServer = CliRun.run("shadow", "report", "--server", server);
    }

    assertThat(fromServer.status()).as(fromServer.toString()).isZero();
    assertThat(fromServer.out()).contains("primary → second")
        .contains("second lands within 250 m of primary for 20 of 20 sampled addresses")
        .containsPattern("distance p50/p90/p99 +120 m / 120 m / 120 m");
    CliRun.Result fromFile = CliRun.run("shadow", "report", "--manifest", file.toString());
    assertThat(fromFile.status()).as(fromFile.toString()).isZero();
    assertThat(fromFile.out()).as("the store holds what the server showed").isEqualTo(fromServer.out());

    CliRun.Result advice = CliRun.run("shadow", "advise", "--manifest", file.toString(), "--server", server);
    assertThat(advice.status()).as(advice.toString()).isZero();
    assertThat(advice.out()).contains("No change to the order of routing.tiers is warranted")
        .contains("primary / second: keep").contains("only 20 samples (at least 200 needed)");
  }
}
