package dev.georesolver.cache;

import dev.georesolver.config.MarginsConfig;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.geo.Claim;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.FakeClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** The dedupe verticle alone on the bus, with the in-process store: each verdict a claim can get. */
@ExtendWith(VertxExtension.class)
class DedupeVerticleTest {

  private static final long HOUR = 3_600_000;
  private static final String KEY = "ab12cd34";
  private static final String FLIGHT = KEY + "|describe|FORWARD";

  private final FakeClock clock = new FakeClock();

  private static final ResolveResult ANSWER = ResolveResult.builder().status(ResolveResult.RESOLVED).lon(2.35)
      .lat(48.85).resolutionSource("primary").claim(Claim.EXACT).intent("describe").idempotencyKey(KEY)
      .traceId("leader").resolvedAtMs(1_767_225_600_000L).build();

  @BeforeEach
  void deploy(Vertx vertx) throws Exception {
    var idem = ManifestLoader.parse(manifest().tier("primary", "generic", "http://127.0.0.1:9/", "exact", 500).yaml(),
        Map.of()).routing().idempotency();
    Codecs.registerAll(vertx.eventBus());
    vertx.deployVerticle(new DedupeVerticle(idem, MarginsConfig.SECTION.defaults(), null, clock, clock::nanoTime, new Metrics())).await();
  }

  private static Future<DedupeVerdict> claim(Vertx vertx, long maxAgeMs, String accepted, long budgetMs) {
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(budgetMs + 2_000)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(budgetMs));
    return vertx.eventBus().<DedupeVerdict>request(Addresses.DEDUPE_CLAIM, new DedupeClaim(KEY, FLIGHT, maxAgeMs, accepted), o)
        .map(Message::body);
  }

  /** Returns once the verticle has handled everything sent to it before: it handles messages in order. */
  private static void processed(Vertx vertx) {
    vertx.eventBus().request(Addresses.DEDUPE_STATUS, "").await();
  }

  /** A leader claims, an identical claim waits, the leader reports {@code r}: the waiter's verdict. */
  private static DedupeVerdict waiterWhenTheLeaderReports(Vertx vertx, ResolveResult r, long ttlMs) {
    claim(vertx, HOUR, "", 2_000).await();
    Future<DedupeVerdict> waiter = claim(vertx, HOUR, "", 2_000);
    processed(vertx);
    complete(vertx, r, ttlMs);
    return waiter.await();
  }

  private static void complete(Vertx vertx, ResolveResult r, long ttlMs) {
    vertx.eventBus().send(Addresses.DEDUPE_COMPLETE, new DedupeComplete(KEY, FLIGHT, r, ttlMs));
  }

  @Test
  @DisplayName("the first claim leads, identical claims wait and get the leader's answer, later ones replay it")
  void shouldLeadThenShareThenReplay(Vertx vertx) {
    DedupeVerdict first = claim(vertx, HOUR, "", 2_000).await();
    Future<DedupeVerdict> second = claim(vertx, HOUR, "", 2_000);
    Future<DedupeVerdict> third = claim(vertx, HOUR, "", 2_000);
    processed(vertx);
    complete(vertx, ANSWER, HOUR);
    processed(vertx);
    clock.advanceMs(5_000);
    DedupeVerdict later = claim(vertx, HOUR, "", 2_000).await();

    assertThat(first.kind()).isEqualTo(DedupeVerdict.Kind.LEAD);
    assertThat(second.await().kind()).isEqualTo(DedupeVerdict.Kind.JOINED);
    assertThat(third.await().answer()).isEqualTo(StoredAnswer.of(ANSWER));
    assertThat(later.kind()).isEqualTo(DedupeVerdict.Kind.REPLAY);
    assertThat(later.ageMs()).isEqualTo(5_000);
    assertThat(later.answer()).isEqualTo(StoredAnswer.of(ANSWER));
  }

  @Test
  @DisplayName("a waiter whose leader is slow bypasses at its own deadline")
  void shouldBypassAtTheWaitersDeadline(Vertx vertx) {
    claim(vertx, HOUR, "", 5_000).await();
    long t0 = System.nanoTime();
    DedupeVerdict waiter = claim(vertx, HOUR, "", 100).await();
    long waitedMs = (System.nanoTime() - t0) / 1_000_000;

    assertThat(waiter.kind()).isEqualTo(DedupeVerdict.Kind.BYPASS);
    assertThat(waitedMs).isBetween(50L, 2_000L);
  }

  @Test
  @DisplayName("a waiter with no time left to wait bypasses at once")
  void shouldBypassWithoutWaitingWhenNoTimeIsLeft(Vertx vertx) {
    claim(vertx, HOUR, "", 5_000).await();

    assertThat(claim(vertx, HOUR, "", 3).await().kind()).isEqualTo(DedupeVerdict.Kind.BYPASS);
  }

  @Test
  @DisplayName("when the leader's walk failed its waiters walk on their own, and nothing is stored")
  void shouldReleaseWaitersToWalkWhenTheLeaderFailed(Vertx vertx) {
    DedupeVerdict waiter = waiterWhenTheLeaderReports(vertx, null, 0);

    assertThat(waiter.kind()).isEqualTo(DedupeVerdict.Kind.BYPASS);
    assertThat(claim(vertx, HOUR, "", 2_000).await().kind()).as("nothing to replay: lead again").isEqualTo(DedupeVerdict.Kind.LEAD);
  }

  @Test
  @DisplayName("a refusal is shared with the waiters but never stored")
  void shouldNotStoreARefusal(Vertx vertx) {
    ResolveResult refusal = ANSWER.toBuilder().status(ResolveResult.REFUSED).lon(null).lat(null).reason("not_found").build();
    DedupeVerdict waiter = waiterWhenTheLeaderReports(vertx, refusal, 0);

    assertThat(waiter.kind()).isEqualTo(DedupeVerdict.Kind.JOINED);
    assertThat(waiter.answer().resolved()).isFalse();
    assertThat(claim(vertx, HOUR, "", 2_000).await().kind()).isEqualTo(DedupeVerdict.Kind.LEAD);
  }

  @Test
  @DisplayName("a stored answer is not replayed to an intent that takes none, is too young for, or does not accept its claim")
  void shouldReplayOnlyWhatTheClaimAccepts(Vertx vertx) {
    claim(vertx, HOUR, "", 2_000).await();
    complete(vertx, ANSWER, HOUR);
    processed(vertx);
    clock.advanceMs(60_000);

    assertThat(claim(vertx, HOUR, "exact", 2_000).await().kind()).isEqualTo(DedupeVerdict.Kind.REPLAY);
    assertThat(claim(vertx, 0, "", 2_000).await().kind()).as("max age 0").isEqualTo(DedupeVerdict.Kind.LEAD);
    complete(vertx, null, 0);
    assertThat(claim(vertx, 30_000, "", 2_000).await().kind()).as("older than the intent takes")
        .isEqualTo(DedupeVerdict.Kind.LEAD);
    complete(vertx, null, 0);
    assertThat(claim(vertx, HOUR, "cached,locality", 2_000).await().kind()).as("a claim it does not accept")
        .isEqualTo(DedupeVerdict.Kind.LEAD);
  }
}
