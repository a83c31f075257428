package dev.georesolver.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Runs the command line in this JVM, as {@code Main} does after the log format, and keeps what it printed. */
final class CliRun {

  /** What a run gave. */
  record Result(int status, String out, String err) {
    @Override
    public String toString() {
      return "status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private CliRun() {}

  static Result run(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Cli.run(args, env, o, e);
    }
    return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static Result run(String... args) {
    return run(Map.of(), args);
  }
}
