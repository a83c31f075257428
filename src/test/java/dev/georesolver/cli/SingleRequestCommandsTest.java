package dev.georesolver.cli;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code geocode} and {@code reverse}, end to end: in this process on a manifest whose rung is a
 * stand-in provider (or the gazetteer), and against a resolver started here with {@code --server};
 * each exit status.
 */
class SingleRequestCommandsTest {

  @TempDir
  static Path dir;

  private static Vertx vertx;
  private static StandIn standIn;
  private static Path manifest;
  private static Stack server;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    standIn = StandIn.start(vertx, 0);
    manifest = standIn.manifest(dir);
    server = Stack.deploy(vertx, Files.readString(manifest)).await();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  private static String serverUrl() {
    return "http://localhost:" + server.port;
  }

  @Nested
  @DisplayName("geocode")
  class Geocode {

    @Test
    @DisplayName("resolved: exit 0, the point as lat, lon, what it may claim and from which rung, what each rung did")
    void resolved() {
      CliRun.Result r = CliRun.run("geocode", "--manifest", manifest.toString(), "10 Downing St,", "London");
      assertThat(r.status()).as(r.toString()).isEqualTo(Exit.OK);
      JsonObject expected = StandIn.expected("10 Downing St, London");
      assertThat(r.out()).startsWith("resolved    " + expected.getValue("lat") + ", " + expected.getValue("lon")
          + "  (lat, lon, EPSG:4326)\n");
      assertThat(r.out()).contains("\nclaim       exact, from stand_in, confidence 0.95\n").contains("\nattempts    stand_in hit ");
      assertThat(standIn.provider.seen()).anySatisfy(s -> assertThat(s.query().get("q")).isEqualTo("10 Downing St, London"));
    }

    @Test
    @DisplayName("--json prints the result JSON on one line, the same as the server's")
    void json() {
      CliRun.Result r = CliRun.run("geocode", "--manifest", manifest.toString(), "--json", "--intent", "measure", "1 Main St");
      assertThat(r.status()).isZero();
      assertThat(r.out().lines()).hasSize(1);
      JsonObject result = new JsonObject(r.out());
      assertThat(result.getString("status")).isEqualTo("resolved");
      assertThat(result.getString("intent")).isEqualTo("measure");
      assertThat(result.getString("resolution_source")).isEqualTo("stand_in");
    }

    @Test
    @DisplayName("refused: exit 1 with the reason and the notice")
    void refused() {
      CliRun.Result r = CliRun.run("geocode", "--manifest", manifest.toString(), "nowhere at all");
      assertThat(r.status()).isEqualTo(Exit.NOT_RESOLVED);
      assertThat(r.out()).startsWith("refused     not_found\nnotice      No rung could answer: stand_in found nothing.");
    }

    @Test
    @DisplayName("an invalid request or option is exit 2, naming the field; nothing is asked")
    void invalid() {
      int before = standIn.provider.count();
      CliRun.Result tooLong = CliRun.run("geocode", "--manifest", manifest.toString(), "x".repeat(1001));
      assertThat(tooLong.status()).isEqualTo(Exit.USAGE);
      assertThat(tooLong.err()).contains("invalid request: q must be at most 1000 characters (got 1001)");
      assertThat(CliRun.run("geocode", "--manifest", manifest.toString(), "--intent", "nope", "x").err())
          .contains("invalid request: intent must be one of");
      assertThat(CliRun.run("geocode", "--manifest", manifest.toString(), "--bbox", "1,2,3", "x").err())
          .contains("--bbox must be minLon,minLat,maxLon,maxLat");
      assertThat(CliRun.run("geocode", "--manifest", manifest.toString(), "--budget-ms", "0", "x").status()).isEqualTo(Exit.USAGE);
      assertThat(CliRun.run("geocode", "--manifest", dir.resolve("missing.yaml").toString(), "x").status()).isEqualTo(Exit.USAGE);
      assertThat(standIn.provider.count()).isEqualTo(before);
    }

    @Test
    @DisplayName("a ladder that cannot serve the intent (its exact rung left out for want of a key) is exit 3, saying why")
    void misconfigured() {
      CliRun.Result r = CliRun.run("geocode", "--manifest", "conf/manifest.yaml", "--intent", "contain", "x");
      assertThat(r.status()).isEqualTo(Exit.UNAVAILABLE);
      assertThat(r.err()).contains("misconfigured: no rung can serve intent 'contain' (forward); disabled at start: primary_commercial");
    }

    @Test
    @DisplayName("--server: the same answer from a running resolver over HTTP")
    void server() {
      CliRun.Result embedded = CliRun.run("geocode", "--manifest", manifest.toString(), "--json", "5 Rue de Rivoli, Paris");
      CliRun.Result remote = CliRun.run("geocode", "--server", serverUrl(), "--json", "5 Rue de Rivoli, Paris");
      assertThat(remote.status()).as(remote.toString()).isZero();
      JsonObject a = new JsonObject(embedded.out());
      JsonObject b = new JsonObject(remote.out());
      for (String k : new String[] {"status", "lon", "lat", "claim", "resolution_source", "confidence", "idempotency_key"}) {
        assertThat(b.getValue(k)).as(k).isEqualTo(a.getValue(k));
      }
      assertThat(CliRun.run("geocode", "--server", serverUrl(), "nowhere").status()).isEqualTo(Exit.NOT_RESOLVED);
      assertThat(CliRun.run("geocode", "--server", serverUrl(), "x".repeat(1001)).err())
          .contains("invalid request: q must be at most 1000 characters");
    }

    @Test
    @DisplayName("--server unreachable is exit 3; a server that refuses the key is exit 2; a bad URL is exit 2")
    void serverFailures() throws Exception {
      int closed;
      try (ServerSocket s = new ServerSocket(0)) {
        closed = s.getLocalPort();
      }
      CliRun.Result unreachable = CliRun.run("geocode", "--server", "http://127.0.0.1:" + closed, "x");
      assertThat(unreachable.status()).isEqualTo(Exit.UNAVAILABLE);
      assertThat(unreachable.err()).contains("cannot reach http://127.0.0.1:" + closed);
      FakeProvider denying = FakeProvider.start(vertx, FakeProvider.status(401, "WWW-Authenticate", "Bearer")).await();
      CliRun.Result denied = CliRun.run(Map.of("GEO_API_KEY", "wrong-key"), "geocode", "--server", denying.url(), "x");
      assertThat(denied.status()).isEqualTo(Exit.USAGE);
      assertThat(denied.err()).contains("refused the key (HTTP 401)").doesNotContain("wrong-key");
      assertThat(denying.seen().get(0).headers().get("Authorization")).isEqualTo("Bearer wrong-key");
      assertThat(CliRun.run("geocode", "--server", "ftp://x", "x").status()).isEqualTo(Exit.USAGE);
    }
  }

  @Nested
  @DisplayName("reverse")
  class Reverse {

    @Test
    @DisplayName("resolved: exit 0; negative coordinates are coordinates, not options")
    void resolved() {
      CliRun.Result r = CliRun.run("reverse", "--manifest", manifest.toString(), "-33.9249", "18.4241");
      assertThat(r.status()).as(r.toString()).isZero();
      assertThat(r.out()).startsWith("resolved    -33.9239, 18.4251  (lat, lon, EPSG:4326)\n");
      assertThat(CliRun.run("reverse", "--server", serverUrl(), "--json", "-33.9249", "18.4241").out())
          .contains("\"lat\":-33.9239");
    }

    @Test
    @DisplayName("against the bundled gazetteer: the place, and how far it is from the point")
    void gazetteer() {
      CliRun.Result r = CliRun.run("reverse", "--manifest", "conf/manifest.yaml", "48.8584", "2.2945");
      assertThat(r.status()).as(r.toString()).isZero();
      assertThat(r.out()).contains("label       Paris, Île-de-France, France  (locality)\n")
          .contains("distance    4,011 m from the point asked\n").contains("from world_gazetteer");
    }

    @Test
    @DisplayName("coordinates out of range or not plain decimals, or --bbox, are exit 2 before anything starts")
    void invalid() {
      assertThat(CliRun.run("reverse", "95", "0")).satisfies(r -> {
        assertThat(r.status()).isEqualTo(Exit.USAGE);
        assertThat(r.err()).contains("lat 95 is out of range [-90, 90]");
      });
      assertThat(CliRun.run("reverse", "52,5", "13,4").err()).contains("lat '52,5' is not a plain decimal number");
      assertThat(CliRun.run("reverse", "--bbox", "0,0,1,1", "1", "2").status()).isEqualTo(Exit.USAGE);
      assertThat(CliRun.run("reverse", "1").status()).isEqualTo(Exit.USAGE);
    }
  }
}
