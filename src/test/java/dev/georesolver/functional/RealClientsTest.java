package dev.georesolver.functional;

import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

/**
 * Real geocoding clients from npm — Leaflet Control Geocoder (its Nominatim and Google geocoders)
 * and node-geocoder (its openstreetmap provider with {@code osmServer}) — configured only with
 * georesolver's URL, run unchanged in Node ({@code src/test/js/clients.mjs}) against a running
 * resolver whose ladder is {@link StandInLadder}: forward, reverse, no result, every rung failing, a
 * rate-limited tenant and a refused key. Each client must see its own normal result, "no result"
 * or error — never a crash.
 *
 * <p>The scenarios are data: {@link #SCENARIOS} holds one row per question and client with what
 * that client must see. Another client is one entry in {@code clients.mjs} plus its rows here.
 * The key cases run against a second resolver on the same ladder with tenants configured
 * ({@link #TENANTS}: an admitted key, a rate-limited one whose burst is spent before the clients
 * run, and any other key unknown), in a Vertx of its own so the two resolvers' event buses stay apart.
 *
 * <p>The clients are installed by {@code scripts/test.sh} into {@code target/npm} (pinned by
 * {@code src/test/js/package-lock.json}); when they are missing this test fails saying so.
 */
@ExtendWith(VertxExtension.class)
class RealClientsTest {

  private static final Path MODULES = Path.of("target", "npm");
  private static final Path SCRIPT = Path.of("src", "test", "js", "clients.mjs");

  /** The gated resolver's tenants: {@code good-key} admitted, {@code limited-key} one request in 1,000 s; {@code bad-key} is nobody's. */
  static final String TENANTS = """
      tenants:
        - { id: "acme", keys: [ { env: "GOOD_KEY" } ] }
        - { id: "limited", keys: [ { env: "LIMITED_KEY" } ], rate_limit_per_s: 0.001, burst: 1 }
      """;

  /** Which listener a scenario talks to. */
  enum Target { RESOLVER, GATED }

  /** What a client must report. */
  record Expect(String outcome, Integer http, String googleStatus, Double lat, Double lon, String message) {
    static Expect result(double lat, double lon) {
      return new Expect("result", null, null, lat, lon, null);
    }

    static Expect none(Integer http, String googleStatus) {
      return new Expect("none", http, googleStatus, null, null, null);
    }

    static Expect error(Integer http, String message) {
      return new Expect("error", http, null, null, null, message);
    }
  }

  /**
   * One question for one client.
   *
   * @param query forward: the address; reverse: null
   * @param key the key the client sends, or null
   */
  record Scenario(String name, String client, Target target, String query, Double lat, Double lon, String key, Expect expect) {
    static Scenario forward(String name, String client, String query, Expect e) {
      return new Scenario(name, client, Target.RESOLVER, query, null, null, null, e);
    }

    static Scenario reverse(String name, String client, double lat, double lon, Expect e) {
      return new Scenario(name, client, Target.RESOLVER, null, lat, lon, null, e);
    }

    static Scenario keyed(String name, String client, String query, String key, Expect e) {
      return new Scenario(name, client, Target.GATED, query, null, null, key, e);
    }
  }

  static final String LEAFLET_NOMINATIM = "leaflet-nominatim";
  static final String LEAFLET_GOOGLE = "leaflet-google";
  static final String NODE_GEOCODER = "node-geocoder-osm";

  static final List<Scenario> SCENARIOS = List.of(
      // Forward through the top rung.
      Scenario.forward("forward", LEAFLET_NOMINATIM, "10 Downing St, London", Expect.result(51.5033635, -0.1276248)),
      Scenario.forward("forward", LEAFLET_GOOGLE, "10 Downing St, London", Expect.result(51.5033635, -0.1276248)),
      Scenario.forward("forward", NODE_GEOCODER, "10 Downing St, London", Expect.result(51.5033635, -0.1276248)),
      // Reverse.
      Scenario.reverse("reverse", LEAFLET_NOMINATIM, 48.8631, 2.3889, Expect.result(48.8631361, 2.3889219)),
      Scenario.reverse("reverse", LEAFLET_GOOGLE, 48.8631, 2.3889, Expect.result(48.8631361, 2.3889219)),
      Scenario.reverse("reverse", NODE_GEOCODER, 48.8631, 2.3889, Expect.result(48.8631361, 2.3889219)),
      // Nothing found: each client's own "no result" (node-geocoder turns Nominatim's reverse
      // "Unable to geocode" into an error, as it does against Nominatim itself).
      Scenario.forward("no result", LEAFLET_NOMINATIM, "1 Nowhere Lane", Expect.none(200, null)),
      Scenario.forward("no result", LEAFLET_GOOGLE, "1 Nowhere Lane", Expect.none(200, "ZERO_RESULTS")),
      Scenario.forward("no result", NODE_GEOCODER, "1 Nowhere Lane", Expect.none(null, null)),
      Scenario.reverse("no result reverse", LEAFLET_NOMINATIM, 0.5, 0.5, Expect.none(200, null)),
      Scenario.reverse("no result reverse", LEAFLET_GOOGLE, 0.5, 0.5, Expect.none(200, "ZERO_RESULTS")),
      Scenario.reverse("no result reverse", NODE_GEOCODER, 0.5, 0.5, Expect.error(null, "Unable to geocode")),
      // Every rung failing: 503 / UNKNOWN_ERROR; the Leaflet Google geocoder ignores the status and
      // shows "Nothing found.", its normal reaction to any non-OK answer.
      Scenario.forward("outage", LEAFLET_NOMINATIM, "1 Outage Street", Expect.error(503, null)),
      Scenario.forward("outage", LEAFLET_GOOGLE, "1 Outage Street", Expect.none(200, "UNKNOWN_ERROR")),
      Scenario.forward("outage", NODE_GEOCODER, "1 Outage Street", Expect.error(null, null)),
      Scenario.reverse("outage reverse", LEAFLET_NOMINATIM, 1.5, 1.5, Expect.none(503, null)),
      Scenario.reverse("outage reverse", LEAFLET_GOOGLE, 1.5, 1.5, Expect.none(200, "UNKNOWN_ERROR")),
      Scenario.reverse("outage reverse", NODE_GEOCODER, 1.5, 1.5, Expect.error(null, null)),
      // Tenants (the Leaflet Nominatim geocoder cannot send a key header, so it has no rows here).
      Scenario.keyed("rate-limited tenant", LEAFLET_GOOGLE, "10 Downing St, London", "limited-key", Expect.none(200, "OVER_QUERY_LIMIT")),
      Scenario.keyed("rate-limited tenant", NODE_GEOCODER, "10 Downing St, London", "limited-key", Expect.error(null, null)),
      Scenario.keyed("refused key", LEAFLET_GOOGLE, "10 Downing St, London", "bad-key", Expect.none(200, "REQUEST_DENIED")),
      Scenario.keyed("refused key", NODE_GEOCODER, "10 Downing St, London", "bad-key", Expect.error(null, null)),
      Scenario.keyed("admitted tenant", NODE_GEOCODER, "10 Downing St, London", "good-key", Expect.result(51.5033635, -0.1276248)));

  @Test
  @DisplayName("Leaflet Control Geocoder and node-geocoder, unchanged, see their normal result, no result or error in every scenario")
  void realClients(Vertx vertx) throws Exception {
    assertClientsInstalled();
    StandInLadder ladder = StandInLadder.start(vertx);
    Stack stack = Stack.deploy(vertx, ladder.manifestYaml()).await();
    Vertx other = Vertx.vertx();
    Map<String, JsonObject> seen;
    try {
      Stack gated = Stack.deploy(other, ladder.manifestYaml() + TENANTS, Map.of("GOOD_KEY", "good-key", "LIMITED_KEY", "limited-key"),
          Clock.systemUTC(), Map.of()).await();
      assertThat(gated.client.get(gated.port, "localhost", "/search?q=10+Downing+St&format=json").putHeader("X-Api-Key", "limited-key")
          .send().await().statusCode()).as("the limited tenant's one request").isEqualTo(200);
      Map<Target, String> urls = Map.of(Target.RESOLVER, "http://127.0.0.1:" + stack.port,
          Target.GATED, "http://127.0.0.1:" + gated.port);
      seen = run(SCENARIOS, urls);
    } finally {
      other.close().await();
    }

    List<String> problems = new ArrayList<>();
    for (Scenario s : SCENARIOS) {
      JsonObject got = seen.get(s.name() + "/" + s.client());
      if (got == null) {
        problems.add(s.name() + "/" + s.client() + ": no output (the script crashed?)");
        continue;
      }
      check(s, got, problems);
    }
    assertThat(problems).as("every client's reaction, as printed by clients.mjs: %s", seen.values()).isEmpty();
  }

  private static void check(Scenario s, JsonObject got, List<String> problems) {
    String id = s.name() + "/" + s.client() + " " + got.encode();
    Expect e = s.expect();
    if (!e.outcome().equals(got.getString("outcome"))) {
      problems.add(id + ": outcome " + got.getString("outcome") + ", expected " + e.outcome());
      return;
    }
    JsonObject http = got.getJsonObject("http");
    if (e.http() != null && (http == null || !e.http().equals(http.getInteger("status")))) {
      problems.add(id + ": HTTP " + (http == null ? "none" : http.getInteger("status")) + ", expected " + e.http());
    }
    if (e.googleStatus() != null && (http == null || !e.googleStatus().equals(http.getString("google_status")))) {
      problems.add(id + ": Google status " + (http == null ? "none" : http.getString("google_status")) + ", expected " + e.googleStatus());
    }
    if (e.lat() != null) {
      assertThat(got.getDouble("lat")).as(id).isCloseTo(e.lat(), within(1e-6));
      assertThat(got.getDouble("lon")).as(id).isCloseTo(e.lon(), within(1e-6));
      assertThat(got.getString("label")).as(id + ": a result always has a name").isNotBlank();
    }
    if (e.message() != null && (got.getString("message") == null || !got.getString("message").contains(e.message()))) {
      problems.add(id + ": message " + got.getString("message") + ", expected to contain " + e.message());
    }
  }

  /** Runs the scenarios through {@code clients.mjs}; its lines by "name/client". */
  private static Map<String, JsonObject> run(List<Scenario> scenarios, Map<Target, String> urls) throws IOException, InterruptedException {
    JsonArray input = new JsonArray();
    for (Scenario s : scenarios) {
      JsonObject j = new JsonObject().put("name", s.name()).put("client", s.client()).put("url", urls.get(s.target()))
          .put("op", s.query() != null ? "forward" : "reverse");
      if (s.query() != null) {
        j.put("query", s.query());
      } else {
        j.put("lat", s.lat()).put("lon", s.lon());
      }
      if (s.key() != null) {
        j.put("key", s.key());
      }
      input.add(j);
    }
    Path file = Files.createTempFile("georesolver-clients", ".json");
    Files.writeString(file, input.encode());
    Path out = Files.createTempFile("georesolver-clients", ".out");
    Process p = new ProcessBuilder("node", SCRIPT.toString(), MODULES.toString(), file.toString())
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("clients.mjs did not finish within 120 s: " + Files.readString(out));
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("clients.mjs crashed:%n%s", output).isZero();
    Map<String, JsonObject> byId = new LinkedHashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("{")) {
        JsonObject j = new JsonObject(line);
        byId.put(j.getString("name") + "/" + j.getString("client"), j);
      }
    }
    Files.deleteIfExists(file);
    Files.deleteIfExists(out);
    return byId;
  }

  private static void assertClientsInstalled() {
    for (String pkg : List.of("leaflet", "leaflet-control-geocoder", "node-geocoder")) {
      if (!Files.isDirectory(MODULES.resolve("node_modules").resolve(pkg))) {
        fail("the npm client " + pkg + " is missing from " + MODULES.toAbsolutePath()
            + ": run scripts/test.sh, which installs src/test/js/package.json (pinned by its lockfile) there with npm ci");
      }
    }
  }
}
