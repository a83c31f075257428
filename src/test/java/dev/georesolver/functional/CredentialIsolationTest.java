package dev.georesolver.functional;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Each tier's credential goes to its own provider only, in its own place, and never into a log or a result. */
@ExtendWith(VertxExtension.class)
class CredentialIsolationTest {

  private static final String KEY_A = "sk-alpha-7f3e9c2b1d";
  private static final String KEY_B = "sk-bravo-44aa19e0c6";

  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private Logger root;
  private Level before;

  @BeforeEach
  void captureLogs() {
    root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    before = root.getLevel();
    root.setLevel(Level.DEBUG);
    logs.start();
    root.addAppender(logs);
  }

  @AfterEach
  void releaseLogs() {
    root.detachAppender(logs);
    root.setLevel(before);
  }

  @Test
  @DisplayName("two tiers' credentials reach only their own providers, and neither appears in logs or results")
  void credentialsStayWithTheirTier(Vertx vertx) throws Exception {
    FakeProvider a = FakeProvider.start(vertx, FakeProvider.status(401, "{\"error\":\"bad key\"}")).await();
    FakeProvider b = FakeProvider.start(vertx, json(generic(1, 2, "EPSG:4326", 0.8))).await();
    Path keyFile = Files.createTempFile("tier-b", ".key");
    Files.writeString(keyFile, KEY_B + "\n");
    Stack s = Stack.deploy(vertx, manifest()
        .tier("alpha", "generic", a.url(), "exact", 800, "credential: { header: X-Api-Key, env: ALPHA_KEY }")
        .tier("bravo", "generic", b.url(), "open_data", 800, "credential: { query_param: key, file: \"" + keyFile + "\" }")
        .yaml(), Map.of("ALPHA_KEY", KEY_A), Clock.systemUTC(), Map.of()).await();

    JsonObject j = s.geocode("1 Secret Way").await().bodyAsJsonObject();

    assertThat(j.getString("resolution_source")).isEqualTo("bravo");
    assertThat(j.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("credential");
    var seenA = a.seen().get(0);
    var seenB = b.seen().get(0);
    assertThat(seenA.headers().get("X-Api-Key")).isEqualTo(KEY_A);
    assertThat(seenA.query().get("key")).isNull();
    assertThat(seenB.query().get("key")).isEqualTo(KEY_B);
    assertThat(seenB.headers().get("X-Api-Key")).isNull();
    assertThat(seenA.headers().toString() + seenA.query()).doesNotContain(KEY_B);
    assertThat(seenB.headers().toString() + seenB.query()).doesNotContain(KEY_A);

    String allLogs = String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
    assertThat(logs.list).anySatisfy(e -> {
      assertThat(e.getLevel()).isEqualTo(Level.ERROR);
      assertThat(e.getFormattedMessage()).contains("alpha").contains("CREDENTIAL").contains("ALPHA_KEY");
    });
    assertThat(allLogs).doesNotContain(KEY_A).doesNotContain(KEY_B);
    assertThat(j.encode()).doesNotContain(KEY_A).doesNotContain(KEY_B);
    assertThat(s.get("/manifest").await().bodyAsString()).doesNotContain(KEY_A).doesNotContain(KEY_B);
  }
}
