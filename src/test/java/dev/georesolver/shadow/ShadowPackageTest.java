package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The shadow core stays pure: usable from a verticle, a worker, the command line or a test alike. */
class ShadowPackageTest {

  @Test
  @DisplayName("no source of dev.georesolver.shadow imports Vert.x")
  void shouldImportNoVertx() throws IOException {
    Path dir = Path.of("src/main/java/dev/georesolver/shadow");
    List<Path> sources;
    try (Stream<Path> files = Files.list(dir)) {
      sources = files.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(sources).hasSizeGreaterThan(10);
    for (Path p : sources) {
      assertThat(Files.readString(p)).as(p.toString()).doesNotContain("io.vertx");
    }
  }
}
