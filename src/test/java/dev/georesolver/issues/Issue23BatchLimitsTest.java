package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 17: batch writes obey state.min_free_mb: with the disk below it an upload is refused 507 with Retry-After and no job is stored. */
@ExtendWith(VertxExtension.class)
class Issue23BatchLimitsTest {

  @Test
  @DisplayName("below state.min_free_mb, POST /v1/batches is 507 insufficient_storage with Retry-After, and the job list stays empty")
  void diskGuardCoversBatches(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(6.1, 46.2, "EPSG:4326", 0.95))).await();
    // No disk has this much free: the store refuses new durable work from its start.
    Stack s = Stack.deploy(vertx, manifest().tier("stand_in", "generic", p.url(), "exact", 6000)
        .extra("state: { path: \"" + TestState.freshFile() + "\", min_free_mb: 1000000000000 }").yaml()).await();
    HttpResponse<Buffer> r = s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches")
        .sendBuffer(Buffer.buffer("id,address\n1,\"1 Rue du Lac, Vevey\"\n")).await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(507);
    assertThat(r.getHeader("Retry-After")).isNotNull();
    assertThat(r.bodyAsJsonObject().getString("detail")).contains("state.min_free_mb");
    assertThat(s.get("/v1/batches").await().bodyAsJsonObject().getJsonArray("batches")).isEmpty();
  }
}
