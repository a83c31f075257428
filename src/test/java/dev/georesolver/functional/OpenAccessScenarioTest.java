package dev.georesolver.functional;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.georesolver.GeoResolver;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Without a {@code tenants:} block the resolver is open, as before tenants existed, and says so once at start. */
@ExtendWith(VertxExtension.class)
class OpenAccessScenarioTest {

  @Test
  @DisplayName("one start-up line says access is open, and every request works without a key, admin routes included")
  void shouldStayOpenWithoutTenants(Vertx vertx) {
    FakeProvider provider = FakeProvider.start(vertx, json(generic(-0.1276, 51.5033, "EPSG:4326", 0.97))).await();
    Logger startLog = (Logger) LoggerFactory.getLogger(GeoResolver.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    Level was = startLog.getLevel();
    startLog.setLevel(Level.INFO);
    lines.start();
    startLog.addAppender(lines);
    Stack open;
    try {
      open = Stack.deploy(vertx, manifest().tier("primary", "generic", provider.url(), "exact", 800).yaml()).await();
    } finally {
      startLog.detachAppender(lines);
      startLog.setLevel(was);
    }

    assertThat(lines.list).filteredOn(e -> e.getFormattedMessage().contains("tenant")).singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).startsWith("no tenants configured: open access, every request is tenant public"));
    assertThat(open.geocode("10 Downing St").await().bodyAsJsonObject().getString("status")).isEqualTo("resolved");
    assertThat(open.get("/manifest").await().statusCode()).isEqualTo(200);
    assertThat(open.get("/maps/api/geocode/json?address=10+Downing+St&key=anything").await().bodyAsJsonObject().getString("status"))
        .isEqualTo("OK");
    assertThat(open.get("/admin/anything").await().statusCode()).as("open, and nothing mounted there").isEqualTo(404);
    assertThat(open.get("/metrics").await().bodyAsString()).doesNotContain("georesolver_tenant_requests");
  }
}
