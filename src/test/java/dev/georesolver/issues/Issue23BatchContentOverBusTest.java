package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 5: a batch upload reaches the batch verticle as content over the bus (no message names a file), and no upload file outlives its job. */
@ExtendWith(VertxExtension.class)
class Issue23BatchContentOverBusTest {

  private static List<Path> uploadFiles() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> all = Files.walk(tmp, 2)) {
      return all.filter(p -> p.getFileName().toString().endsWith(".upload")).toList();
    }
  }

  /** The string values of a JSON body that name an existing file. */
  private static List<String> filesNamed(JsonObject body) {
    List<String> out = new ArrayList<>();
    body.forEach(e -> {
      if (e.getValue() instanceof String s && s.length() < 4096) {
        try {
          if (s.startsWith("/") && Files.isRegularFile(Path.of(s))) {
            out.add(e.getKey() + "=" + s);
          }
        } catch (RuntimeException ignored) {
          // Not a path.
        }
      }
    });
    return out;
  }

  @Test
  @DisplayName("submitting a 3,000-row CSV sends no message naming a file; its content travels in bounded chunks; no .upload file is left")
  void contentNotPaths(Vertx vertx) throws Exception {
    List<Path> before = uploadFiles();
    List<String> named = new ArrayList<>();
    List<Integer> chunkSizes = new ArrayList<>();
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      String address = ctx.message().address();
      if (address.startsWith("geocode.batch.")) {
        Object body = ctx.body();
        if (body instanceof JsonObject j) {
          named.addAll(filesNamed(j));
        } else if (body instanceof Buffer b) {
          chunkSizes.add(b.length());
        }
      }
      ctx.next();
    });
    FakeProvider p = FakeProvider.start(vertx, json(generic(6.1, 46.2, "EPSG:4326", 0.95))).await();
    Stack s = Stack.deploy(vertx, manifest().tier("stand_in", "generic", p.url(), "exact", 6000).yaml()).await();
    StringBuilder csv = new StringBuilder("id,address\n");
    for (int i = 0; i < 3000; i++) {
      csv.append(i).append(",\"").append(i).append(" Rue de la Gare, Lausanne, a line long enough to fill chunks\"\n");
    }
    HttpResponse<Buffer> created = s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches")
        .sendBuffer(Buffer.buffer(csv.toString())).await();
    assertThat(created.statusCode()).as(created.bodyAsString()).isEqualTo(201);
    String id = created.bodyAsJsonObject().getString("id");
    long until = System.nanoTime() + 60_000_000_000L;
    String state = "";
    while (!state.equals("done") && System.nanoTime() < until) {
      Thread.sleep(100);
      state = s.get("/v1/batches/" + id).await().bodyAsJsonObject().getString("state");
    }
    assertThat(state).isEqualTo("done");

    assertThat(named).as("bus messages naming a file").isEmpty();
    assertThat(chunkSizes).as("the content went as chunks over the bus").isNotEmpty();
    assertThat(chunkSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(csv.length());
    assertThat(chunkSizes).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(256 * 1024));
    List<Path> left = uploadFiles();
    while (!before.containsAll(left) && System.nanoTime() < until) {
      Thread.sleep(50);
      left = uploadFiles();
    }
    assertThat(left).as("upload files left once the job is loaded").isSubsetOf(before);
  }
}
