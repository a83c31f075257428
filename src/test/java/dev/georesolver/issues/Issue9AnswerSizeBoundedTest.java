package dev.georesolver.issues;

import dev.georesolver.provider.ProviderText;
import dev.georesolver.support.RawProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 2: 3,000 distinct answers whose provider label is 1 MiB leave the heap within a bound: labels are cut before they are stored. */
@ExtendWith(VertxExtension.class)
class Issue9AnswerSizeBoundedTest {

  private static final int ANSWERS = 3000;
  private static final int IN_FLIGHT = 16;
  /** Heap growth allowed after a full collection: 3,000 cut answers in the store and the index are a few MB. */
  private static final long HEAP_BOUND_BYTES = 64L * 1024 * 1024;

  @Test
  @DisplayName("3,000 answers with a 1 MiB label: stored and replayed with the label cut to 512 characters, heap growth under 64 MiB")
  void answersAreBounded(Vertx vertx) throws Exception {
    String label = "Grand Place " + "x".repeat(1024 * 1024);
    String body = new JsonObject().put("x", 4.3524).put("y", 50.8467).put("crs", "EPSG:4326").put("confidence", 0.9)
        .put("label", label).encode();
    // One buffer written for every answer (Vert.x writes a slice of it), so the provider costs no copy.
    Buffer encoded = Buffer.buffer(body);
    RawProvider p = RawProvider.start(vertx, ex -> ex.respond(200, "application/json", encoded)).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("primary", "generic", p.url("/geocode"), "exact", 8000, "typical_ms: 20")
        .tier("cached_index", "cached_index", null, "cached", 200, "typical_ms: 5")
        .yaml()).await();
    s.geocode("warm up").await();
    long before = heapAfterGc();

    for (int i = 0; i < ANSWERS; i += IN_FLIGHT) {
      List<Future<?>> batch = new ArrayList<>(IN_FLIGHT);
      for (int j = i; j < Math.min(ANSWERS, i + IN_FLIGHT); j++) {
        batch.add(s.geocode("Rue " + j + " Bruxelles", "budget_ms", "10000").map(r -> {
          assertThat(r.bodyAsJsonObject().getString("status")).as(r.bodyAsString()).isEqualTo("resolved");
          return r;
        }));
      }
      Future.all(batch).await();
    }

    long grown = heapAfterGc() - before;
    System.out.printf("issue 9, defect 2: heap grew %,d KB after %d answers with a 1 MiB label%n", grown / 1024, ANSWERS);
    assertThat(grown).as("heap growth after GC, bytes").isLessThan(HEAP_BOUND_BYTES);
    JsonObject replay = s.geocode("Rue 7 Bruxelles").await().bodyAsJsonObject();
    assertThat(replay.getBoolean("replayed")).as("the answers were stored, not dropped: %s", replay.getJsonArray("attempts"))
        .isTrue();
    assertThat(replay.getString("label")).startsWith("Grand Place xxx").hasSize(ProviderText.MAX_LABEL_CHARS + 1)
        .endsWith(ProviderText.ELLIPSIS);
    assertThat(p.requests()).isEqualTo(ANSWERS + 1);
  }

  private static long heapAfterGc() throws InterruptedException {
    for (int k = 0; k < 3; k++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
