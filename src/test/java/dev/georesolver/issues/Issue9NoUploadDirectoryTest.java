package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 6: starting the resolver and posting multipart uploads writes nothing to the working directory. */
@ExtendWith(VertxExtension.class)
class Issue9NoUploadDirectoryTest {

  private static List<String> workingDirectory() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of("").toAbsolutePath())) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  @DisplayName("a multipart upload to /v1/geocode is a 400 naming the body, and no file-uploads directory appears")
  void multipartUploadWritesNothing(Vertx vertx) throws IOException {
    List<String> before = workingDirectory();
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();

    String part = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n" + "x".repeat(30_000) + "\r\n--XyZ--\r\n";
    byte[] body = part.getBytes(StandardCharsets.ISO_8859_1);
    String head = "POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=XyZ\r\n"
        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
    RawHttp.Response r = RawHttp.exchange(s.port, (head + part).getBytes(StandardCharsets.ISO_8859_1), 5000);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.isProblem()).isTrue();
    assertThat(r.json().getString("field")).isEqualTo("body");
    assertThat(workingDirectory()).as("the working directory is as it was").isEqualTo(before).doesNotContain("file-uploads");
    assertThat(p.count()).isZero();
  }
}
