package dev.georesolver.cli;

import dev.georesolver.batch.RowResult;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The progress file a batch resumes from: what it keeps, what a kill mid-line leaves, compaction. */
class ProgressJournalTest {

  private static final RowResult OK = new RowResult("resolved", 1.5, 2.5, "x", "exact", "t", 0.9, false, "n", null);

  @Test
  @DisplayName("resumed: the header, the last marker, and only the answers at or after it")
  void resume(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("out.csv.progress");
    try (ProgressJournal j = ProgressJournal.create(p, new JsonObject().put("input_sha256", "ab"))) {
      j.answered(1, OK);
      j.answered(0, RowResult.failed("boom"));
      j.written(new ProgressJournal.Marker(2, 100, 1, 0, 0, 1));
      j.answered(3, OK);
      j.answered(2, RowResult.invalid("bad"));
    }
    ProgressJournal.Resumed r = ProgressJournal.resume(p);
    r.journal().close();
    assertThat(r.header().getString("input_sha256")).isEqualTo("ab");
    assertThat(r.marker()).isEqualTo(new ProgressJournal.Marker(2, 100, 1, 0, 0, 1));
    assertThat(r.answers()).containsOnly(Map.entry(3L, OK), Map.entry(2L, RowResult.invalid("bad")));
  }

  @Test
  @DisplayName("a last line cut short by a kill is dropped, and appending goes on after the last whole line")
  void tornLastLine(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("p");
    try (ProgressJournal j = ProgressJournal.create(p, new JsonObject())) {
      j.answered(0, OK);
    }
    Files.writeString(p, "{\"row\":1,\"r\":{\"sta", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    ProgressJournal.Resumed r = ProgressJournal.resume(p);
    assertThat(r.answers()).containsOnlyKeys(0L);
    r.journal().answered(1, OK);
    r.journal().close();
    ProgressJournal.Resumed again = ProgressJournal.resume(p);
    again.journal().close();
    assertThat(again.answers()).containsOnlyKeys(0L, 1L);
  }

  @Test
  @DisplayName("compaction keeps the header, the marker and the waiting answers, and appending goes on in the new file")
  void compaction(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("p");
    ProgressJournal j = ProgressJournal.create(p, new JsonObject().put("input_sha256", "cd"));
    for (int i = 0; i < 1000; i++) {
      j.answered(i, OK);
    }
    long before = j.size();
    ProgressJournal.Marker m = new ProgressJournal.Marker(998, 5000, 998, 0, 0, 0);
    j.written(m);
    j.compact(m, Map.of(998L, OK, 999L, OK));
    assertThat(j.size()).isLessThan(before / 100);
    j.answered(1000, OK);
    j.close();
    ProgressJournal.Resumed r = ProgressJournal.resume(p);
    r.journal().close();
    assertThat(r.header().getString("input_sha256")).isEqualTo("cd");
    assertThat(r.marker()).isEqualTo(m);
    assertThat(r.answers()).containsOnlyKeys(998L, 999L, 1000L);
    assertThat(Files.exists(dir.resolve("p.tmp"))).isFalse();
  }

  @Test
  @DisplayName("a second run on the same output is refused while the first holds the file")
  void locked(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("p");
    try (ProgressJournal j = ProgressJournal.create(p, new JsonObject())) {
      assertThat(j.size()).isPositive();
      assertThatThrownBy(() -> ProgressJournal.resume(p)).isInstanceOf(CliException.class)
          .hasMessage("another batch run is writing " + p + " (it is locked)");
    }
  }

  @Test
  @DisplayName("a file that is not a progress file is refused, saying to delete it")
  void notAProgressFile(@TempDir Path dir) throws Exception {
    Path p = dir.resolve("p");
    Files.writeString(p, "{\"something\": \"else\"}\n");
    assertThatThrownBy(() -> ProgressJournal.resume(p)).isInstanceOf(CliException.class)
        .hasMessageContaining("is not a batch progress file").hasMessageContaining("delete it to start over");
  }
}
