package dev.georesolver.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keeps every test's durable state out of the project: a manifest without a {@code state:} block
 * gets one whose file is in a fresh temp directory (removed when the test JVM exits), and a
 * manifest without a {@code reconcile:} block gets the reconciler switched off, so tests that count
 * provider calls are not disturbed by a drain. Tests of reconciliation write their own blocks.
 */
public final class TestState {

  private static final Pattern STATE = Pattern.compile("(?m)^state:");
  private static final Pattern RECONCILE = Pattern.compile("(?m)^reconcile:");
  private static final List<Path> DIRS = new CopyOnWriteArrayList<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> DIRS.forEach(TestState::delete), "test-state-cleanup"));
  }

  private TestState() {}

  /** A fresh directory for one state file, removed at exit. */
  public static Path freshDir() {
    try {
      Path d = Files.createTempDirectory("georesolver-state");
      DIRS.add(d);
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A fresh state file path (not created). */
  public static Path freshFile() {
    return freshDir().resolve("state.db");
  }

  /** {@code yaml} with a private state file and, unless it says otherwise, no reconciler. */
  public static String isolate(String yaml) {
    String out = yaml.endsWith("\n") ? yaml : yaml + "\n";
    if (!STATE.matcher(out).find()) {
      out += "state: { path: \"" + freshFile() + "\" }\n";
    }
    if (!RECONCILE.matcher(out).find()) {
      out += "reconcile: { enabled: false }\n";
    }
    return out;
  }

  private static void delete(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort at exit
    }
  }
}
