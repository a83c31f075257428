package dev.georesolver.client;

import dev.georesolver.GeoResolver;
import dev.georesolver.bus.Role;
import dev.georesolver.client.example.StoreLocator;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * What {@code docs/embedding.md} shows, done: GeoResolver deployed inside the test's Vert.x (an
 * application's) with no HTTP port, on an offline ladder (the bundled gazetteer), the guide's own
 * verticle ({@link StoreLocator}) asking it through {@link GeoClient}, and the failures the guide
 * names. The guide's Java blocks are these lines, verbatim: {@link GuideSnippetsTest} fails when
 * they differ.
 */
@ExtendWith(VertxExtension.class)
class EmbeddingGuideTest {

  /** Deploys the guide's application: the resolver, then the verticle that uses it. */
  private static GeoResolver.Running deployTheGuidesApplication(Vertx vertx, Path stateDir) throws Exception {
    // The application's environment (credentials, MANIFEST_GIT_SHA): System.getenv() in production.
    Map<String, String> env = Map.of();
    // snippet:begin deploy
    Manifest manifest = ManifestLoader.parse("""
        routing:
          budget_ms: 1500
          tiers:
            - { name: world_gazetteer, adapter: gazetteer, claim: locality, timeout_ms: 200, typical_ms: 2 }
        intents:
          describe: { max_cache_age_s: 604800 }
        default_intent: describe
        state: { path: "%s" }
        """.formatted(stateDir.resolve("georesolver.db")), env);
    GeoResolver.Options options = GeoResolver.Options.defaults(0, env)
        .withInstances(1)
        .withRoles(Set.of(Role.CHAIN, Role.TIERS, Role.STATE));
    GeoResolver.Running running = GeoResolver.deploy(vertx, manifest, options).await();
    vertx.deployVerticle(new StoreLocator()).await();
    // snippet:end deploy
    return running;
  }

  @Test
  @DisplayName("the guide's verticle geocodes and reverse-geocodes through GeoClient and gets typed results; the resolver opens no port")
  void theGuidesApplicationAnswers(Vertx vertx, @TempDir Path stateDir) throws Exception {
    GeoResolver.Running running = deployTheGuidesApplication(vertx, stateDir);
    assertThat(running.port()).as("the HTTP port bound (-1: none)").isEqualTo(-1);

    // snippet:begin ask
    JsonObject paris = vertx.eventBus().<JsonObject>request("stores.locate", "Paris, Texas").await().body();
    JsonObject eiffel = vertx.eventBus().<JsonObject>request("stores.describe",
        new JsonObject().put("lat", 48.8584).put("lon", 2.2945)).await().body();
    // snippet:end ask

    assertThat(paris.getBoolean("found")).isTrue();
    assertThat(paris.getString("label")).isEqualTo("Paris, Texas, United States");
    assertThat(paris.getDouble("lat")).isCloseTo(33.66094, within(1e-5));
    assertThat(paris.getDouble("lon")).isCloseTo(-95.55551, within(1e-5));
    assertThat(paris.getString("claim")).isEqualTo("locality");
    assertThat(paris.getString("source")).isEqualTo("world_gazetteer");
    assertThat(eiffel.getBoolean("found")).isTrue();
    assertThat(eiffel.getString("label")).startsWith("Paris");
    assertThat(eiffel.getString("source")).isEqualTo("world_gazetteer");

    JsonObject nowhere = vertx.eventBus().<JsonObject>request("stores.locate", "qwxzv plorkington").await().body();
    assertThat(nowhere.getBoolean("found")).isFalse();
    assertThat(nowhere.getString("reason")).isNotBlank();

    ReplyException blank = catchThrowableOfType(ReplyException.class,
        () -> vertx.eventBus().request("stores.locate", "   ").await());
    assertThat(blank.failureCode()).isEqualTo(400);
    assertThat(blank.getMessage()).isEqualTo("BAD_REQUEST: q must not be empty");
  }

  @Test
  @DisplayName("a request with every option set comes back typed: the trace continued, a structured address, a bad request naming its field")
  void everyOptionOfARequest(Vertx vertx, @TempDir Path stateDir) throws Exception {
    deployTheGuidesApplication(vertx, stateDir);
    GeoClient geo = GeoClient.create(vertx);

    // snippet:begin request
    GeocodeRequest london = GeocodeRequest.address("10 Downing St, London")
        .intent("describe")
        .budget(Duration.ofMillis(800))
        .language("en")
        .bbox(-0.51, 51.28, 0.33, 51.69)
        .traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    GeocodeRequest lyon = GeocodeRequest.address(StructuredAddress.builder().locality("Lyon").country("France").build());
    GeocodeRequest nearTheTower = GeocodeRequest.point(48.8584, 2.2945);
    // snippet:end request

    GeocodeResult r = geo.geocode(london).await();
    assertThat(r.status()).isEqualTo(GeocodeResult.RESOLVED);
    assertThat(r.resolved()).isTrue();
    assertThat(r.label()).startsWith("London");
    assertThat(r.crs()).isEqualTo("EPSG:4326");
    assertThat(r.lat()).isBetween(51.28, 51.69);
    assertThat(r.claim()).isEqualTo("locality");
    assertThat(r.precision()).isEqualTo("locality");
    assertThat(r.resolutionSource()).isEqualTo("world_gazetteer");
    assertThat(r.intent()).isEqualTo("describe");
    assertThat(r.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(r.idempotencyKey()).hasSize(64);
    assertThat(r.manifestRevision()).isNotBlank();
    assertThat(r.confidence()).isBetween(0.0, 1.0);
    assertThat(r.attempts()).extracting(GeocodeResult.Attempt::tier, GeocodeResult.Attempt::outcome)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("world_gazetteer", "hit"));
    assertThat(r.replayed()).isFalse();
    assertThat(r.json().getString("resolution_source")).isEqualTo("world_gazetteer");

    GeocodeResult again = geo.geocode(london).await();
    assertThat(again.replayed()).isTrue();
    assertThat(again.replayAgeS()).isNotNull().isNotNegative();
    assertThat(again.idempotencyKey()).isEqualTo(r.idempotencyKey());

    assertThat(geo.geocode(lyon).await().label()).startsWith("Lyon");
    GeocodeResult tower = geo.geocode(nearTheTower).await();
    assertThat(tower.direction()).isEqualTo("reverse");
    assertThat(tower.distanceM()).isPositive();

    GeoClientException outside = catchThrowableOfType(GeoClientException.class,
        () -> geo.geocode(GeocodeRequest.point(91, 2.2945)).await());
    assertThat(outside.code()).isEqualTo(GeoClientException.Code.BAD_REQUEST);
    assertThat(outside.field()).isEqualTo("lat");
    assertThat(outside.problems()).extracting(GeoClientException.Problem::message).containsExactly("must be a number in [-90, 90]");
    assertThat(outside.failureCode()).isEqualTo(400);

    GeoClientException unknownIntent = catchThrowableOfType(GeoClientException.class,
        () -> geo.geocode(GeocodeRequest.address("Lyon").intent("teleport").language("not a tag")).await());
    assertThat(unknownIntent.problems()).extracting(GeoClientException.Problem::field).containsExactlyInAnyOrder("intent", "language");
  }

  @Test
  @DisplayName("with tenants configured, the client names its tenant: its intents apply; none or an unknown one is a bad request naming x-tenant")
  void tenants(Vertx vertx, @TempDir Path stateDir) throws Exception {
    Manifest manifest = ManifestLoader.parse("""
        routing:
          tiers:
            - { name: world_gazetteer, adapter: gazetteer, claim: locality, timeout_ms: 200, typical_ms: 2 }
        intents:
          describe: { max_cache_age_s: 604800 }
          measure: { max_cache_age_s: 3600 }
        default_intent: describe
        tenants:
          - { id: acme, keys: [ { env: ACME_KEY } ], intents: [describe] }
        state: { path: "%s" }
        """.formatted(stateDir.resolve("georesolver.db")), Map.of("ACME_KEY", "tk-acme-0c9d8e7f"));
    GeoResolver.deploy(vertx, manifest, GeoResolver.Options.defaults(0, Map.of()).withInstances(1)
        .withRoles(Set.of(Role.CHAIN, Role.TIERS, Role.STATE))).await();

    // snippet:begin tenant
    GeoClient acme = GeoClient.create(vertx).withTenant("acme");
    // snippet:end tenant
    assertThat(acme.geocode(GeocodeRequest.address("Lyon, France")).await().resolved()).isTrue();

    GeoClientException forbidden = catchThrowableOfType(GeoClientException.class,
        () -> acme.geocode(GeocodeRequest.address("Lyon, France").intent("measure")).await());
    assertThat(forbidden.code()).isEqualTo(GeoClientException.Code.FORBIDDEN);
    assertThat(forbidden.getMessage()).contains("acme", "measure");

    for (GeoClient c : new GeoClient[] {GeoClient.create(vertx), GeoClient.create(vertx).withTenant("nobody"), acme}) {
      GeocodeRequest q = c == acme ? GeocodeRequest.address("Lyon, France").tenant("nobody") : GeocodeRequest.address("Lyon, France");
      GeoClientException bad = catchThrowableOfType(GeoClientException.class, () -> c.geocode(q).await());
      assertThat(bad.code()).as("tenant %s", q.tenant() != null ? q.tenant() : c.tenant()).isEqualTo(GeoClientException.Code.BAD_REQUEST);
      assertThat(bad.field()).isEqualTo("x-tenant");
    }
  }

  @Test
  @DisplayName("the guide's other way to load a manifest, from a file, loads the project's default manifest")
  void manifestFromAFile() throws Exception {
    Map<String, String> env = Map.of();
    // snippet:begin manifest-file
    Manifest manifest = ManifestLoader.load(Path.of("conf/manifest.yaml"), env);
    // snippet:end manifest-file
    assertThat(manifest.enabledTiers()).extracting(t -> t.name()).contains("world_gazetteer");
  }

  @Test
  @DisplayName("with no resolver on the bus, a request fails UNAVAILABLE at once")
  void noResolver(Vertx vertx) {
    GeoClientException e = catchThrowableOfType(GeoClientException.class,
        () -> GeoClient.create(vertx).geocode(GeocodeRequest.address("Lyon")).await());
    assertThat(e.code()).isEqualTo(GeoClientException.Code.UNAVAILABLE);
    assertThat(e.failureCode()).isEqualTo(-1);
    assertThat(e.getMessage()).contains("geocode.resolve");
  }
}
