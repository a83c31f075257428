package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/** Loads the manifest for a command, or says on standard error why it cannot, every problem listed. */
final class Manifests {

  private Manifests() {}

  /**
   * The manifest at {@code path}.
   *
   * @param refusing what the command refuses to do when it is invalid, e.g. "refusing to start: "
   * @throws CliException ({@link Exit#USAGE}) when it cannot be read or is invalid; the message lists every problem
   */
  static Manifest load(String path, Map<String, String> env, String refusing) throws CliException {
    try {
      return ManifestLoader.load(Path.of(path), env);
    } catch (ManifestException e) {
      StringBuilder sb = new StringBuilder(refusing).append(path).append(" is invalid:");
      e.problems().forEach(p -> sb.append("\n  - ").append(p));
      throw new CliException(Exit.USAGE, sb.toString());
    } catch (NoSuchFileException e) {
      throw new CliException(Exit.USAGE, "cannot read manifest " + path + ": no such file");
    } catch (IOException | RuntimeException e) {
      throw new CliException(Exit.USAGE, "cannot read manifest " + path + ": " + e.getMessage());
    }
  }
}
