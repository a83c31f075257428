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
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** An embedded batch row refused for lack of time ({@code budget_exhausted}) is tried again and written resolved, not refused. */
class Issue23EmbeddedBatchShortOfTimeTest {

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void aRowThatRanOutOfTimeIsTriedAgain() throws Exception {
    // The first call for row 3 takes far longer than the 400 ms budget (a busy machine); every other call answers at once.
    AtomicBoolean slowedOnce = new AtomicBoolean();
    FakeProvider p = FakeProvider.start(vertx, r -> {
      boolean slow = String.valueOf(r.getParam("q")).startsWith("3 ") && slowedOnce.compareAndSet(false, true);
      return FakeProvider.json(FakeProvider.generic(2.35, 48.85, "EPSG:4326", 0.9), slow ? 1500 : 0);
    }).await();
    Path m = dir.resolve("manifest.yaml");
    Files.writeString(m, manifest().budget(400)
        .tier("stand_in", "generic", p.url(), "exact", 3000, "typical_ms: 20")
        .yaml(), StandardCharsets.UTF_8);
    StringBuilder csv = new StringBuilder("id,address\n");
    for (int i = 0; i < 8; i++) {
      csv.append(i).append(",\"").append(i).append(" Rue de Rivoli, Paris\"\n");
    }
    Path in = dir.resolve("in.csv");
    Files.writeString(in, csv.toString(), StandardCharsets.UTF_8);
    Path out = dir.resolve("out.csv");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Cli.run(new String[] {"batch", in.toString(), "-o", out.toString(), "--progress", "none", "--concurrency", "2",
          "--manifest", m.toString()}, Map.of(), o, e);
    }

    String said = err.toString(StandardCharsets.UTF_8);
    List<CSVRecord> rows = CSVFormat.RFC4180.parse(new StringReader(Files.readString(out))).getRecords();
    assertThat(slowedOnce).as("the slow first call happened").isTrue();
    assertThat(rows).as(said).hasSize(9);
    assertThat(rows.stream().skip(1).map(r -> r.get(0) + ":" + r.get(2))).as(said)
        .allSatisfy(r -> assertThat(r).endsWith(":resolved"));
    assertThat(status).as(said).isZero();
    assertThat(p.seen().stream().filter(x -> String.valueOf(x.query().get("q")).startsWith("3 ")).count())
        .as("row 3 asked again after running out of time").isGreaterThanOrEqualTo(2);
  }
}
