package dev.georesolver.batch;

import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.Tools;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A million-row file, made on the fly, read and written through in a JVM whose heap (24 MiB) is a
 * fraction of the file (about 50 MB of text): reading and writing stream, holding nothing per row.
 */
class BatchStreamingTest {

  private static final long ROWS = 1_000_000;

  @ParameterizedTest
  @EnumSource(InputFormat.class)
  @DisplayName("1,000,000 rows stream through a 24 MiB heap, every row counted, every 1,000th invalid")
  void aMillionRowsInASmallHeap(InputFormat format) throws Exception {
    Tools.Result r = Tools.run(List.of(ResolverProcess.javaBin(), "-Xmx24m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), StreamingProbe.class.getName(), format.name(), Long.toString(ROWS)),
        Map.of(), 300);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("rows=" + ROWS + " invalid=" + ROWS / 1000 + " ");
  }
}
