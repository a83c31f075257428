package dev.georesolver.issues;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.cache.MemoryStore;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.compat.Outcome;
import dev.georesolver.compat.Rendered;
import dev.georesolver.compat.ReplayRenderings;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A compatible endpoint's replay of an answer read back from the memory store reuses its rendering, though every read is a new instance. */
class Issue017CompatReplayRenderedOnceTest {

  @Test
  @DisplayName("two reads of one stored answer are distinct instances, and the second replay is not rendered again")
  void renderedOnceAcrossStoreReads() {
    MemoryStore store = new MemoryStore(100, 1 << 20, 3_600_000, Ticker.systemTicker());
    ResolveResult r = ResolveResult.builder().status(ResolveResult.RESOLVED).lon(-0.1276).lat(51.5034)
        .label("10 Downing St").resolutionSource("fast").claim(Claim.OPEN_DATA).intent("describe")
        .idempotencyKey("k").resolvedAtMs(1_767_225_600_000L).build();
    store.put("k", new StoredEntry(StoredAnswer.of(r), 1_767_225_600_000L, 3_600_000));
    StoredAnswer first = store.get("k").answer();
    StoredAnswer second = store.get("k").answer();
    assertThat(second).as("the store hands out a new instance per read").isNotSameAs(first).isEqualTo(first);

    ReplayRenderings<String> renderings = new ReplayRenderings<>();
    AtomicInteger renders = new AtomicInteger();
    ReplayRenderings.Reply reply = new ReplayRenderings.Reply(new Outcome.NotFound(null), Rendered.json(200, Buffer.buffer("[]")));
    renderings.get(first, Direction.FORWARD, "jsonv2", () -> {
      renders.incrementAndGet();
      return reply;
    });
    ReplayRenderings.Reply again = renderings.get(second, Direction.FORWARD, "jsonv2", () -> {
      renders.incrementAndGet();
      return reply;
    });
    assertThat(renders).hasValue(1);
    assertThat(again).isSameAs(reply);
  }
}
