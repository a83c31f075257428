package dev.georesolver.metrics;

import dev.georesolver.bus.ResolveResult;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the ops verticle reads once a second is the same totals {@code /metrics} exports. */
class MetricsReadingTest {

  private static ResolveResult result(Direction d, String source, long elapsedMs) {
    ResolveResult.Builder b = ResolveResult.builder().direction(d).intent("describe").idempotencyKey("k").manifestRevision("r")
        .traceId("t").elapsedMs(elapsedMs).attempts(List.of()).resolvedAtMs(0);
    return source == null
        ? b.status(ResolveResult.REFUSED).reason("not_found").notice("n").build()
        : b.status(ResolveResult.RESOLVED).lon(1.0).lat(1.0).resolutionSource(source).claim(Claim.EXACT).confidence(0.9).notice("n").build();
  }

  @Test
  @DisplayName("answers by source, refusals apart, and one latency histogram for both directions")
  void readingMatchesTheResults() {
    Metrics m = new Metrics();
    m.result(result(Direction.FORWARD, "primary", 3));
    m.result(result(Direction.FORWARD, "primary", 30));
    m.result(result(Direction.REVERSE, "secondary", 300));
    m.result(result(Direction.FORWARD, null, 3000));
    m.result(result(Direction.REVERSE, null, 60_000));

    Metrics.Reading r = m.reading();
    assertThat(r.resolvedBySource()).containsOnly(Map.entry("primary", 2L), Map.entry("secondary", 1L));
    assertThat(r.refused()).isEqualTo(2);
    assertThat(r.latency().total()).isEqualTo(5);
    double[] bounds = r.latency().upperBoundsMs();
    long[] cumulative = r.latency().cumulative();
    assertThat(bounds[bounds.length - 1]).isEqualTo(10_000.0);
    assertThat(cumulative[cumulative.length - 1]).as("the 60 s result lies above the last bound").isEqualTo(4);
    for (int i = 0; i < bounds.length; i++) {
      if (bounds[i] >= 3 && bounds[i] < 30) {
        assertThat(cumulative[i]).as("at or below %s ms", bounds[i]).isEqualTo(1);
      }
    }
  }
}
