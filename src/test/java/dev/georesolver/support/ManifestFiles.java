package dev.georesolver.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Manifest files as the reload tests change them. */
public final class ManifestFiles {

  private ManifestFiles() {
  }

  /** Replaces {@code f} as editors and git checkouts do: a new file renamed over the old, so a watcher never reads half of it. */
  public static void replace(Path f, String yaml) throws IOException {
    Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
    Files.writeString(tmp, yaml);
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
