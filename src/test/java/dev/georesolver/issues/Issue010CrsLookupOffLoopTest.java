package dev.georesolver.issues;

import dev.georesolver.config.MarginsConfig;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;
import dev.georesolver.crs.CrsCatalog;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.tier.TierSpec;
import dev.georesolver.tier.TierVerticle;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.locationtech.proj4j.io.Proj4FileReader;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * An answer in a CRS the tier has no definition of yet is transformed without reading the EPSG
 * database on the event loop, and a code the database lacks is read once, not on every answer.
 */
@ExtendWith(VertxExtension.class)
class Issue010CrsLookupOffLoopTest {

  /** One read of the EPSG database: the code asked and whether it ran on an event loop. */
  record Read(String code, boolean onEventLoop, String thread) {}

  private final List<Read> reads = new CopyOnWriteArrayList<>();
  private final CrsCatalog catalog = CrsCatalog.of(Map.of(), code -> {
    reads.add(new Read(code, Context.isOnEventLoopThread(), Thread.currentThread().getName()));
    return new Proj4FileReader().getParameters(code);
  });

  private void deployTier(Vertx vertx, FakeProvider provider) throws Exception {
    Codecs.registerAll(vertx.eventBus());
    TierConfig tier = ManifestLoader.parse(manifest().tier("swiss", "generic", provider.url(), "exact", 2000).yaml(), Map.of())
        .enabledTiers().get(0);
    Random seeded = new Random(1);
    vertx.deployVerticle(new TierVerticle(new TierSpec(tier, null, 0.5, MarginsConfig.SECTION.defaults(), catalog, null, Clock.systemUTC(), Ticker.SYSTEM,
        () -> seeded, new Metrics()))).await();
  }

  private static TierReply visit(Vertx vertx, String q) {
    TierRequest req = new TierRequest(Direction.FORWARD, ForwardQuery.of(q), null, "key-" + q, "trace-" + q, 0, 0);
    return vertx.eventBus().<TierReply>request(Addresses.tier("swiss"), req,
        new DeliveryOptions().addHeader(Addresses.DEADLINE_HEADER, "3000")).map(Message::body).await();
  }

  @Test
  @DisplayName("a Swiss LV95 answer is looked up on a worker, then transformed; later answers read nothing")
  void unknownDefinitionIsLookedUpOnAWorker(Vertx vertx) throws Exception {
    FakeProvider bern = FakeProvider.start(vertx, json(generic(2_600_000, 1_200_000, "EPSG:2056", 0.9))).await();
    deployTier(vertx, bern);

    TierReply first = visit(vertx, "Bundesplatz 3, Bern");
    assertThat(first.kind()).as(String.valueOf(first)).isEqualTo(TierReply.Kind.HIT);
    assertThat(first.hit().lon()).isCloseTo(7.4386, within(0.001));
    assertThat(first.hit().lat()).isCloseTo(46.9511, within(0.001));
    assertThat(first.hit().transform().sourceCrs()).isEqualTo("EPSG:2056");
    for (int i = 0; i < 3; i++) {
      assertThat(visit(vertx, "again " + i).kind()).isEqualTo(TierReply.Kind.HIT);
    }

    assertThat(reads).extracting(Read::code).containsExactly("EPSG:2056");
    assertThat(reads).allSatisfy(r -> assertThat(r.onEventLoop()).as("read on %s", r.thread()).isFalse());
  }

  @Test
  @DisplayName("a code the EPSG database lacks is read once, and every later answer in it fails at once")
  void unknownCodeIsRememberedAsUnknown(Vertx vertx) throws Exception {
    FakeProvider nowhere = FakeProvider.start(vertx, json(generic(1, 2, "EPSG:32767", 0.9))).await();
    deployTier(vertx, nowhere);

    for (int i = 0; i < 5; i++) {
      TierReply r = visit(vertx, "nowhere " + i);
      assertThat(r.kind()).isEqualTo(TierReply.Kind.FAILED);
      assertThat(r.detail()).isEqualTo("crs: unknown CRS EPSG:32767: EPSG:32767");
    }

    assertThat(reads).extracting(Read::code).containsExactly("EPSG:32767");
    assertThat(reads).allSatisfy(r -> assertThat(r.onEventLoop()).as("read on %s", r.thread()).isFalse());
  }

  @Test
  @DisplayName("after the start-up warm-up, an answer in a common CRS reads nothing")
  void commonCrsIsWarmAtStart(Vertx vertx) throws Exception {
    FakeProvider mercator = FakeProvider.start(vertx, json(generic(261_600, 6_250_000, "EPSG:3857", 0.9))).await();
    vertx.executeBlocking(() -> {
      catalog.warm();
      return null;
    }).await();
    assertThat(reads).extracting(Read::code).containsAll(CrsCatalog.COMMON.stream().map(c -> c.canonical()).toList());
    reads.clear();
    deployTier(vertx, mercator);

    TierReply r = visit(vertx, "Paris");
    assertThat(r.kind()).isEqualTo(TierReply.Kind.HIT);
    assertThat(r.hit().lon()).isCloseTo(2.35, within(0.01));
    assertThat(reads).isEmpty();
  }
}
