package dev.georesolver.cli;

import dev.georesolver.support.ResolverProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code batch} run in a process of its own, killed mid-way (SIGKILL, as a crash; SIGINT, as
 * Ctrl-C), then resumed: the output file is byte for byte an uninterrupted run's, and a row answered
 * before the kill is replayed from the progress file, not asked again.
 */
class BatchResumeTest {

  private static final int ROWS = 1200;
  private static final int CONCURRENCY = 4;

  @TempDir
  static Path dir;

  private static Vertx vertx;
  private static StandIn standIn;
  private static Path manifest;
  private static Path input;
  private static byte[] uninterrupted;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    standIn = StandIn.start(vertx, 10);
    manifest = standIn.manifest(dir);
    StringBuilder csv = new StringBuilder("id,address\r\n");
    for (int i = 1; i <= ROWS; i++) {
      csv.append(i).append(',').append(i % 97 == 0 ? "" : "\"" + i + " Main Street,\nSpringfield\"").append("\r\n");
    }
    input = dir.resolve("in.csv");
    Files.writeString(input, csv, StandardCharsets.UTF_8);
    Path reference = dir.resolve("reference.csv");
    CliRun.Result r = CliRun.run("batch", input.toString(), "-o", reference.toString(), "--manifest", manifest.toString(),
        "--concurrency", "" + CONCURRENCY);
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.NOT_RESOLVED);
    uninterrupted = Files.readAllBytes(reference);
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  private static Process batchProcess(Path out) throws IOException {
    // SIGINT at its default whatever this JVM inherited: a job started in the background of a
    // non-interactive shell (nohup, some CI runners) ignores it, the JVM keeps that, and the test's
    // Ctrl-C would then not reach the command.
    List<String> cmd = new ArrayList<>(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\\n\"",
        ResolverProcess.javaBin(), "-Xmx256m", "-cp", ResolverProcess.mainClasspath(),
        "dev.georesolver.cli.Main", "batch", input.toString(), "-o", out.toString(), "--manifest", manifest.toString(),
        "--concurrency", "" + CONCURRENCY, "--progress", "lines"));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(out.getFileName() + ".log").toFile()).start();
  }

  /** Waits until the progress file says some rows are in the output, so the kill lands mid-way. */
  private static long awaitMarker(Path out, Process p) throws Exception {
    Path journal = ProgressJournal.pathFor(out);
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until && p.isAlive()) {
      if (Files.exists(journal)) {
        for (String line : Files.readAllLines(journal)) {
          if (line.startsWith("{\"written\":")) {
            long written = new JsonObject(line).getLong("written");
            if (written >= 50) {
              return written;
            }
          }
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no marker before the run ended: " + Files.readString(dir.resolve(out.getFileName() + ".log")));
  }

  private static CliRun.Result resume(Path out) {
    return CliRun.run("batch", input.toString(), "-o", out.toString(), "--manifest", manifest.toString(),
        "--concurrency", "" + CONCURRENCY, "--resume");
  }

  @Test
  @DisplayName("killed (SIGKILL) mid-way and resumed: the same file as an uninterrupted run, no answered row asked twice")
  void killedAndResumed() throws Exception {
    Path out = dir.resolve("killed.csv");
    int before = standIn.provider.count();
    Process p = batchProcess(out);
    long written = awaitMarker(out, p);
    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    int askedBeforeKill = standIn.provider.count() - before;
    assertThat(written).isLessThan(ROWS);
    assertThat(Files.exists(ProgressJournal.pathFor(out))).isTrue();

    CliRun.Result r = resume(out);
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.NOT_RESOLVED);
    assertThat(r.err()).contains("batch: 1,200 rows in ").contains("; resumed at row ");
    assertThat(Files.readAllBytes(out)).isEqualTo(uninterrupted);
    assertThat(Files.exists(ProgressJournal.pathFor(out))).isFalse();
    int askedInAll = standIn.provider.count() - before;
    int validRows = ROWS - ROWS / 97;
    assertThat(askedInAll).as("asked %d before the kill, %d in all", askedBeforeKill, askedInAll)
        .isLessThanOrEqualTo(validRows + CONCURRENCY);
  }

  @Test
  @DisplayName("interrupted (SIGINT, as Ctrl-C): exit 130 with a line saying how far it got, and --resume finishes the same file")
  void interruptedAndResumed() throws Exception {
    Path out = dir.resolve("interrupted.csv");
    Process p = batchProcess(out);
    awaitMarker(out, p);
    Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String log = Files.readString(dir.resolve("interrupted.csv.log"));
    assertThat(p.exitValue()).as(log).isEqualTo(Exit.INTERRUPTED);
    assertThat(log).contains("batch: interrupted after ").contains("of 1,200 rows")
        .contains("georesolver: run the same command with --resume to continue");

    CliRun.Result r = resume(out);
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.NOT_RESOLVED);
    assertThat(Files.readAllBytes(out)).isEqualTo(uninterrupted);
  }

  @Test
  @DisplayName("a resumed run with other options than the interrupted one is refused, and the progress file is kept")
  void resumeWithOtherOptions() throws Exception {
    Path out = dir.resolve("other.csv");
    Process p = batchProcess(out);
    awaitMarker(out, p);
    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    CliRun.Result r = CliRun.run("batch", input.toString(), "-o", out.toString(), "--manifest", manifest.toString(), "--resume",
        "--intent", "measure");
    assertThat(r.status()).isEqualTo(Exit.USAGE);
    assertThat(r.err()).contains("was written for other request options");
    assertThat(Files.exists(ProgressJournal.pathFor(out))).isTrue();
    assertThat(resume(out).status()).isEqualTo(Exit.NOT_RESOLVED);
    assertThat(Files.readAllBytes(out)).isEqualTo(uninterrupted);
  }
}
