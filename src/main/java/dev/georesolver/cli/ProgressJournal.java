package dev.georesolver.cli;

import dev.georesolver.batch.RowResult;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The sidecar file of a batch run ({@code <output>.progress}, JSON Lines), from which an
 * interrupted run is resumed. Three kinds of line, appended as they happen:
 *
 * <ul>
 *   <li>the header (first line): the input's sha256 and row count, the output format and the
 *       request options, so a run is only ever resumed for the same file asked the same way;
 *   <li>{@code {"row": n, "r": {…}}}: the resolver's answer for row {@code n}, written the moment it
 *       arrives, in any order, so a resumed run replays it instead of asking again;
 *   <li>{@code {"written": k, "bytes": b, "resolved": …}}: the output holds rows {@code 0..k-1} in
 *       its first {@code b} bytes, flushed, with those counts.
 * </ul>
 *
 * Each line is one write to the operating system as soon as it is made, so it survives the process
 * being killed; a line cut short by a kill is dropped when the file is read back. The process holds
 * a lock on the file while it runs, so two runs cannot write one output. Not thread-safe: one
 * batch run, one thread.
 */
final class ProgressJournal implements Closeable {

  /** Version of the file's format, in the header. */
  static final int VERSION = 1;

  /**
   * A marker: the output's first {@code bytes} bytes hold rows {@code 0..written-1}.
   *
   * @param written rows in the output
   * @param bytes the output's length then
   * @param resolved rows among them resolved
   * @param refused rows among them refused
   * @param invalid rows among them invalid
   * @param failed rows among them failed
   */
  record Marker(long written, long bytes, long resolved, long refused, long invalid, long failed) {
    static final Marker NONE = new Marker(0, 0, 0, 0, 0, 0);

    JsonObject toJson() {
      return new JsonObject().put("written", written).put("bytes", bytes).put("resolved", resolved).put("refused", refused)
          .put("invalid", invalid).put("failed", failed);
    }

    static Marker fromJson(JsonObject j) {
      return new Marker(j.getLong("written"), j.getLong("bytes"), j.getLong("resolved", 0L), j.getLong("refused", 0L),
          j.getLong("invalid", 0L), j.getLong("failed", 0L));
    }
  }

  /**
   * What an interrupted run left.
   *
   * @param header its header
   * @param marker the last marker (nothing written: {@link Marker#NONE})
   * @param answers answers for rows at or after the marker
   * @param journal the file, open to go on appending
   */
  record Resumed(JsonObject header, Marker marker, Map<Long, RowResult> answers, ProgressJournal journal) {}

  private final Path path;
  private final JsonObject header;
  private FileChannel channel;
  private FileLock lock;

  private ProgressJournal(Path path, FileChannel channel, FileLock lock, JsonObject header) {
    this.path = path;
    this.channel = channel;
    this.lock = lock;
    this.header = header;
  }

  /** The progress file of {@code output}. */
  static Path pathFor(Path output) {
    return output.resolveSibling(output.getFileName() + ".progress");
  }

  /** Starts a new file (replacing any) with {@code header}. */
  static ProgressJournal create(Path path, JsonObject header) throws IOException, CliException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
    FileLock lock = lock(ch, path);
    ch.truncate(0);
    ProgressJournal j = new ProgressJournal(path, ch, lock, header.copy().put("georesolver_batch", VERSION));
    j.append(j.header);
    return j;
  }

  /**
   * Reads what an interrupted run left, drops a last line cut short, and opens the file to go on.
   *
   * @throws CliException ({@link Exit#USAGE}) when the file is not a batch progress file
   */
  static Resumed resume(Path path) throws IOException, CliException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.READ);
    FileLock lock = lock(ch, path);
    JsonObject header = null;
    Marker marker = Marker.NONE;
    Map<Long, RowResult> answers = new HashMap<>();
    long complete = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      long pos = 0;
      for (int b = in.read(); b >= 0; b = in.read()) {
        pos++;
        if (b != '\n') {
          line.write(b);
          continue;
        }
        JsonObject j;
        try {
          j = new JsonObject(line.toString(StandardCharsets.UTF_8));
        } catch (DecodeException e) {
          throw corrupt(ch, path, "line ending at byte " + pos + " is not JSON");
        }
        line.reset();
        complete = pos;
        if (header == null) {
          if (!Integer.valueOf(VERSION).equals(j.getValue("georesolver_batch"))) {
            throw corrupt(ch, path, "it does not begin with a batch header");
          }
          header = j;
        } else if (j.containsKey("written")) {
          marker = Marker.fromJson(j);
          long upTo = marker.written();
          answers.keySet().removeIf(row -> row < upTo);
        } else if (j.containsKey("row")) {
          long row = j.getLong("row");
          if (row >= marker.written()) {
            answers.put(row, RowResult.fromJson(j.getJsonObject("r")));
          }
        }
      }
    } catch (ClassCastException | NullPointerException e) {
      throw corrupt(ch, path, "a line has the wrong fields");
    }
    if (header == null) {
      throw corrupt(ch, path, "it has no header");
    }
    ch.truncate(complete);
    ch.position(complete);
    return new Resumed(header, marker, answers, new ProgressJournal(path, ch, lock, header));
  }

  private static FileLock lock(FileChannel ch, Path path) throws IOException, CliException {
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      ch.close();
      throw new CliException(Exit.USAGE, "another batch run is writing " + path + " (it is locked)");
    }
    return lock;
  }

  private static CliException corrupt(FileChannel ch, Path path, String why) throws IOException {
    ch.close();
    return new CliException(Exit.USAGE, path + " is not a batch progress file (" + why + "): delete it to start over");
  }

  /** Records the resolver's answer for row {@code row}. */
  void answered(long row, RowResult r) throws IOException {
    append(new JsonObject().put("row", row).put("r", r.toJson()));
  }

  /** Records that the output now holds what {@code m} says, flushed. */
  void written(Marker m) throws IOException {
    append(m.toJson());
  }

  /** The file's length, bytes. */
  long size() throws IOException {
    return channel.size();
  }

  /**
   * Rewrites the file as the header, {@code m}, and the answers still waiting to be written, so it
   * does not grow with the input. Atomic: a kill during it leaves the old file or the new one.
   */
  void compact(Marker m, Map<Long, RowResult> waiting) throws IOException {
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      write(out, header);
      write(out, m.toJson());
      for (Map.Entry<Long, RowResult> e : waiting.entrySet()) {
        write(out, new JsonObject().put("row", e.getKey()).put("r", e.getValue().toJson()));
      }
    }
    Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    // The channel and its lock are on the old file: go on with the new one.
    FileChannel fresh = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    FileLock freshLock = fresh.tryLock();
    lock.release();
    channel.close();
    channel = fresh;
    lock = freshLock;
  }

  private void append(JsonObject line) throws IOException {
    write(channel, line);
  }

  private static void write(FileChannel ch, JsonObject line) throws IOException {
    ByteBuffer b = ByteBuffer.wrap((line.encode() + "\n").getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  /** Deletes the file: the run is complete. */
  void delete() throws IOException {
    close();
    Files.deleteIfExists(path);
  }

  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      if (lock != null) {
        lock.release();
      }
      channel.close();
    }
  }
}
