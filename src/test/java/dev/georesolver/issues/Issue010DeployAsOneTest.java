package dev.georesolver.issues;

import dev.georesolver.GeoResolver;
import dev.georesolver.bus.Addresses;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.tier.LocalAdapterFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The resolver deploys as one verticle: a part failing to start leaves nothing running, and undeploying it stops every part. */
@ExtendWith(VertxExtension.class)
class Issue010DeployAsOneTest {

  private static Manifest manifestFor(FakeProvider osm) throws Exception {
    return ManifestLoader.parse(manifest()
        .tier("osm", "generic", osm.url(), "open_data", 500)
        .tier("cache", "cached_index", null, "cached", 200)
        .tier("city", "gazetteer", null, "locality", 200)
        .yaml(), Map.of());
  }

  private static GeoResolver.Options options(int port, Map<String, LocalAdapterFactory> local) {
    Random seeded = new Random(7);
    return new GeoResolver.Options(port, 2, 2, Map.of(), null, local, Clock.systemUTC(), Ticker.SYSTEM, () -> seeded);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("localhost", port), 1000);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }

  /**
   * Whether the port stops accepting within {@code ms}: the shared server's acceptor is closed on the
   * acceptor's own event loop, which may finish a moment after the undeploy has completed.
   */
  private static boolean closedWithin(int port, long ms) throws InterruptedException {
    long until = System.nanoTime() + ms * 1_000_000L;
    while (listening(port)) {
      if (System.nanoTime() > until) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /** Every address a part of the resolver listens on, and whether anything still does. */
  private static void assertNothingListens(Vertx vertx) {
    for (String address : List.of(Addresses.DEDUPE_STATUS, Addresses.INDEX_STATUS, Addresses.tierStatus("osm"),
        Addresses.tierStatus("cache"), Addresses.HEALTH)) {
      assertThatThrownBy(() -> vertx.eventBus().request(address, "").await())
          .as(address)
          .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.failureType()).isEqualTo(ReplyFailure.NO_HANDLERS));
    }
  }

  @Test
  @DisplayName("a tier whose adapter cannot be built fails the deploy, and what had started is undeployed")
  void failedStartLeavesNothingDeployed(Vertx vertx) throws Exception {
    FakeProvider osm = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    int port = freePort();
    LocalAdapterFactory broken = (v, tier) -> Future.failedFuture(new IllegalStateException("gazetteer data missing"));

    assertThatThrownBy(() -> GeoResolver.deploy(vertx, manifestFor(osm), options(port, Map.of("gazetteer", broken))).await())
        .hasMessageContaining("gazetteer data missing");

    assertThat(vertx.deploymentIDs()).as("dedupe, index and the tiers before it undeployed").isEmpty();
    assertNothingListens(vertx);
    assertThat(listening(port)).isFalse();
  }

  @Test
  @DisplayName("undeploying the resolver undeploys every part and closes its port")
  void undeployStopsEveryPart(Vertx vertx) throws Exception {
    FakeProvider osm = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    GeoResolver.Running running = GeoResolver.deploy(vertx, manifestFor(osm), options(0, Map.of())).await();
    assertThat(listening(running.port())).isTrue();
    assertThat(vertx.deploymentIDs()).hasSizeGreaterThan(1).contains(running.deploymentId());

    vertx.undeploy(running.deploymentId()).await();

    assertThat(vertx.deploymentIDs()).isEmpty();
    assertNothingListens(vertx);
    assertThat(closedWithin(running.port(), 2000)).as("port " + running.port() + " closed").isTrue();
  }
}
