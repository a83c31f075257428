package dev.georesolver.trace;

import dev.georesolver.bus.Addresses;
import io.opentelemetry.api.trace.SpanKind;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

class HopTest {

  private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Test
  @DisplayName("tracing off: a bus hop passes its message's context on unchanged, and its children are itself")
  void offPassesThrough() {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add(Addresses.TRACE_HEADER, "4bf92f3577b34da6a3ce929d0e0e4736")
        .add(Addresses.TRACEPARENT_HEADER, PARENT)
        .add(Addresses.TRACESTATE_HEADER, "a=b");
    Hop hop = Hop.fromBus(Tracing.off(), headers, SpanNames.WALK);
    assertThat(hop.child(SpanNames.RUNG, SpanKind.INTERNAL)).isSameAs(hop);
    assertThat(hop.recording()).isFalse();
    DeliveryOptions o = hop.onto(new DeliveryOptions());
    assertThat(o.getHeaders().get("traceparent")).isEqualTo(PARENT);
    assertThat(o.getHeaders().get("tracestate")).isEqualTo("a=b");
    assertThat(hop.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
  }

  @Test
  @DisplayName("tracing off: a message without any trace header gets a W3C trace id and sends no context on")
  void offWithoutContext() {
    Hop hop = Hop.fromBus(Tracing.off(), MultiMap.caseInsensitiveMultiMap(), SpanNames.WALK);
    assertThat(hop.traceId()).matches("[0-9a-f]{32}");
    assertThat(hop.onto(new DeliveryOptions()).getHeaders()).isNull();
  }

  /**
   * What the off path allocates per request on the chain and tier side (a walk hop, a rung, an
   * attempt, attributes, the context copied into the next message's headers): measured, printed,
   * and bounded by bytes (an allocation count, not a time), so an SDK object creeping onto the
   * path shows up as a failure.
   */
  @Test
  @DisplayName("tracing off: the hops of a request allocate only the headers they copy")
  void offAllocatesLittle() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    MultiMap in = MultiMap.caseInsensitiveMultiMap()
        .add(Addresses.TRACE_HEADER, "4bf92f3577b34da6a3ce929d0e0e4736")
        .add(Addresses.TRACEPARENT_HEADER, PARENT);
    DeliveryOptions out = new DeliveryOptions();
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      offHops(in, out);
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < n; i++) {
      offHops(in, out);
    }
    long perRequest = (threads.getCurrentThreadAllocatedBytes() - before) / n;
    System.out.println("tracing off: " + perRequest + " bytes allocated per request by its hops");
    assertThat(perRequest).isLessThan(200);
  }

  private static void offHops(MultiMap in, DeliveryOptions out) {
    Hop walk = Hop.fromBus(Tracing.off(), in, SpanNames.WALK);
    Hop rung = walk.child(SpanNames.RUNG, SpanKind.INTERNAL).set(SpanNames.TIER, "alpha").set(SpanNames.RUNG_INDEX, 0);
    rung.headers((k, v) -> out.getHeaders());
    rung.set(SpanNames.OUTCOME, "hit").end();
    walk.end();
  }
}
