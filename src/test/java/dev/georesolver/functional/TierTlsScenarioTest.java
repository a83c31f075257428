package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestPki;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static dev.georesolver.support.FakeProvider.generic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Per-tier mutual TLS against a stand-in provider that requires a client certificate from the
 * test's own authority (made at run time with openssl), and rotation of certificates and
 * credentials under load without a restart.
 */
@ExtendWith(VertxExtension.class)
class TierTlsScenarioTest {

  /** The name on the provider's certificate: not localhost, so only server_name makes the check pass. */
  private static final String PROVIDER_NAME = "provider.test";

  /** A provider that speaks TLS only to clients presenting a certificate from the test authority, recording whose, by question. */
  static final class MtlsProvider {
    final Map<String, String> subjectByQuestion = new ConcurrentHashMap<>();
    final List<String> subjects = new CopyOnWriteArrayList<>();
    HttpServer server;

    static MtlsProvider start(Vertx vertx, TestPki pki) throws Exception {
      TestPki.Issued cert = pki.server(PROVIDER_NAME);
      MtlsProvider p = new MtlsProvider();
      p.server = vertx.createHttpServer(new HttpServerOptions().setSsl(true)
              .setKeyCertOptions(new PemKeyCertOptions().setCertPath(cert.cert().toString()).setKeyPath(cert.key().toString()))
              .setTrustOptions(new PemTrustOptions().addCertPath(pki.caFile().toString()))
              .setClientAuth(ClientAuth.REQUIRED))
          .requestHandler(req -> {
            String subject;
            try {
              subject = ((X509Certificate) req.connection().peerCertificates().get(0)).getSubjectX500Principal().getName();
            } catch (Exception e) {
              subject = "none";
            }
            p.subjects.add(subject);
            p.subjectByQuestion.put(req.getParam("q", ""), subject);
            req.response().putHeader("content-type", "application/json").end(generic(2.35, 48.85, "EPSG:4326", 0.9).encode());
          })
          .listen(0).await();
      return p;
    }

    String url() {
      return "https://localhost:" + server.actualPort();
    }
  }

  private static String tls(TestPki pki, TestPki.Issued client) {
    return "tls: { " + (client == null ? "" : "cert_file: \"" + client.cert() + "\", key_file: \"" + client.key() + "\", ")
        + "ca_file: \"" + pki.caFile() + "\", server_name: \"" + PROVIDER_NAME + "\" }";
  }

  private static JsonObject ask(Stack s, String q, String intent) {
    return s.geocode(q, "intent", intent).await().bodyAsJsonObject();
  }

  @Test
  @DisplayName("each tier presents only its own certificate; a tier without one is refused the handshake, says why, and opens its breaker")
  void shouldKeepEachTiersKeyMaterialToItself(Vertx vertx, @TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    MtlsProvider provider = MtlsProvider.start(vertx, pki);
    Stack s = Stack.deploy(vertx, ManifestBuilder.manifest()
        .tier("alpha", "generic", provider.url(), "exact", 3000, tls(pki, pki.client("tier-a")))
        .tier("bravo", "generic", provider.url(), "open_data", 3000, tls(pki, null),
            "circuit_breaker: { failure_threshold: 2, half_open_timeout_ms: 600000, success_threshold: 1 }")
        .tier("charlie", "generic", provider.url(), "locality", 3000, tls(pki, pki.client("tier-c")))
        .extra("""
            intents:
              only_a: { claims: [exact] }
              only_b: { claims: [open_data] }
              only_c: { claims: [locality] }
            """).yaml()).await();

    JsonObject a = ask(s, "1 Alpha Street", "only_a");
    JsonObject c = ask(s, "1 Charlie Street", "only_c");
    JsonObject b1 = ask(s, "1 Bravo Street", "only_b");
    JsonObject b2 = ask(s, "2 Bravo Street", "only_b");
    JsonObject b3 = ask(s, "3 Bravo Street", "only_b");

    assertThat(a.getString("resolution_source")).as(a.encode()).isEqualTo("alpha");
    assertThat(c.getString("resolution_source")).as(c.encode()).isEqualTo("charlie");
    assertThat(provider.subjectByQuestion).containsEntry("1 Alpha Street", "CN=tier-a").containsEntry("1 Charlie Street", "CN=tier-c");
    assertThat(provider.subjectByQuestion).doesNotContainKeys("1 Bravo Street", "2 Bravo Street", "3 Bravo Street");
    assertThat(provider.subjects).containsExactlyInAnyOrder("CN=tier-a", "CN=tier-c");
    for (JsonObject refused : List.of(b1, b2)) {
      assertThat(refused.getString("status")).isEqualTo("refused");
      JsonObject attempt = refused.getJsonArray("attempts").getJsonObject(0);
      assertThat(attempt.getString("outcome")).as(refused.encode()).isEqualTo("degradable");
      assertThat(attempt.getString("detail")).startsWith("TLS handshake failed: ");
    }
    assertThat(b3.getJsonArray("attempts").getJsonObject(0).getString("outcome")).as("the failures counted against its breaker")
        .isEqualTo("skipped_breaker_open");
    JsonArray tiers = s.get("/health/ready").await().bodyAsJsonObject().getJsonArray("tiers");
    assertThat(tiers.stream().map(t -> (JsonObject) t).filter(t -> t.getString("tier").equals("bravo")).findFirst().orElseThrow()
        .getString("state")).isEqualTo("open");
  }

  @Test
  @DisplayName("a rotated client certificate and key take effect under load, with no failed request and no restart")
  void shouldRotateTheCertificateUnderLoad(Vertx vertx, @TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    MtlsProvider provider = MtlsProvider.start(vertx, pki);
    TestPki.Issued first = pki.client("tier-a");
    TestPki.Issued live = new TestPki.Issued(dir.resolve("live.pem"), dir.resolve("live.key"));
    Files.copy(first.cert(), live.cert());
    Files.copy(first.key(), live.key());
    Stack s = Stack.deploy(vertx, ManifestBuilder.manifest().budget(5000)
        .tier("alpha", "generic", provider.url(), "exact", 5000, tls(pki, live)).yaml()).await();

    Load load = Load.start(s, "alpha");
    load.until(() -> provider.subjects.contains("CN=tier-a"), 10_000);
    pki.reissueClientInto("tier-a-rotated", live);
    load.until(() -> provider.subjects.contains("CN=tier-a-rotated"), 15_000);
    load.stop();

    assertThat(load.failures).as("answers not from alpha during the rotation").isEmpty();
    assertThat(load.sent.get()).isGreaterThan(20);
    assertThat(provider.subjects).contains("CN=tier-a", "CN=tier-a-rotated");
    assertThat(provider.subjects.subList(provider.subjects.lastIndexOf("CN=tier-a-rotated"), provider.subjects.size()))
        .containsOnly("CN=tier-a-rotated");
  }

  @Test
  @DisplayName("a credential file rewritten under load: the provider sees the new key, no request fails, no restart")
  void shouldRotateAFileCredentialUnderLoad(Vertx vertx, @TempDir Path dir) throws Exception {
    Path keyFile = Files.writeString(dir.resolve("tier.key"), "sk-old-1111\n");
    FakeProvider provider = FakeProvider.start(vertx, r -> switch (String.valueOf(r.getHeader("X-Api-Key"))) {
      case "sk-old-1111", "sk-new-2222" -> FakeProvider.json(generic(2.35, 48.85, "EPSG:4326", 0.9));
      default -> FakeProvider.status(401, "bad key");
    }).await();
    Stack s = Stack.deploy(vertx, ManifestBuilder.manifest().budget(5000)
        .tier("alpha", "generic", provider.url(), "exact", 5000, "credential: { header: X-Api-Key, file: \"" + keyFile + "\" }")
        .yaml()).await();
    BooleanSupplier sawNew = () -> provider.seen().stream().anyMatch(x -> "sk-new-2222".equals(x.headers().get("X-Api-Key")));

    Load load = Load.start(s, "alpha");
    load.until(() -> provider.count() > 10, 10_000);
    Path next = Files.writeString(dir.resolve("tier.key.new"), "sk-new-2222\n");
    Files.move(next, keyFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    load.until(sawNew, 15_000);
    load.stop();

    assertThat(load.failures).as("answers not from alpha during the rotation").isEmpty();
    List<String> keys = provider.seen().stream().map(x -> x.headers().get("X-Api-Key")).toList();
    assertThat(keys.subList(keys.indexOf("sk-new-2222"), keys.size())).containsOnly("sk-new-2222");
  }

  @Test
  @DisplayName("TLS files that are there but not usable stop the start, naming the file; files that are not there leave the tier out")
  void shouldRefuseToStartOnUnusableTlsFiles(Vertx vertx, @TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued a = pki.client("tier-a");
    Path junk = Files.writeString(dir.resolve("junk.pem"), "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n");
    String https = "https://localhost:1";

    Throwable failed = catchThrowable(() -> Stack.deploy(vertx, ManifestBuilder.manifest()
        .tier("alpha", "generic", https, "exact", 500, "tls: { cert_file: \"" + junk + "\", key_file: \"" + a.key() + "\" }")
        .yaml()).await());
    assertThat(vertx.deploymentIDs()).as("nothing left running by the failed start").isEmpty();
    Stack s = Stack.deploy(vertx, ManifestBuilder.manifest()
        .tier("alpha", "generic", https, "exact", 500, "tls: { ca_file: \"" + dir.resolve("absent.pem") + "\" }")
        .tier("gaz", "gazetteer", null, "locality", 200).yaml()).await();

    assertThat(failed).isNotNull();
    assertThat(failed.getMessage()).contains("cert_file " + junk).contains("do not parse as PEM");
    assertThat(s.manifest.disabledTiers()).containsEntry("alpha", "tls ca_file " + dir.resolve("absent.pem") + " is not readable");
  }

  /**
   * Requests for new addresses, eight at a time, from a thread of its own, each answer checked.
   * The first answer is awaited alone, so the tier's first handshakes are made before the load
   * (eight handshakes at once on a cold JVM can take seconds on a busy two-core machine).
   */
  static final class Load {
    final AtomicInteger sent = new AtomicInteger();
    final List<String> failures = new CopyOnWriteArrayList<>();
    private volatile boolean running = true;
    private final Thread thread;

    private Load(Stack s, String tier) {
      JsonObject first = s.geocode("0 Warm-up Way").await().bodyAsJsonObject();
      assertThat(first.getString("resolution_source")).as(first.encode()).isEqualTo(tier);
      thread = new Thread(() -> {
        while (running) {
          List<Future<HttpResponse<Buffer>>> batch = new ArrayList<>();
          for (int i = 0; i < 8; i++) {
            batch.add(s.geocode(sent.incrementAndGet() + " Load Lane"));
          }
          for (Future<HttpResponse<Buffer>> f : batch) {
            try {
              JsonObject j = f.await().bodyAsJsonObject();
              if (!tier.equals(j.getString("resolution_source"))) {
                failures.add(j.encode());
              }
            } catch (RuntimeException e) {
              failures.add(e.toString());
            }
          }
        }
      }, "tls-load");
      thread.start();
    }

    static Load start(Stack s, String tier) {
      return new Load(s, tier);
    }

    void until(BooleanSupplier done, long timeoutMs) throws InterruptedException {
      long end = System.nanoTime() + timeoutMs * 1_000_000;
      while (!done.getAsBoolean()) {
        assertThat(System.nanoTime()).as("waited %d ms; failures so far: %s", timeoutMs, failures).isLessThan(end);
        Thread.sleep(50);
      }
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join(10_000);
    }
  }
}
