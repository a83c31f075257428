package dev.georesolver.functional;

import dev.georesolver.support.ManifestFiles;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ten reloads under steady load: no request fails, and every answer carries a revision that was
 * serving while it was in flight (the old or the new one) and was walked on that revision's ladder
 * alone. Each reload swaps the order of the top two rungs (so the answering rung names the
 * revision), redeploys a changed tier, removes one tier and adds another.
 */
@ExtendWith(VertxExtension.class)
class ReloadUnderLoadTest {

  private static final int RELOADS = 10;
  private static final int CLIENTS = 4;

  /** One answer and the reloads around it: done before it was sent, begun before it was answered. */
  private record Seen(int doneBeforeSend, int begunBeforeAnswer, int status, JsonObject body) {}

  private final Path state = TestState.freshFile();

  /** Revision {@code k}: rungs a, b in that order when k is even, b, a when odd; a's timeout alternates; tier x{k} last. */
  private String yaml(int k, FakeProvider a, FakeProvider b, FakeProvider x) {
    // Budgets far above what a call takes, so that only a reload could fail a request, not a busy machine.
    var m = manifest().budget(8000).extra("state: { path: \"" + state + "\" }").extra("# revision " + k);
    String aTier = "a";
    long aTimeout = k % 2 == 0 ? 4000 : 4500;
    if (k % 2 == 0) {
      m.tier(aTier, "generic", a.url(), "exact", aTimeout).tier("b", "generic", b.url(), "exact", 4000);
    } else {
      m.tier("b", "generic", b.url(), "exact", 4000).tier(aTier, "generic", a.url(), "exact", aTimeout);
    }
    return m.tier("x" + k, "generic", x.url(), "open_data", 4000).yaml();
  }

  @Test
  @DisplayName("ten reloads under steady load: zero failed requests, each answer the old or the new revision, never a mix")
  void tenReloadsUnderLoad(Vertx vertx) throws Exception {
    FakeProvider a = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    FakeProvider b = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.9))).await();
    FakeProvider x = FakeProvider.start(vertx, json(generic(3, 3, "EPSG:4326", 0.8))).await();
    Path f = TestState.freshDir().resolve("manifest.yaml");
    Files.writeString(f, yaml(0, a, b, x));
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), Clock.systemUTC(), Map.of()).await();

    List<String> revisions = new CopyOnWriteArrayList<>(List.of(s.manifest.revision()));
    Map<String, String> firstRung = new ConcurrentHashMap<>(Map.of(s.manifest.revision(), "a"));
    AtomicInteger begun = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    List<Seen> seen = new CopyOnWriteArrayList<>();
    AtomicInteger sequence = new AtomicInteger();
    List<Future<Void>> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      clients.add(vertx.<Void>executeBlocking(() -> null).compose(v -> loop(s, stop, begun, done, seen, sequence)));
    }

    for (int k = 1; k <= RELOADS; k++) {
      Thread.sleep(50);
      ManifestFiles.replace(f, yaml(k, a, b, x));
      begun.incrementAndGet();
      HttpResponse<Buffer> r = s.client.post(s.port, "localhost", "/admin/reload").putHeader("X-Requested-By", "test").send().await();
      assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
      JsonObject status = r.bodyAsJsonObject();
      assertThat(status.getJsonObject("last_attempt").getString("outcome")).isEqualTo("applied");
      assertThat(status.getJsonObject("last_attempt").getJsonObject("tiers").encode())
          .isEqualTo("{\"kept\":[\"b\"],\"changed\":[\"a\"],\"added\":[\"x" + k + "\"],\"removed\":[\"x" + (k - 1) + "\"]}");
      String rev = status.getString("serving_revision");
      firstRung.put(rev, k % 2 == 0 ? "a" : "b");
      revisions.add(rev);
      done.incrementAndGet();
      awaitAnswerOn(rev, seen);
    }
    stop.set(true);
    Future.all(clients).await();

    assertThat(seen).hasSizeGreaterThan(RELOADS);
    for (Seen one : seen) {
      assertThat(one.status()).as("no request fails during a reload: %s", one.body()).isEqualTo(200);
      assertThat(one.body().getString("status")).isEqualTo("resolved");
      String rev = one.body().getString("manifest_revision");
      List<String> serving = revisions.subList(one.doneBeforeSend(), Math.min(revisions.size(), one.begunBeforeAnswer() + 1));
      assertThat(serving).as("the revisions serving while it was in flight").contains(rev);
      String rung = firstRung.get(rev);
      assertThat(one.body().getString("resolution_source")).as("walked on revision %s's ladder alone", rev).isEqualTo(rung);
      assertThat(one.body().getJsonArray("attempts").getJsonObject(0).getString("tier")).isEqualTo(rung);
    }
    assertThat(seen.stream().map(o -> o.body().getString("manifest_revision")).distinct().count())
        .as("every revision served").isEqualTo(RELOADS + 1L);
  }

  /** One client: sequential requests, each a new address (a walk, not a replay), until stopped. */
  private static Future<Void> loop(Stack s, AtomicBoolean stop, AtomicInteger begun, AtomicInteger done, List<Seen> seen,
      AtomicInteger sequence) {
    if (stop.get()) {
      return Future.succeededFuture();
    }
    int before = done.get();
    return s.geocode(sequence.incrementAndGet() + " Steady Street").transform(ar -> {
      int after = begun.get();
      if (ar.succeeded()) {
        HttpResponse<Buffer> r = ar.result();
        JsonObject body = r.statusCode() == 200 ? r.bodyAsJsonObject() : new JsonObject().put("raw", r.bodyAsString());
        seen.add(new Seen(before, after, r.statusCode(), body));
      } else {
        seen.add(new Seen(before, after, -1, new JsonObject().put("error", String.valueOf(ar.cause()))));
      }
      return loop(s, stop, begun, done, seen, sequence);
    });
  }

  /** Waits until some answer carries {@code rev}: the new revision serves before the next reload. */
  private static void awaitAnswerOn(String rev, List<Seen> seen) throws InterruptedException {
    long until = System.nanoTime() + 10_000_000_000L;
    while (seen.stream().noneMatch(o -> rev.equals(o.body().getString("manifest_revision")))) {
      assertThat(System.nanoTime()).as("an answer on revision %s within 10 s", rev).isLessThan(until);
      Thread.sleep(5);
    }
  }
}
