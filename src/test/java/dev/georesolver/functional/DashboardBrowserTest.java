package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.support.Tools;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The dashboard in a real browser: headless Chromium ({@code /usr/bin/chromium}) driven by
 * playwright-core ({@code src/test/js/dashboard.mjs}) against a resolver whose two top rungs are
 * stand-in providers, while the script sends steady traffic. The page loads without a console
 * error, a forced-open breaker shows as forced open within two seconds, the routing chart moves to
 * the second rung and back when the first is forced open and released, and the reconcile panel says
 * "no reconciler" until reconciler news arrives (published here once the breaker is released).
 * Shadow sampling is on for every answer, and the two stand-ins answer about 40 m apart: the shadow
 * panel says "no samples yet" before the traffic, then its cell (first rung served, second rung
 * shadow) shows 100 % within 250 m, coloured good, with a sample count. The screenshot is left in
 * {@code target/dashboard.png}.
 *
 * <p>{@code scripts/test.sh} installs Chromium (Debian's {@code chromium}) and playwright-core
 * (into {@code target/npm}); when either is missing this test fails saying so.
 */
@ExtendWith(VertxExtension.class)
class DashboardBrowserTest {

  private static final Path MODULES = Path.of("target", "npm");
  private static final Path SCRIPT = Path.of("src", "test", "js", "dashboard.mjs");
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path SCREENSHOT = Path.of("target", "dashboard.png");
  /** Marks the reconciler news this test publishes. */
  private static final String FROM_TEST = "x-dashboard-test";

  @Test
  @DisplayName("no console error; forced open shown within 2 s; the distribution shifts to tier 2 and back; no reconciler until one speaks;"
      + " the shadow matrix shows tier 1 → tier 2 agreeing")
  void dashboardInChromium(Vertx vertx) throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      fail(CHROMIUM + " is missing: run scripts/test.sh, which installs Debian's chromium package (as root)");
    }
    if (!Files.isDirectory(MODULES.resolve("node_modules").resolve("playwright-core"))) {
      fail("playwright-core is missing from " + MODULES.toAbsolutePath()
          + ": run scripts/test.sh, which installs src/test/js/package.json (pinned by its lockfile) there with npm ci");
    }
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.3522, 48.8566, "EPSG:4326", 0.95))).await();
    FakeProvider secondary = FakeProvider.start(vertx, json(generic(2.3525, 48.8569, "EPSG:4326", 0.8))).await();
    publishReconcilerNewsAfterRelease(vertx, "primary_commercial");
    Stack s = Stack.deploy(vertx, manifest()
        .tier("primary_commercial", "generic", primary.url(), "exact", 800, "typical_ms: 20")
        .tier("osm_nominatim", "generic", secondary.url(), "open_data", 800, "typical_ms: 30")
        .tier("cached_index", "cached_index", null, "cached", 200, "typical_ms: 5")
        .tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra("shadow: { sample_rate: 1.0, max_per_s: 20 }")
        .yaml()).await();
    Files.deleteIfExists(SCREENSHOT);

    Tools.Result run = Tools.run(List.of("node", SCRIPT.toString(), MODULES.toString(), "http://127.0.0.1:" + s.port,
        "primary_commercial", "osm_nominatim", SCREENSHOT.toString()), Map.of(), 180);
    JsonObject seen = lastJsonLine(run);
    assertThat(run.exit()).as("dashboard.mjs:%n%s", run.output()).isZero();
    assertThat(seen.getString("failure")).as("every step happened in time: %s", seen.encodePrettily()).isNull();

    assertThat(seen.getJsonArray("console_errors")).as("console errors").isEmpty();
    assertThat(seen.getJsonArray("page_errors")).as("uncaught page errors").isEmpty();
    assertThat(seen.getJsonArray("failed_requests")).as("failed requests").isEmpty();
    assertThat(seen.getJsonArray("ladder").stream().map(o -> ((JsonObject) o).getString("tier")))
        .as("the ladder top to bottom").containsExactly("primary_commercial", "osm_nominatim", "cached_index", "world_gazetteer");
    assertThat(seen.getString("reconcile_state")).isEqualTo("none");
    assertThat(seen.getString("reconcile_text")).isEqualTo("no reconciler");

    assertThat(seen.getLong("forced_open_shown_ms")).as("forced open shown within two seconds").isLessThanOrEqualTo(2000);
    assertThat(seen.getJsonObject("share_before").getDouble("tier1")).isGreaterThanOrEqualTo(0.9);
    assertThat(seen.getJsonObject("share_forced").getDouble("tier2")).as("the distribution moved to tier 2").isGreaterThanOrEqualTo(0.6);
    assertThat(seen.getJsonObject("share_forced").getDouble("tier1")).isLessThan(0.2);
    assertThat(seen.getBoolean("tier2_path_changed")).as("tier 2's area on the routing chart changed").isTrue();
    assertThat(seen.getString("released_state")).isEqualTo("closed");
    assertThat(seen.getJsonObject("share_released").getDouble("tier1")).as("and back to tier 1").isGreaterThanOrEqualTo(0.6);

    assertThat(seen.getString("reconcile_live_text")).contains("backlog", "12", "oldest waiting", "95 s", "done (7 days)", "30",
        "dead letters").doesNotContain("corrected");
    assertThat(seen.getString("corrections_text")).contains("osm_nominatim → primary_commercial", "140 m");

    assertThat(seen.getString("shadow_text_at_load")).isEqualTo("no samples yet");
    JsonObject cell = seen.getJsonObject("shadow_cell");
    assertThat(cell.getString("row")).as("the row of the first rung").isEqualTo("primary_commercial");
    assertThat(cell.getString("pct")).as("answers 40 m apart: all within 250 m").isEqualTo("100\u00a0%");
    assertThat(cell.getString("n")).matches("[1-9][0-9,]*");
    assertThat(cell.getLong("samples")).isPositive();
    assertThat(Long.parseLong(cell.getString("n").replace(",", ""))).isEqualTo(cell.getLong("samples"));
    assertThat(cell.getString("cls")).as("coloured good").isEqualTo("good");
    assertThat(cell.getString("title")).contains("primary_commercial → osm_nominatim", "within 250 m: 100 % of those both found", "p50 ", " m · p90 ");
    assertThat(seen.getString("shadow_reverse_cls")).as("osm_nominatim's answers were never shadowed by primary_commercial").isEqualTo("empty");
    assertThat(seen.getString("shadow_self_cls")).isEqualTo("self");

    assertThat(Files.size(SCREENSHOT)).as("a screenshot was taken").isGreaterThan(10_000);
  }

  /**
   * Once {@code tier}'s breaker is released, publishes a reconciler status every second and one
   * correction. The resolver's own reconciler (switched off, but deployed) announces its empty
   * backlog every few seconds; those announcements are dropped here, so the panel says "no
   * reconciler" until the test speaks and then shows only what the test said.
   */
  private static void publishReconcilerNewsAfterRelease(Vertx vertx, String tier) {
    vertx.eventBus().<Object>addOutboundInterceptor(dc -> {
      if (Addresses.RECONCILE_EVENTS.equals(dc.message().address()) && dc.message().headers().get(FROM_TEST) == null) {
        return;
      }
      dc.next();
    });
    DeliveryOptions fromTest = new DeliveryOptions().addHeader(FROM_TEST, "1");
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> {
      if (tier.equals(m.body().getString("tier")) && "release".equals(m.body().getString("reason"))) {
        // The backlog first, then the correction: the page reads the panel once the correction is
        // listed, so the backlog must already be there (a periodic's first run came after it).
        JsonObject backlog = new JsonObject().put("type", "reconcile").put("pending", 12).put("in_progress", 1).put("done", 30)
            .put("dead", 2).put("oldest_pending_age_s", 95);
        vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, backlog, fromTest);
        vertx.setPeriodic(1000, id -> vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, backlog.copy(), fromTest));
        vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, new JsonObject().put("type", "correction").put("at_ms", System.currentTimeMillis())
            .put("served_by", "osm_nominatim").put("corrected_by", tier).put("moved_m", 140).put("label", "12 Rue de Rivoli, Paris"), fromTest);
      }
    });
  }

  private static JsonObject lastJsonLine(Tools.Result run) {
    String[] lines = run.output().split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      if (lines[i].startsWith("{")) {
        return new JsonObject(lines[i]);
      }
    }
    throw new AssertionError("dashboard.mjs printed no result:\n" + run.output());
  }
}
