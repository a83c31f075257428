package dev.georesolver.issues;

import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.provider.LocalAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.RawHit;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.Stack;
import dev.georesolver.tier.LocalAdapterFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** A trial call in half-open whose adapter misbehaves still settles its permit, and the tier recovers. */
@ExtendWith(VertxExtension.class)
class Issue010HalfOpenPermitTest {

  private final FakeClock clock = new FakeClock();
  /** What the rung's adapter answers next; swapped by the test. */
  private final AtomicReference<Supplier<Future<ProviderAnswer>>> answer = new AtomicReference<>();

  private static final Supplier<Future<ProviderAnswer>> DOWN =
      () -> Future.succeededFuture(ProviderAnswer.failed(FailureClass.DEGRADABLE, "down"));
  private static final Supplier<Future<ProviderAnswer>> UP =
      () -> Future.succeededFuture(ProviderAnswer.found(RawHit.of(2.35, 48.85, "EPSG:4326", 0.9, "Paris", "locality")));

  private Stack stack(Vertx vertx) {
    LocalAdapter adapter = new LocalAdapter() {
      @Override
      public Future<ProviderAnswer> forward(ForwardQuery query) {
        return answer.get().get();
      }
    };
    LocalAdapterFactory factory = (v, tier) -> Future.succeededFuture(adapter);
    return Stack.deploy(vertx, manifest()
        .tier("shaky", "gazetteer", null, "exact", 500,
            "circuit_breaker: { failure_threshold: 1, half_open_timeout_ms: 30000, success_threshold: 1 }")
        .yaml(), Map.of(), clock, Map.of("gazetteer", factory)).await();
  }

  private static JsonObject attempt(Stack s, String q) {
    return s.geocode(q).await().bodyAsJsonObject().getJsonArray("attempts").getJsonObject(0);
  }

  private void openTheBreaker(Stack s) {
    answer.set(DOWN);
    assertThat(attempt(s, "first").getString("outcome")).isEqualTo("degradable");
    assertThat(attempt(s, "second").getString("outcome")).isEqualTo("skipped_breaker_open");
    clock.advanceMs(30_001);
  }

  @Test
  @DisplayName("an adapter answering nothing in half-open reopens the breaker instead of keeping the only trial permit")
  void nullAnswerInHalfOpenSettlesThePermit(Vertx vertx) {
    Stack s = stack(vertx);
    openTheBreaker(s);

    answer.set(() -> Future.succeededFuture(null));
    assertThat(attempt(s, "trial").getString("outcome")).isEqualTo("unclassified");
    assertThat(attempt(s, "reopened").getString("outcome")).isEqualTo("skipped_breaker_open");

    answer.set(UP);
    clock.advanceMs(30_001);
    JsonObject recovered = s.geocode("recovered").await().bodyAsJsonObject();
    assertThat(recovered.getString("status")).as(recovered.encode()).isEqualTo("resolved");
    assertThat(recovered.getString("resolution_source")).isEqualTo("shaky");
    assertThat(attempt(s, "closed again").getString("outcome")).isEqualTo("hit");
  }

  @Test
  @DisplayName("an adapter that throws, or whose future fails, in half-open settles the permit too")
  void throwingAdapterInHalfOpenSettlesThePermit(Vertx vertx) {
    Stack s = stack(vertx);
    openTheBreaker(s);

    answer.set(() -> {
      throw new IllegalStateException("adapter bug");
    });
    assertThat(attempt(s, "trial").getString("outcome")).isEqualTo("unclassified");
    clock.advanceMs(30_001);
    answer.set(() -> Future.failedFuture(new OutOfMemoryError("not really")));
    assertThat(attempt(s, "second trial").getString("outcome")).isEqualTo("unclassified");

    answer.set(UP);
    clock.advanceMs(30_001);
    assertThat(attempt(s, "recovered").getString("outcome")).isEqualTo("hit");
  }
}
