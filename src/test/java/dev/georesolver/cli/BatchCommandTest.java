package dev.georesolver.cli;

import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code batch}, end to end in this JVM: embedded and against a server, every output format, exit statuses, the progress file's rules. */
class BatchCommandTest {

  @TempDir
  static Path dir;

  private static Vertx vertx;
  private static StandIn standIn;
  private static Path manifest;
  private static Stack server;

  private static final String INPUT = "id,address,note\r\n"
      + "1,\"10 Downing St,\nLondon\",multi-line\r\n"
      + "2,nowhere in particular,refused\r\n"
      + "3,,no address\r\n"
      + "4,\"1 Main St, Springfield\",\"a, b\"\r\n"
      + "5,too,many,fields\r\n"
      + "6,\"5 Rue de Rivoli, Paris\",\r\n";

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    standIn = StandIn.start(vertx, 0);
    manifest = standIn.manifest(dir);
    server = Stack.deploy(vertx, Files.readString(manifest)).await();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  private static Path file(String name, String content) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  private static List<CSVRecord> records(Path csv) throws Exception {
    return CSVFormat.RFC4180.parse(new StringReader(Files.readString(csv))).getRecords();
  }

  private static CliRun.Result batch(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "batch";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--manifest";
    all[args.length + 2] = manifest.toString();
    return CliRun.run(all);
  }

  @Test
  @DisplayName("CSV: every row in input order, input columns kept, a bad row reported on its row; exit 1 when not every row resolved")
  void csvEmbedded() throws Exception {
    Path in = file("in.csv", INPUT);
    Path out = dir.resolve("out.csv");
    CliRun.Result r = batch(in.toString(), "-o", out.toString(), "--progress", "lines");
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.NOT_RESOLVED);
    assertThat(r.err()).contains("batch: 6 rows in 0:0").contains(": 3 resolved, 1 refused, 2 invalid -> " + out);
    assertThat(Files.exists(dir.resolve("out.csv.progress"))).as("the progress file is gone once done").isFalse();
    List<CSVRecord> rows = records(out);
    assertThat(rows.get(0).toList()).containsExactly("id", "address", "note", "status", "lon", "lat", "label", "claim",
        "resolution_source", "confidence", "degraded", "notice", "error", "house_number", "road", "neighbourhood", "locality",
        "county", "region", "postcode", "country", "country_code", "place_type");
    assertThat(rows).hasSize(7);
    assertThat(rows.stream().skip(1).map(c -> c.get(0))).containsExactly("1", "2", "3", "4", "5", "6");
    assertThat(rows.stream().skip(1).map(c -> c.get(3))).containsExactly("resolved", "refused", "invalid", "resolved", "invalid",
        "resolved");
    CSVRecord first = rows.get(1);
    assertThat(first.get(1)).isEqualTo("10 Downing St,\nLondon");
    JsonObject expected = StandIn.expected("10 Downing St,, London");
    assertThat(first.get(4)).isEqualTo(expected.getString("lon"));
    assertThat(first.get(5)).isEqualTo(expected.getString("lat"));
    assertThat(first.get(7)).isEqualTo("exact");
    assertThat(first.get(8)).isEqualTo("stand_in");
    assertThat(first.get(10)).isEqualTo("false");
    assertThat(rows.get(2).get(12)).isEqualTo("not_found");
    assertThat(rows.get(3).get(12)).isEqualTo("no address");
    assertThat(rows.get(4).get(2)).isEqualTo("a, b");
    assertThat(rows.get(5).get(12)).startsWith("has 4 fields; the header has 3");
  }

  @Test
  @DisplayName("every row resolved is exit 0; NDJSON and GeoJSON come from the output's extension")
  void formats() throws Exception {
    Path in = file("good.jsonl", "{\"ref\": \"a\", \"address\": \"1 Main St\"}\n{\"ref\": \"b\", \"lat\": 52.52, \"lon\": 13.405}\n");
    Path nd = dir.resolve("good.ndjson");
    CliRun.Result r = batch(in.toString(), "-o", nd.toString());
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.OK);
    List<String> lines = Files.readAllLines(nd);
    assertThat(lines).hasSize(2);
    assertThat(new JsonObject(lines.get(0)).getString("ref")).isEqualTo("a");
    JsonObject second = new JsonObject(lines.get(1));
    assertThat(second.getDouble("lat")).isEqualTo(52.52);
    assertThat(second.getDouble("result_lat")).isEqualTo(52.521);
    Path geo = dir.resolve("good.geojson");
    assertThat(batch(in.toString(), "-o", geo.toString()).status()).isEqualTo(Exit.OK);
    JsonArray features = new JsonObject(Files.readString(geo)).getJsonArray("features");
    assertThat(features.getJsonObject(1).getJsonObject("geometry").getJsonArray("coordinates")).containsExactly(13.406, 52.521);
    Path forced = dir.resolve("forced.out");
    assertThat(batch(in.toString(), "-o", forced.toString(), "--format", "ndjson").status()).isEqualTo(Exit.OK);
    assertThat(Files.readString(forced)).isEqualTo(Files.readString(nd));
  }

  @Test
  @DisplayName("--server: the same output file as embedded, from a running resolver over HTTP")
  void serverGivesTheSameFile() throws Exception {
    Path in = file("in2.csv", INPUT);
    Path embedded = dir.resolve("embedded.csv");
    Path remote = dir.resolve("remote.csv");
    assertThat(batch(in.toString(), "-o", embedded.toString()).status()).isEqualTo(Exit.NOT_RESOLVED);
    CliRun.Result r = CliRun.run("batch", in.toString(), "-o", remote.toString(), "--server", "http://localhost:" + server.port,
        "--concurrency", "3");
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.NOT_RESOLVED);
    assertThat(Files.readString(remote)).isEqualTo(Files.readString(embedded));
  }

  @Test
  @DisplayName("a file that is no batch is exit 2 before anything is sent or written")
  void refusedFiles() throws Exception {
    int before = standIn.provider.count();
    Path out = dir.resolve("never.csv");
    for (String content : List.of("name,phone\nAda,1\n", "", "{\"name\": 1}\n", "[{\"address\": \"x\"}")) {
      Path in = file("bad-input", content);
      CliRun.Result r = batch(in.toString(), "-o", out.toString());
      assertThat(r.status()).as(content).isEqualTo(Exit.USAGE);
      assertThat(r.err()).contains("\ngeoresolver: " + in + ": ");
    }
    Path in = file("three.csv", "address\na\nb\nc\n");
    assertThat(batch(in.toString(), "-o", out.toString(), "--max-rows", "2").err()).contains("the file has more than 2 rows");
    assertThat(batch(dir.resolve("missing.csv").toString(), "-o", out.toString()).err()).contains("no such file");
    assertThat(batch(in.toString(), "-o", in.toString()).err()).contains("would overwrite the input");
    assertThat(batch(in.toString(), "-o", out.toString(), "--intent", "nope").err()).contains("--intent must be one of");
    assertThat(Files.exists(out)).isFalse();
    assertThat(Files.exists(dir.resolve("never.csv.progress"))).isFalse();
    assertThat(standIn.provider.count()).isEqualTo(before);
  }

  @Test
  @DisplayName("--resume needs a progress file; a progress file left behind needs --resume; one written for another input is refused")
  void progressFileRules() throws Exception {
    Path in = file("r.csv", "address\n1 Main St\n");
    Path out = dir.resolve("r-out.csv");
    assertThat(batch(in.toString(), "-o", out.toString(), "--resume").err()).contains("nothing to resume");
    Path left = ProgressJournal.pathFor(out);
    Files.writeString(left, "{\"georesolver_batch\":1,\"input_sha256\":\"00\",\"input_rows\":1,\"output_format\":\"csv\","
        + "\"request\":{}}\n");
    assertThat(batch(in.toString(), "-o", out.toString()).err()).contains("an interrupted run left " + left + ": add --resume");
    CliRun.Result other = batch(in.toString(), "-o", out.toString(), "--resume");
    assertThat(other.status()).isEqualTo(Exit.USAGE);
    assertThat(other.err()).contains("was written for another input");
    Files.writeString(left, "not json\n");
    assertThat(batch(in.toString(), "-o", out.toString(), "--resume").err()).contains("is not a batch progress file");
  }

  @Test
  @DisplayName("--server unreachable: the run stops before anything is written, exit 3")
  void serverUnreachable() throws Exception {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Path in = file("u.csv", "address\n1 Main St\n");
    Path out = dir.resolve("u-out.csv");
    long t0 = System.nanoTime();
    CliRun.Result r = CliRun.run(java.util.Map.of(), "batch", in.toString(), "-o", out.toString(), "--server",
        "http://127.0.0.1:" + closed, "--retries", "1");
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.UNAVAILABLE);
    assertThat(r.err()).contains("cannot reach http://127.0.0.1:" + closed);
    assertThat(Files.exists(out)).isFalse();
    assertThat((System.nanoTime() - t0) / 1e9).as("refused at once").isLessThan(30);
  }
}
