package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Loads the manifest for a command, or says on standard error why it cannot, every problem listed.
 * With no manifest named ({@code --manifest} and {@code GEO_MANIFEST} unset) and no
 * {@value #DEFAULT_PATH} in the working directory, the default manifest bundled in the jar is used,
 * and one line on standard error says so: the command line works from any directory.
 */
final class Manifests {

  /** The manifest a command reads when none is named. */
  static final String DEFAULT_PATH = "conf/manifest.yaml";
  /** Where the default manifest is in the jar. */
  static final String BUNDLED = "georesolver/manifest.yaml";

  private Manifests() {}

  /**
   * A manifest and the file it came from.
   *
   * @param file the file, absolute (null: the bundled one, no file to watch)
   * @param named the path as the user gave it, for messages (null: the bundled one)
   */
  record Loaded(Manifest manifest, Path file, String named) {
    /** What it is, for messages: the path as given, or "the bundled default manifest". */
    String where() {
      return named == null ? "the bundled default manifest" : named;
    }
  }

  /**
   * The manifest at {@code path}, or the bundled one when {@code path} is the default and no such
   * file exists (said on {@code err}).
   *
   * @param refusing what the command refuses to do when it is invalid, e.g. "refusing to start: "
   * @throws CliException ({@link Exit#USAGE}) when it cannot be read or is invalid; the message lists every problem
   */
  static Loaded load(String path, Map<String, String> env, String refusing, PrintStream err) throws CliException {
    if (DEFAULT_PATH.equals(path) && !Files.exists(Path.of(path))) {
      err.println("georesolver: no " + DEFAULT_PATH + " here: using the default manifest bundled in the jar"
          + " (georesolver init writes it out to edit)");
      return new Loaded(parse(bundled(), env, refusing, "the bundled default manifest"), null, null);
    }
    try {
      return new Loaded(parse(Files.readString(Path.of(path), StandardCharsets.UTF_8), env, refusing, path),
          Path.of(path).toAbsolutePath(), path);
    } catch (NoSuchFileException e) {
      throw new CliException(Exit.USAGE, "cannot read manifest " + path + ": no such file");
    } catch (IOException | RuntimeException e) {
      throw new CliException(Exit.USAGE, "cannot read manifest " + path + ": " + e.getMessage());
    }
  }

  /** The default manifest's text, as bundled. */
  static String bundled() throws CliException {
    try (InputStream in = Manifests.class.getClassLoader().getResourceAsStream(BUNDLED)) {
      if (in == null) {
        throw new CliException(Exit.USAGE, "this build carries no default manifest (" + BUNDLED + "): give --manifest");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException(Exit.USAGE, "cannot read the bundled default manifest: " + e.getMessage());
    }
  }

  private static Manifest parse(String yaml, Map<String, String> env, String refusing, String what) throws CliException {
    try {
      return ManifestLoader.parse(yaml, env);
    } catch (ManifestException e) {
      StringBuilder sb = new StringBuilder(refusing).append(what).append(" is invalid:");
      e.problems().forEach(p -> sb.append("\n  - ").append(p));
      throw new CliException(Exit.USAGE, sb.toString());
    }
  }
}
