package dev.georesolver.functional;

import dev.georesolver.support.ManifestFiles;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.TestState;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** SIGHUP sent to a real resolver process reloads its manifest file (the file watch is off), and the process lives on. */
class ReloadSignalTest {

  @Test
  @DisplayName("kill -HUP reloads the manifest: /manifest and the log name the new revision, and the process keeps serving")
  void hangUpReloads() throws Exception {
    Path dir = TestState.freshDir();
    Path state = dir.resolve("state.db");
    Path m = dir.resolve("manifest.yaml");
    Files.writeString(m, manifest().tier("g", "gazetteer", null, "locality", 200).extra("state: { path: \"" + state + "\" }").yaml());
    // SIGHUP at its default disposition whatever this suite inherited (under nohup it is ignored).
    try (ResolverProcess p = ResolverProcess.startWithHangUp("DEFAULT", Map.of("GEO_RELOAD_POLL_MS", "0"),
        "--manifest", m.toString(), "--port", "0", "--event-loops", "1")) {
      HttpClient http = HttpClient.newHttpClient();
      String before = manifestOf(http, p).getString("revision");

      ManifestFiles.replace(m, manifest().tier("g", "gazetteer", null, "locality", 300).extra("state: { path: \"" + state + "\" }").yaml());
      Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(p.pid())).inheritIO().start();
      assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(kill.exitValue()).isZero();

      JsonObject after = null;
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < until) {
        after = manifestOf(http, p);
        if (!after.getString("revision").equals(before)) {
          break;
        }
        Thread.sleep(50);
      }
      assertThat(after.getString("revision")).as("a new revision within 20 s of the signal; /manifest's reload: %s; the process"
          + " wrote:%n%s%n%s", after.getValue("reload"), String.join("\n", p.stdout()), String.join("\n", p.stderr())).isNotEqualTo(before);
      JsonObject last = after.getJsonObject("reload").getJsonObject("last_attempt");
      assertThat(last.getString("trigger")).isEqualTo("signal");
      assertThat(last.getString("outcome")).isEqualTo("applied");
      assertThat(last.getJsonObject("tiers").getJsonArray("changed").getList()).containsExactly("g");
      assertThat(p.alive()).as("SIGHUP no longer stops the JVM").isTrue();
      HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + p.port() + "/health/ready")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(ready.statusCode()).isEqualTo(200);
      String revision = after.getString("revision");
      long logUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (p.stdout().stream().noneMatch(l -> l.contains("manifest reloaded (signal): revision " + revision))
          && System.nanoTime() < logUntil) {
        Thread.sleep(20);
      }
      assertThat(p.stdout()).anySatisfy(l -> assertThat(l).contains("manifest reloaded (signal): revision " + revision));
    }
  }

  private static JsonObject manifestOf(HttpClient http, ResolverProcess p) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + p.port() + "/manifest")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return new JsonObject(r.body());
  }
}
