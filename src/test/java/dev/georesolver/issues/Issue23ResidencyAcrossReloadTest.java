package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** A tenant made strict by a hot reload is held to its region on every path: live, reconciler retries, batch rows, compatible endpoint. */
@ExtendWith(VertxExtension.class)
class Issue23ResidencyAcrossReloadTest {

  private static final String ACME_KEY = "tk-acme-strict-23";
  private static final String BETA_KEY = "tk-beta-open-23";
  /** Cities the bundled gazetteer knows: acme's, one path each. */
  private static final List<String> LIVE = List.of("Lyon", "Marseille");
  private static final List<String> BATCH = List.of("Bordeaux", "Toulouse", "Nantes");
  private static final String COMPAT = "Strasbourg";

  private final Path state = TestState.freshFile();

  private String yaml(FakeProvider eu, FakeProvider us, String tenants) {
    return manifest().region("eu").budget(3000)
        // Down, and its breaker never opens: every walk, the reconciler's included, asks it again.
        .tier("eu_geo", "generic", eu.url(), "exact", 500, "region: eu", "typical_ms: 20",
            "circuit_breaker: { failure_threshold: 1000000, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .tier("us_geo", "generic", us.url(), "exact", 500, "region: us", "typical_ms: 20")
        .tier("gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra("state: { path: \"" + state + "\" }")
        // Retries every few tens of milliseconds, so a few seconds hold many reconciler walks.
        .extra("reconcile: { enabled: true, interval_ms: 100, backoff_base_ms: 20, backoff_max_ms: 100, max_attempts: 1000, "
            + "budget_ms: 2000 }")
        .extra("tenants:\n" + tenants)
        .yaml();
  }

  private static final String BETA = "  - { id: \"beta\", keys: [ { env: \"BETA_KEY\" } ], admin: true }\n";
  private static final String ACME = "  - { id: \"acme\", keys: [ { env: \"ACME_KEY\" } ], region: \"eu\", residency: \"strict\" }\n";

  @Test
  void aTenantMadeStrictByReloadNeverReachesAnOutOfRegionTier(Vertx vertx) throws Exception {
    FakeProvider eu = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    FakeProvider us = FakeProvider.start(vertx, json(generic(4.83, 45.76, "EPSG:4326", 0.95))).await();
    Path f = TestState.freshDir().resolve("manifest.yaml");
    Files.writeString(f, yaml(eu, us, BETA));
    Stack s = Stack.deployFile(vertx, f, Map.of("ACME_KEY", ACME_KEY, "BETA_KEY", BETA_KEY, "GEO_RELOAD_POLL_MS", "0"),
        Clock.systemUTC(), Map.of()).await();

    // The reload adds acme, strict in eu; the reconciler was built from the start's manifest, without it.
    Path tmp = f.resolveSibling("manifest.yaml.tmp");
    Files.writeString(tmp, yaml(eu, us, BETA + ACME));
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    HttpResponse<Buffer> reloaded = s.client.post(s.port, "localhost", "/admin/reload").putHeader("X-Requested-By", "test").putHeader("Authorization", "Bearer " + BETA_KEY)
        .send().await();
    assertThat(reloaded.statusCode()).as(reloaded.bodyAsString()).isEqualTo(200);

    // Live: answered degraded by the in-region gazetteer, and owed a correction the reconciler retries.
    for (String q : LIVE) {
      JsonObject j = ask(s, ACME_KEY, "/v1/geocode?q=" + q).bodyAsJsonObject();
      assertThat(j.getString("resolution_source")).as(j.encode()).isEqualTo("gazetteer");
      assertThat(j.getBoolean("degraded")).isTrue();
    }
    // The compatible endpoint, as acme.
    HttpResponse<Buffer> compat = ask(s, ACME_KEY, "/search?format=json&q=" + COMPAT);
    assertThat(compat.statusCode()).as(compat.bodyAsString()).isEqualTo(200);
    assertThat(compat.getHeader("X-Georesolver-Source")).isEqualTo("gazetteer");
    // Batch rows, as acme.
    HttpResponse<Buffer> job = s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches")
        .putHeader("Authorization", "Bearer " + ACME_KEY)
        .sendBuffer(Buffer.buffer("id,address\n" + String.join("\n", BATCH.stream().map(c -> c + "," + c).toList()) + "\n")).await();
    assertThat(job.statusCode()).as(job.bodyAsString()).isEqualTo(201);
    String id = job.bodyAsJsonObject().getString("id");
    await("the batch ends", () -> "done".equals(ask(s, ACME_KEY, "/v1/batches/" + id).bodyAsJsonObject().getString("state")));
    // A tenant without residency: its walk reaches us_geo, so the stand-in is seen to log what reaches it.
    JsonObject beta = ask(s, BETA_KEY, "/v1/geocode?q=Lille").bodyAsJsonObject();
    assertThat(beta.getString("resolution_source")).as(beta.encode()).isEqualTo("us_geo");

    // The reconciler walks each of acme's debts again and again (eu_geo keeps failing): several retries of every one.
    List<String> acme = new java.util.ArrayList<>(LIVE);
    acme.addAll(BATCH);
    acme.add(COMPAT);
    // (Or, without the live rule, until us_geo answered it and the reconciler stopped.)
    await("the reconciler retried each of acme's addresses", () -> acme.stream().allMatch(q -> asked(eu, q) >= 4 || asked(us, q) > 0));

    assertThat(asked(us, "Lille")).as("the out-of-region stand-in logs what it is asked").isEqualTo(1);
    assertThat(us.seen().stream().map(x -> x.query().get("q")).filter(Objects::nonNull).toList())
        .as("queries us_geo saw").noneMatch(q -> acme.stream().anyMatch(a -> q.toLowerCase(Locale.ROOT).contains(a.toLowerCase(Locale.ROOT))));
  }

  private static HttpResponse<Buffer> ask(Stack s, String key, String pathAndQuery) {
    return s.client.get(s.port, "localhost", pathAndQuery).putHeader("Authorization", "Bearer " + key).send().await();
  }

  private static long asked(FakeProvider p, String q) {
    return p.seen().stream().map(x -> x.query().get("q")).filter(Objects::nonNull)
        .filter(x -> x.toLowerCase(Locale.ROOT).contains(q.toLowerCase(Locale.ROOT))).count();
  }

  private static void await(String what, BooleanSupplier ok) throws InterruptedException {
    long until = System.nanoTime() + 60_000_000_000L;
    while (!ok.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(until);
      Thread.sleep(50);
    }
  }
}
