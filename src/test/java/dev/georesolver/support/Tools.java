package dev.georesolver.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * External programs the tests run ({@code promtool}, {@code docker-compose}, {@code scripts/*.sh}).
 * A tool that cannot be found fails the test with how to get it: {@code scripts/test.sh} installs
 * them.
 */
public final class Tools {

  private Tools() {}

  /** What a finished program printed (stdout and stderr merged) and its exit status. */
  public record Result(int exit, String output) {}

  /**
   * The path of {@code name}: the environment variable {@code envVar} when set, else the first match
   * on {@code PATH}, else {@code fallback} when it exists.
   *
   * @throws AssertionError when none is found
   */
  public static String find(String name, String envVar, Path fallback) {
    String env = envVar == null ? null : System.getenv(envVar);
    if (env != null && !env.isBlank()) {
      return env;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    if (fallback != null && Files.isExecutable(fallback)) {
      return fallback.toString();
    }
    throw new AssertionError(name + " is not installed: run the tests with scripts/test.sh, which installs it"
        + (envVar == null ? "" : " (or set " + envVar + ")"));
  }

  /** Runs {@code cmd} in the project directory with {@code env} added, waiting at most {@code timeoutS}. */
  public static Result run(List<String> cmd, Map<String, String> env, long timeoutS) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(env);
    Path out = Files.createTempFile("tool", ".out");
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    try {
      if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError(String.join(" ", cmd) + " did not finish in " + timeoutS + " s:\n"
            + Files.readString(out, StandardCharsets.UTF_8));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
