package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.atomic.AtomicInteger;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 25, item 4: a replay is answered in the chain from the node's store, with no claim sent to the dedupe verticle; a miss still claims. */
@ExtendWith(VertxExtension.class)
class Issue25ReplayInTheChainTest {

  @Test
  @DisplayName("the first request claims and walks; 20 replays of it send no claim and are the same answer; a new address claims again")
  void replaysSendNoClaim(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.95))).await();
    AtomicInteger claims = new AtomicInteger();
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      if (Addresses.DEDUPE_CLAIM.equals(ctx.message().address())) {
        claims.incrementAndGet();
      }
      ctx.next();
    });
    Stack s = Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();
    JsonObject first = s.get("/v1/geocode?q=10%20Rue%20Oberkampf").await().bodyAsJsonObject();
    assertThat(first.getString("status")).isEqualTo("resolved");
    assertThat(claims.get()).as("the first request claims").isEqualTo(1);

    // The leader's report reaches the store on the dedupe verticle's context; the view sees it once written.
    for (int i = 0; i < 100 && !s.get("/v1/geocode?q=10%20Rue%20Oberkampf").await().bodyAsJsonObject().getBoolean("replayed", false); i++) {
      Thread.sleep(10);
    }
    int before = claims.get();
    for (int i = 0; i < 20; i++) {
      HttpResponse<Buffer> r = s.get("/v1/geocode?q=10%20Rue%20Oberkampf").await();
      JsonObject j = r.bodyAsJsonObject();
      assertThat(j.getBoolean("replayed")).as(j.encode()).isTrue();
      assertThat(j.getDouble("lon")).isEqualTo(first.getDouble("lon"));
      assertThat(j.getString("idempotency_key")).isEqualTo(first.getString("idempotency_key"));
    }
    assertThat(claims.get()).as("replays answered in the chain").isEqualTo(before);
    assertThat(p.count()).as("one provider call in all").isEqualTo(1);

    assertThat(s.get("/v1/geocode?q=12%20Rue%20Oberkampf").await().bodyAsJsonObject().getString("status")).isEqualTo("resolved");
    assertThat(claims.get()).as("a miss claims").isEqualTo(before + 1);
  }
}
