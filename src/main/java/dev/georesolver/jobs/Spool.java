package dev.georesolver.jobs;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the batch verticle keeps an upload's content while it arrives and while its rows are read
 * into the store: files this process alone names, reads and deletes (no message carries a path).
 * The default ({@link #files}) is a directory of this process's own under the system temporary
 * directory, locked while the process runs; at start the directories of processes that stopped
 * without cleaning up (their lock is free) are deleted, so content never piles up.
 *
 * <p>A test replaces it to inject write failures. Implementations are used from one verticle
 * context; {@link #open} and the {@link Sink} methods never block, {@link #start} and {@link #stop}
 * may (they run on a worker).
 */
public interface Spool {

  /** One upload's content being written. */
  interface Sink {
    /** Where the content is (for this process to read back). */
    Path path();

    /** Appends {@code data}; fails when it could not be written (disk full, I/O error). */
    Future<Void> write(Buffer data);

    /** Flushes and closes; fails when the content could not be made complete. */
    Future<Void> close();
  }

  /** Makes the spool ready and removes what stopped processes left; blocking. */
  void start() throws IOException;

  /** Removes this process's spool; blocking. */
  void stop();

  /** A new, empty sink for upload {@code id} (letters and digits only). */
  Future<Sink> open(String id);

  /** Deletes content written by {@link #open} (closed or not); never fails. */
  Future<Void> delete(Path path);

  /** The default spool on {@code vertx}'s file system. */
  static Spool files(Vertx vertx) {
    return new FileSpool(vertx, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** The default spool: one locked directory per process under {@code root}. */
  final class FileSpool implements Spool {

    private static final Logger log = LoggerFactory.getLogger(Spool.class);
    static final String PREFIX = "georesolver-spool-";
    static final String LOCK = ".lock";

    private final Vertx vertx;
    private final Path root;
    private Path dir;
    private FileChannel lockChannel;
    private FileLock lock;

    FileSpool(Vertx vertx, Path root) {
      this.vertx = vertx;
      this.root = root;
    }

    @Override
    public void start() throws IOException {
      sweep();
      dir = Files.createTempDirectory(root, PREFIX);
      lockChannel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      lock = lockChannel.lock();
    }

    /** Deletes every spool directory under the root whose lock no running process holds. */
    private void sweep() {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, PREFIX + "*")) {
        for (Path d : ds) {
          if (Files.isDirectory(d) && abandoned(d)) {
            deleteTree(d);
            log.info("batch spool: removed {} left by a process that stopped", d);
          }
        }
      } catch (IOException e) {
        log.warn("batch spool: cannot look for content left under {}: {}", root, e.getMessage());
      }
    }

    private static boolean abandoned(Path d) {
      Path l = d.resolve(LOCK);
      if (!Files.exists(l)) {
        return true;
      }
      try (FileChannel c = FileChannel.open(l, StandardOpenOption.WRITE)) {
        FileLock got = c.tryLock();
        if (got == null) {
          return false;
        }
        got.release();
        return true;
      } catch (OverlappingFileLockException e) {
        return false;
      } catch (IOException e) {
        return false;
      }
    }

    private static void deleteTree(Path d) {
      try (Stream<Path> all = Files.walk(d)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> {
          try {
            Files.deleteIfExists(p);
          } catch (IOException e) {
            // Left for the next sweep.
          }
        });
      } catch (IOException e) {
        // Left for the next sweep.
      }
    }

    @Override
    public void stop() {
      try {
        if (lock != null) {
          lock.release();
        }
        if (lockChannel != null) {
          lockChannel.close();
        }
      } catch (IOException e) {
        // The directory goes below anyway.
      }
      if (dir != null) {
        deleteTree(dir);
      }
    }

    @Override
    public Future<Sink> open(String id) {
      String path = dir.resolve(id + ".upload").toString();
      return vertx.fileSystem().open(path, new OpenOptions().setWrite(true).setCreateNew(true))
          .map(f -> new FileSink(Path.of(path), f));
    }

    @Override
    public Future<Void> delete(Path path) {
      return vertx.fileSystem().delete(path.toString()).otherwiseEmpty();
    }
  }

  /** A sink over an {@link AsyncFile}; closing twice closes once. */
  final class FileSink implements Sink {
    private final Path path;
    private final AsyncFile file;
    private Future<Void> closed;

    FileSink(Path path, AsyncFile file) {
      this.path = path;
      this.file = file;
    }

    @Override
    public Path path() {
      return path;
    }

    @Override
    public Future<Void> write(Buffer data) {
      return closed != null ? Future.failedFuture(new IOException("closed")) : file.write(data);
    }

    @Override
    public Future<Void> close() {
      if (closed == null) {
        closed = file.flush().compose(v -> file.close(), t -> file.close().compose(v -> Future.failedFuture(t), u -> Future.failedFuture(t)));
      }
      return closed;
    }
  }
}
