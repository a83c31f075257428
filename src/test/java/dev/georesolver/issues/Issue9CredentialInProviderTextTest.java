package dev.georesolver.issues;

import ch.qos.logback.classic.Level;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.Stack;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 3: a provider that echoes the request cannot put the tier's credential, or a forged line, into an answer or a log. */
@ExtendWith(VertxExtension.class)
class Issue9CredentialInProviderTextTest {

  private static final String SECRET = "s3cr3t-Zq8vW2-key";
  private static final String FORGED = "12:00:00.000 ERROR [main] d.g.chain - forged line";

  private static FakeProvider.Respond json(int status, JsonObject body) {
    return new FakeProvider.Respond(status, body.encode(), MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), 0);
  }

  /** What the provider heard: the request line and every header, as an echoing error page would print them. */
  private static String echo(HttpServerRequest req) {
    StringBuilder sb = new StringBuilder("GET ").append(req.uri());
    req.headers().forEach(h -> sb.append("\r\n").append(h.getKey()).append(": ").append(h.getValue()));
    return sb.append("\r\n").append(FORGED).toString();
  }

  private Stack stack(Vertx vertx, String adapter, String endpoint, String credential) {
    return Stack.deploy(vertx, manifest()
        .tier("echoing", adapter, endpoint, adapter.equals("generic") ? "exact" : "open_data", 800,
            "credential: " + credential, "schema_validation: \"relaxed\"").yaml(),
        Map.of("ECHO_KEY", SECRET), Clock.systemUTC(), Map.of()).await();
  }

  private static JsonObject resolve(Stack s, LogCapture logs) {
    JsonObject r = s.geocode("10 Downing Street, London").await().bodyAsJsonObject();
    String answer = r.encode();
    assertThat(answer).as("the answer").doesNotContain(SECRET);
    for (String line : logs.lines()) {
      assertThat(line).as("a log line").doesNotContain(SECRET);
    }
    for (var e : logs.events()) {
      assertThat(e.getFormattedMessage()).as("a log message").doesNotContain("\n").doesNotContain("\r");
    }
    return r;
  }

  private static String detail(JsonObject r) {
    return r.getJsonArray("attempts").getJsonObject(0).getString("detail");
  }

  @Test
  @DisplayName("Google REQUEST_DENIED quoting the request URL: key redacted in attempts[].detail and in the REJECTED ITS CREDENTIAL line")
  void googleRequestDenied(Vertx vertx) {
    Function<HttpServerRequest, FakeProvider.Behaviour> denied = req -> json(200, new JsonObject()
        .put("status", "REQUEST_DENIED").put("error_message", "The provided API key is invalid. " + echo(req)));
    FakeProvider p = FakeProvider.start(vertx, denied).await();
    Stack s = stack(vertx, "google", p.url() + "/maps/api/geocode/json", "{ env: \"ECHO_KEY\" }");

    try (LogCapture logs = LogCapture.everyLevel()) {
      JsonObject r = resolve(s, logs);
      assertThat(r.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("credential");
      assertThat(detail(r)).contains("key=[redacted]").contains("\\r\\n").doesNotContain("\n");
      assertThat(logs.atLeast(Level.ERROR)).anySatisfy(e -> assertThat(e.getFormattedMessage())
          .contains("REJECTED ITS CREDENTIAL").contains("[redacted]").doesNotContain(SECRET).doesNotContain("\n"));
    }
    assertThat(p.seen().get(0).query().get("key")).as("the provider did get the key").isEqualTo(SECRET);
  }

  @Test
  @DisplayName("a Nominatim {\"error\": …} quoting the URL with the key in a query parameter: redacted, its newline escaped")
  void nominatimError(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, req -> json(200, new JsonObject().put("error", "Invalid request " + echo(req))))
        .await();
    Stack s = stack(vertx, "nominatim", p.url(), "{ query_param: \"key\", env: \"ECHO_KEY\" }");

    try (LogCapture logs = LogCapture.everyLevel()) {
      JsonObject r = resolve(s, logs);
      assertThat(detail(r)).doesNotContain(SECRET).doesNotContain("\n");
    }
  }

  @Test
  @DisplayName("a header credential echoed into a label, as the header and as the bare value: redacted in the answer")
  void headerEchoedIntoTheLabel(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, req -> json(200, new JsonObject().put("x", 2.35).put("y", 48.85)
        .put("crs", "EPSG:4326").put("confidence", 0.9)
        .put("label", "X-Api-Key: " + req.getHeader("X-Api-Key") + " / " + req.getHeader("X-Api-Key") + " " + echo(req))))
        .await();
    Stack s = stack(vertx, "generic", p.url(), "{ header: \"X-Api-Key\", env: \"ECHO_KEY\" }");

    try (LogCapture logs = LogCapture.everyLevel()) {
      JsonObject r = resolve(s, logs);
      assertThat(r.getString("status")).isEqualTo("resolved");
      assertThat(r.getString("label")).startsWith("X-Api-Key: [redacted] / [redacted]").doesNotContain("\n")
          .hasSizeLessThanOrEqualTo(513);
    }
    assertThat(List.of(p.seen().get(0).headers().get("X-Api-Key"))).containsExactly(SECRET);
  }
}
