package dev.georesolver.config;

import dev.georesolver.web.ServerLimits;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class MarginsAndServerConfigTest {

  private static Manifest load(String extraRouting, String extraTop) throws ManifestException {
    String yaml = manifest().tier("t1", "generic", "http://geo.example", "exact", 1000).yaml()
        .replace("  tiers:\n", extraRouting + "  tiers:\n") + extraTop;
    return ManifestLoader.parse(yaml, Map.of());
  }

  @Test
  @DisplayName("without routing.margins every margin has its documented default")
  void marginsDefault() throws Exception {
    MarginsConfig m = load("", "").routing().margins();
    assertThat(m.chainReplyMs()).isEqualTo(5);
    assertThat(m.tierReplyMs()).isEqualTo(2);
    assertThat(m.ingressGraceMs()).isEqualTo(250);
    assertThat(m.waiterMs()).isEqualTo(5);
    assertThat(m.leaderGraceMs()).isEqualTo(250);
    assertThat(m.statusTimeoutMs()).isEqualTo(1000);
    assertThat(m.healthTimeoutMs()).isEqualTo(2000);
    assertThat(m.hopMs()).isEqualTo(2);
    assertThat(m.rungFloorMs()).isEqualTo(25);
  }

  @Test
  @DisplayName("the reserve's hop cost and floor are read from routing.margins, and a negative one is a problem")
  void reserveFiguresRead() throws Exception {
    MarginsConfig m = load("  margins: { hop_ms: 4, rung_floor_ms: 40 }\n", "").routing().margins();
    assertThat(m.hopMs()).isEqualTo(4);
    assertThat(m.rungFloorMs()).isEqualTo(40);
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> load("  margins: { hop_ms: -1, rung_floor_ms: -3 }\n", ""));
    assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("routing.margins.hop_ms"));
    assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("routing.margins.rung_floor_ms"));
  }

  @Test
  @DisplayName("margins given in the manifest are read, and one out of range is a problem with its path")
  void marginsRead() throws Exception {
    MarginsConfig m = load("  margins: { chain_reply_ms: 8, ingress_grace_ms: 400 }\n", "").routing().margins();
    assertThat(m.chainReplyMs()).isEqualTo(8);
    assertThat(m.ingressGraceMs()).isEqualTo(400);
    assertThat(m.tierReplyMs()).isEqualTo(2);
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> load("  margins: { tier_reply_ms: -1, bogus: 1 }\n", ""));
    assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("routing.margins.tier_reply_ms"));
    assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("routing.margins.bogus"));
  }

  @Test
  @DisplayName("the server block feeds the ingress limits, and GEO_SERVER_* overrides one at start")
  void serverBlock() throws Exception {
    Manifest m = load("", "server: { max_body_bytes: 2048, header_timeout_ms: 3000 }\n");
    ServerLimits fromManifest = ServerLimits.of(m.server(), Map.of());
    assertThat(fromManifest.maxBodyBytes()).isEqualTo(2048);
    assertThat(fromManifest.headerTimeoutMs()).isEqualTo(3000);
    assertThat(fromManifest.idleTimeoutMs()).isEqualTo(ServerLimits.DEFAULT_IDLE_TIMEOUT_MS);
    ServerLimits overridden = ServerLimits.of(m.server(), Map.of(ServerLimits.ENV_MAX_BODY_BYTES, "4096"));
    assertThat(overridden.maxBodyBytes()).isEqualTo(4096);
    assertThat(ServerLimits.of(load("", "").server(), Map.of())).isEqualTo(ServerLimits.defaults());
  }

  @Test
  @DisplayName("server.host is the address listened on: every interface by default")
  void serverHost() throws Exception {
    assertThat(load("", "").server().host()).isEqualTo("0.0.0.0");
    assertThat(load("", "server: { host: \"127.0.0.1\" }\n").server().host()).isEqualTo("127.0.0.1");
  }

  @Test
  @DisplayName("a request line too short for the longest address is refused in the manifest")
  void requestLineFloor() {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> load("", "server: { max_request_line_bytes: 4096 }\n"));
    assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("server.max_request_line_bytes"));
  }
}
