package dev.georesolver.batch;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads whole small batch files for tests. */
final class Rows {

  /** What a file read gave. */
  record Read(BatchReader reader, List<BatchRow> rows) {
    List<String> columns() {
      return reader.columns();
    }

    BatchRow row(int i) {
      return rows.get(i);
    }
  }

  private Rows() {}

  static Read read(String text) throws Exception {
    return read(text.getBytes(StandardCharsets.UTF_8), BatchLimits.defaults());
  }

  static Read read(String text, BatchLimits limits) throws Exception {
    return read(text.getBytes(StandardCharsets.UTF_8), limits);
  }

  static Read read(byte[] bytes, BatchLimits limits) throws Exception {
    try (BatchReader r = BatchReaders.open(new ByteArrayInputStream(bytes), limits)) {
      List<BatchRow> rows = new ArrayList<>();
      for (BatchRow row = r.next(); row != null; row = r.next()) {
        rows.add(row);
      }
      return new Read(r, rows);
    }
  }
}
