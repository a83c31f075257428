package dev.georesolver.cli;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The progress bar and plain lines: what they draw, how often, and the clean line left at the end. */
class ProgressTest {

  private static final long S = 1_000_000_000L;

  private static Progress.Counts at(long done, long notResolved) {
    return new Progress.Counts(100_000, done, done - notResolved, notResolved, 0);
  }

  @Test
  @DisplayName("a bar line fills the width less one column: percent, bar, rows, rate, ETA, and what did not resolve when it fits")
  void barLine() {
    String line = Progress.Bar.line(at(42_000, 120), 3512, 80);
    assertThat(line).hasSize(79).startsWith(" 42% [").contains("] 42,000/100,000 rows  3,512 rows/s  ETA 0:17  120 not resolved");
    assertThat(line.chars().filter(c -> c == '#').count()).isEqualTo((long) (line.indexOf(']') - 6) * 42 / 100);
    assertThat(Progress.Bar.line(at(0, 0), 0, 60)).isEqualTo("  0% [>...........] 0/100,000 rows  0 rows/s  ETA --:--".replace(
        "[>...........]", "[>" + ".".repeat(59 - 5 - 2 - " 0/100,000 rows  0 rows/s  ETA --:--".length() - 1) + "]"));
    assertThat(Progress.Bar.line(at(100_000, 0), 100, 80)).startsWith("100% [####").contains("ETA 0:00");
    assertThat(Progress.Bar.line(at(50_000, 0), 100, 40)).as("too narrow for a bar").hasSizeLessThanOrEqualTo(39).doesNotContain("[");
  }

  @Test
  @DisplayName("durations: m:ss, h:mm:ss past an hour, --:-- when unknown")
  void durations() {
    assertThat(Progress.duration(17.4)).isEqualTo("0:17");
    assertThat(Progress.duration(3725)).isEqualTo("1:02:05");
    assertThat(Progress.duration(Double.NaN)).isEqualTo("--:--");
  }

  @Test
  @DisplayName("the bar redraws in place with \\r, at most ten times a second, and leaves one clean final line")
  void barRedrawsInPlace() {
    AtomicLong now = new AtomicLong(0);
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    Progress.Bar bar = new Progress.Bar(new PrintStream(buf, true, StandardCharsets.UTF_8), 80, now::get);
    bar.update(at(0, 0));
    now.addAndGet(S / 20);
    bar.update(at(500, 0));
    now.addAndGet(S / 10);
    bar.update(at(1_000, 0));
    bar.finish("batch: done");
    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(out.split("\r", -1)).hasSize(4);
    assertThat(out).doesNotContain("500/100,000").contains("1,000/100,000 rows  6,667 rows/s");
    assertThat(out).endsWith("\r\u001b[Kbatch: done\n").doesNotContain("\n\r");
    assertThat(out.indexOf('\n')).isEqualTo(out.length() - 1);
  }

  @Test
  @DisplayName("a log line written to standard error while the bar shows first clears the bar; the bar comes back below it")
  void logLinesClearTheBar() {
    PrintStream original = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
    AtomicLong now = new AtomicLong(0);
    System.setErr(err);
    try {
      Progress.Bar bar = new Progress.Bar(err, 80, now::get).guardingStandardError();
      bar.update(at(10, 0));
      System.err.println("12:00:00 WARN breaker opened");
      bar.update(at(11, 0));
      bar.finish("batch: done");
      assertThat(System.err).isSameAs(err);
    } finally {
      System.setErr(original);
    }
    String out = buf.toString(StandardCharsets.UTF_8);
    assertThat(out).contains("ETA --:--\u001b[K\r\u001b[K12:00:00 WARN breaker opened\n\r  0% [");
  }

  @Test
  @DisplayName("plain lines: one every interval, never for the last row (the final line says it), with rate and ETA")
  void plainLines() {
    AtomicLong now = new AtomicLong(0);
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    Progress.Lines lines = new Progress.Lines(new PrintStream(buf, true, StandardCharsets.UTF_8), 5_000, now::get);
    lines.update(at(0, 0));
    now.addAndGet(4 * S);
    lines.update(at(4_000, 0));
    now.addAndGet(2 * S);
    lines.update(at(6_000, 3));
    now.addAndGet(S);
    lines.update(at(7_000, 3));
    lines.finish("batch: 100,000 rows");
    assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo(
        "batch: 6,000/100,000 rows (6%), 1,000 rows/s, ETA 1:34; 3 not resolved\nbatch: 100,000 rows\n");
  }
}
