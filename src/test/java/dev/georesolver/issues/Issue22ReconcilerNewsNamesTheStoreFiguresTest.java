package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The reconciler's news names the store's figures as they are (done under "done", not under "corrected"). */
@ExtendWith(VertxExtension.class)
class Issue22ReconcilerNewsNamesTheStoreFiguresTest {

  @Test
  @DisplayName("a reconciler status carries pending, in progress, done, dead and the backlog's age, and no 'corrected' count")
  void theFiguresKeepTheirNames(Vertx vertx) throws Exception {
    Promise<JsonObject> news = Promise.promise();
    vertx.eventBus().<Object>consumer(Addresses.RECONCILE_EVENTS, m -> {
      if (m.body() instanceof JsonObject j && "reconcile".equals(j.getString("type"))) {
        news.tryComplete(j);
      }
    });
    String yaml = TestState.isolate("""
        routing:
          budget_ms: 2000
          tiers:
            - { name: "local", adapter: "gazetteer", claim: "locality", timeout_ms: 1000 }
        """);
    Stack.deploy(vertx, yaml).await();
    JsonObject j = news.future().toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    assertThat(j.fieldNames()).contains("pending", "in_progress", "done", "dead", "oldest_pending_age_s")
        .doesNotContain("corrected", "confirmed");
  }
}
