package dev.georesolver.trace;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TracingTest {

  @Test
  @DisplayName("no OTLP endpoint, or OTEL_SDK_DISABLED=true: tracing is off and no SDK is built")
  void offWithoutEndpoint() {
    assertThat(Tracing.fromEnv(Map.of())).isSameAs(Tracing.off());
    assertThat(Tracing.fromEnv(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " "))).isSameAs(Tracing.off());
    assertThat(Tracing.fromEnv(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://localhost:1", "OTEL_SDK_DISABLED", "true")))
        .isSameAs(Tracing.off());
    assertThat(Tracing.off().on()).isFalse();
    assertThat(Tracing.off().tracer()).isNull();
  }

  @Test
  @DisplayName("an endpoint turns it on, named in the description without its user info")
  void onWithEndpoint() {
    Tracing t = Tracing.fromEnv(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://u:secret@localhost:1", "OTEL_SERVICE_NAME", "geo-a"));
    try {
      assertThat(t.on()).isTrue();
      assertThat(t.describe()).isEqualTo("OTLP/HTTP to http://localhost:1 as service geo-a").doesNotContain("secret");
    } finally {
      t.shutdown();
    }
  }

  @Test
  @DisplayName("OTEL_* variables become SDK properties; the service is georesolver unless named")
  void properties() {
    assertThat(Tracing.properties(Map.of("OTEL_TRACES_SAMPLER", "traceidratio", "PATH", "/bin")))
        .containsEntry("otel.traces.sampler", "traceidratio")
        .containsEntry("otel.service.name", "georesolver")
        .doesNotContainKey("path");
    assertThat(Tracing.properties(Map.of("OTEL_SERVICE_NAME", "geo-b"))).containsEntry("otel.service.name", "geo-b");
  }
}
