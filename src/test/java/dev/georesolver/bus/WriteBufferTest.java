package dev.georesolver.bus;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-process write buffer: a full batch goes at once, a partial one at its interval, nothing is lost between them. */
class WriteBufferTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a full batch is handed over at once, not at the end of a long interval; the rest waits for it, and no record is lost or sent twice")
  void fullBatchGoesAtOnce() throws Exception {
    List<JsonArray> received = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> firstTwo = new CompletableFuture<>();
    vertx.eventBus().<JsonArray>consumer("test.buffer", m -> {
      received.add(m.body());
      m.reply("ok");
      if (received.size() == 2) {
        firstTwo.complete(null);
      }
    });
    AtomicInteger refused = new AtomicInteger();
    vertx.runOnContext(v -> {
      WriteBuffer<Integer> b = new WriteBuffer<>(vertx, "test", "test.buffer", 60_000, 100, 3, JsonArray::new,
          String::valueOf, l -> refused.addAndGet(l.size()), WriteBuffer.Counts.NONE);
      for (int i = 1; i <= 7; i++) {
        b.add(i);
      }
    });
    // the interval is 60 s: only the size trigger can deliver both batches within 10 s
    firstTwo.get(10, TimeUnit.SECONDS);
    Thread.sleep(200);
    assertThat(received).as("two full batches; the seventh record waits for the interval")
        .extracting(JsonArray::getList).containsExactly(List.of(1, 2, 3), List.of(4, 5, 6));
    assertThat(refused).hasValue(0);
  }
}
