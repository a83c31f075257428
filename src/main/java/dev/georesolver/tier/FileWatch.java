package dev.georesolver.tier;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Watches a few small files for change: every {@link #PERIOD_MS} a worker reads their modification
 * times, sizes and file keys (an atomic rename gives a new one), and when any differs from the last
 * look, {@code onChange} runs on the owner's context. A file that vanishes is a change too (the
 * owner's re-read then fails and keeps what it had). Use from the owning verticle's context.
 */
final class FileWatch {

  /** How often the files are looked at, milliseconds. */
  static final long PERIOD_MS = 1000;

  private static final Logger log = LoggerFactory.getLogger(FileWatch.class);

  /** What one look at a file saw; null fields for a file that is not there. */
  private record Stamp(Object fileKey, long modifiedNanos, long size) {}

  private final Vertx vertx;
  private final List<Path> files;
  private final Runnable onChange;
  private List<Stamp> last;
  private long timer = -1;
  private boolean looking;

  /**
   * @param onChange what to do after a change, on the owner's context
   */
  FileWatch(Vertx vertx, List<Path> files, Runnable onChange) {
    this.vertx = vertx;
    this.files = List.copyOf(files);
    this.onChange = onChange;
  }

  /**
   * Takes the first look, then looks every period. Call before reading the files the first time,
   * so a change made while they are read is seen at the next look.
   */
  Future<Void> start() {
    return vertx.executeBlocking(this::look, false).map(first -> {
      last = first;
      timer = vertx.setPeriodic(PERIOD_MS, id -> poll());
      return null;
    });
  }

  void stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  private void poll() {
    if (looking) {
      return;
    }
    looking = true;
    vertx.executeBlocking(this::look, false).onComplete(ar -> {
      looking = false;
      if (ar.failed()) {
        log.warn("could not look at {}: {}", files, ar.cause().toString());
        return;
      }
      if (!ar.result().equals(last)) {
        last = ar.result();
        if (timer >= 0) {
          onChange.run();
        }
      }
    });
  }

  private List<Stamp> look() {
    List<Stamp> out = new ArrayList<>(files.size());
    for (Path p : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.add(new Stamp(Objects.requireNonNullElse(a.fileKey(), ""), a.lastModifiedTime().toInstant().getEpochSecond() * 1_000_000_000L
            + a.lastModifiedTime().toInstant().getNano(), a.size()));
      } catch (IOException e) {
        out.add(new Stamp(null, 0, -1));
      }
    }
    return out;
  }
}
