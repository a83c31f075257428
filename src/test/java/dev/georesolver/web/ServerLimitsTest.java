package dev.georesolver.web;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerLimitsTest {

  @Test
  @DisplayName("the defaults hold the longest address, percent-encoded, in a GET request line")
  void defaults() {
    ServerLimits d = ServerLimits.defaults();
    assertThat(d.idleTimeoutMs()).isEqualTo(30_000);
    assertThat(d.headerTimeoutMs()).isEqualTo(10_000);
    assertThat(d.bodyTimeoutMs()).isEqualTo(10_000);
    assertThat(d.maxConnections()).isEqualTo(10_000);
    assertThat(d.maxHeaderBytes()).isEqualTo(8192);
    assertThat(d.maxBodyBytes()).isEqualTo(65_536);
    int longestGet = "GET /v1/geocode?q=".length() + 1000 * 4 * 3 + "&bbox=".length() + 4 * 24
        + "&intent=describe&budget_ms=10000&language=zh-Hant-TW HTTP/1.1".length();
    assertThat(d.maxRequestLineBytes()).isGreaterThan(longestGet);
  }

  @Test
  @DisplayName("each GEO_SERVER_* variable overrides its limit; unset ones keep the default")
  void fromEnv() {
    ServerLimits l = ServerLimits.fromEnv(Map.of(
        ServerLimits.ENV_IDLE_TIMEOUT_MS, "5000",
        ServerLimits.ENV_MAX_CONNECTIONS, " 200 ",
        ServerLimits.ENV_MAX_REQUEST_LINE_BYTES, "20000"));
    assertThat(l.idleTimeoutMs()).isEqualTo(5000);
    assertThat(l.maxConnections()).isEqualTo(200);
    assertThat(l.maxRequestLineBytes()).isEqualTo(20_000);
    assertThat(l.headerTimeoutMs()).isEqualTo(ServerLimits.DEFAULT_HEADER_TIMEOUT_MS);
    assertThat(ServerLimits.fromEnv(Map.of())).isEqualTo(ServerLimits.defaults());
  }

  @Test
  @DisplayName("a value that is not a positive integer is refused naming its variable")
  void badValuesAreRefused() {
    assertThatThrownBy(() -> ServerLimits.fromEnv(Map.of(ServerLimits.ENV_HEADER_TIMEOUT_MS, "soon")))
        .hasMessageContaining(ServerLimits.ENV_HEADER_TIMEOUT_MS);
    assertThatThrownBy(() -> ServerLimits.fromEnv(Map.of(ServerLimits.ENV_MAX_BODY_BYTES, "0")))
        .hasMessageContaining(ServerLimits.ENV_MAX_BODY_BYTES);
    assertThatThrownBy(() -> ServerLimits.fromEnv(Map.of(ServerLimits.ENV_MAX_REQUEST_LINE_BYTES, "4096")))
        .hasMessageContaining("max_request_line_bytes");
  }

  @Test
  @DisplayName("the idle timeout is raised to cover the longest budget plus grace, and says so")
  void idleCoversTheLongestBudget() {
    AtomicLong told = new AtomicLong();
    assertThat(ServerLimits.defaults().effectiveIdleTimeoutMs(10_000, 250, told::set)).isEqualTo(30_000);
    assertThat(told.get()).isZero();
    assertThat(ServerLimits.defaults().effectiveIdleTimeoutMs(60_000, 250, told::set)).isEqualTo(61_250);
    assertThat(told.get()).isEqualTo(61_250);
  }

  @Test
  @DisplayName("the connection cap leaves a quarter of the file descriptors to everything else")
  void capFitsTheDescriptorLimit() {
    ServerLimits d = ServerLimits.defaults();
    assertThat(d.effectiveMaxConnections(1_048_576)).isEqualTo(10_000);
    assertThat(d.effectiveMaxConnections(1024)).isEqualTo(768);
    assertThat(d.effectiveMaxConnections(-1)).isEqualTo(10_000);
  }
}
