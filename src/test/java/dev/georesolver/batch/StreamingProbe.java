package dev.georesolver.batch;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;

/**
 * Reads a generated batch of N rows and writes every row's result as CSV to nowhere, then prints
 * what it counted. Run in a JVM with a small heap by {@link BatchStreamingTest}: a reader or writer
 * that held rows would run out of memory long before the end.
 *
 * <p>{@code java dev.georesolver.batch.StreamingProbe CSV|NDJSON|JSON_ARRAY <rows>}
 */
public final class StreamingProbe {

  private StreamingProbe() {}

  public static void main(String[] args) throws Exception {
    InputFormat format = InputFormat.valueOf(args[0]);
    long n = Long.parseLong(args[1]);
    long invalid = 0;
    long bytes;
    RowResult ok = RowResult.fromResult(io.vertx.core.json.JsonObject.of("status", "resolved", "lon", 1.5, "lat", 2.5));
    Counting sink = new Counting();
    try (BatchReader r = BatchReaders.open(new GeneratedBatch(format, n), BatchLimits.defaults());
        ResultWriter w = ResultWriters.open(OutputFormat.CSV, sink, java.util.List.of("id", "address", "note"), ',', false, 0)) {
      for (BatchRow row = r.next(); row != null; row = r.next()) {
        if (!row.valid()) {
          invalid++;
        }
        w.write(row, row.valid() ? ok : RowResult.invalid(row.problem()));
      }
      w.finish();
      bytes = sink.count;
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      System.out.println("rows=" + r.rowsRead() + " invalid=" + invalid + " bytes_out=" + bytes + " heap_used_after_gc_mb="
          + used / (1024 * 1024));
    }
  }

  private static final class Counting extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
