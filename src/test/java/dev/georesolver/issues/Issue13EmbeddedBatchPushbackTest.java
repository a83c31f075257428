package dev.georesolver.issues;

import dev.georesolver.cli.Cli;
import dev.georesolver.support.FakeProvider;
import io.vertx.core.Vertx;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** An embedded batch with more rows in flight than the tier's batch share slows down: no row is written refused for {@code skipped_batch_share}. */
class Issue13EmbeddedBatchPushbackTest {

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void rowsOverTheBatchShareWaitInsteadOfBeingRefused() throws Exception {
    // Each answer takes 50 ms, so 16 rows in flight meet a tier that lets at most 2 batch attempts run.
    FakeProvider p = FakeProvider.start(vertx, r -> FakeProvider.json(FakeProvider.generic(2.35, 48.85, "EPSG:4326", 0.9), 50))
        .await();
    Path m = dir.resolve("manifest.yaml");
    Files.writeString(m, manifest().budget(8000)
        .tier("stand_in", "generic", p.url(), "exact", 6000, "typical_ms: 20", "pool_size: 4")
        .extra("batch: { max_share: 0.5 }")
        .yaml(), StandardCharsets.UTF_8);
    StringBuilder csv = new StringBuilder("id,address\n");
    for (int i = 0; i < 60; i++) {
      csv.append(i).append(",\"").append(i).append(" Rue de Rivoli, Paris\"\n");
    }
    Path in = dir.resolve("in.csv");
    Files.writeString(in, csv.toString(), StandardCharsets.UTF_8);
    Path out = dir.resolve("out.csv");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Cli.run(new String[] {"batch", in.toString(), "-o", out.toString(), "--progress", "none", "--concurrency", "16",
          "--manifest", m.toString()}, Map.of(), o, e);
    }

    String said = err.toString(StandardCharsets.UTF_8);
    List<CSVRecord> rows = CSVFormat.RFC4180.parse(new StringReader(Files.readString(out))).getRecords();
    assertThat(rows).as(said).hasSize(61);
    assertThat(rows.stream().skip(1).map(r -> r.get(2))).as(said).containsOnly("resolved");
    assertThat(status).as(said).isZero();
    assertThat(p.count()).as("each address asked upstream once").isEqualTo(60);
  }
}
