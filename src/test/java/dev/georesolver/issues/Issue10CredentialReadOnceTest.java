package dev.georesolver.issues;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.Secret;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** A tier's credential is read once, when the manifest is loaded: the value that enabled the tier is the value sent. */
@ExtendWith(VertxExtension.class)
class Issue10CredentialReadOnceTest {

  private static String paidTier(FakeProvider p, String credential) {
    return manifest().tier("paid", "generic", p == null ? "http://geo.example" : p.url(), "exact", 800, "credential: " + credential)
        .yaml();
  }

  @Test
  @DisplayName("the manifest keeps the secret it checked, whatever happens to the file afterwards")
  void shouldKeepTheSecretItChecked(@TempDir Path dir) throws Exception {
    Path key = Files.writeString(dir.resolve("key"), "k-first\n");
    Manifest m = ManifestLoader.parse(paidTier(null, "{ header: X-Key, file: '" + key + "' }"), Map.of());

    Files.writeString(key, "k-second\n");
    assertThat(m.secret("paid")).map(Secret::reveal).contains("k-first");
    Files.delete(key);
    assertThat(m.secret("paid")).map(Secret::reveal).contains("k-first");
    assertThat(m.enabledTiers()).hasSize(1);
  }

  @Test
  @DisplayName("a credential file removed between loading and deploying: the tier, enabled by the check, still sends the key it checked")
  void shouldSendTheKeyThatWasCheckedFromAFile(Vertx vertx, @TempDir Path dir) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 2, "EPSG:4326", 0.9))).await();
    Path key = Files.writeString(dir.resolve("key"), "k-checked\n");
    Manifest m = ManifestLoader.parse(paidTier(p, "{ header: X-Key, file: '" + key + "' }"), Map.of());
    Files.delete(key);

    Stack s = Stack.deploy(vertx, m, Map.of(), Clock.systemUTC(), Map.of(), null).await();
    s.geocode("1 Main St").await();

    assertThat(p.seen()).singleElement().satisfies(seen -> assertThat(seen.headers().get("X-Key")).isEqualTo("k-checked"));
  }

  @Test
  @DisplayName("a credential variable is taken from the environment the manifest was checked against, not read again at deploy")
  void shouldSendTheKeyThatWasCheckedFromTheEnvironment(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 2, "EPSG:4326", 0.9))).await();
    Manifest m = ManifestLoader.parse(paidTier(p, "{ header: X-Key, env: PAID_KEY }"), Map.of("PAID_KEY", "e-checked"));

    Stack s = Stack.deploy(vertx, m, Map.of(), Clock.systemUTC(), Map.of(), null).await();
    s.geocode("1 Main St").await();

    assertThat(p.seen()).singleElement().satisfies(seen -> assertThat(seen.headers().get("X-Key")).isEqualTo("e-checked"));
  }
}
