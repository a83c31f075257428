package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;
import io.vertx.core.json.JsonObject;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code georesolver init [path]}: writes a starter manifest to edit — the default manifest bundled in
 * the jar (the offline default ladder, with the commercial rung waiting for its key), followed by
 * every other block commented out with its default values, so each optional key is shown where it
 * goes. Refuses to overwrite a file unless {@code --force}. Exit 0, or 2 when it cannot write.
 */
@Command(name = "init", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Writes a starter manifest: the default ladder, with every optional block shown commented out."})
final class InitCommand implements Callable<Integer> {

  private final Cli.Context context;

  @Parameters(index = "0", arity = "0..1", paramLabel = "PATH", defaultValue = Manifests.DEFAULT_PATH,
      description = "where to write it (default ${DEFAULT-VALUE})")
  String path;

  @Option(names = "--force", description = "overwrite the file if it exists")
  boolean force;

  InitCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    Path target = Path.of(path);
    if (Files.exists(target) && !force) {
      context.err().println("georesolver: " + target + " exists: not overwritten (--force to replace it)");
      return Exit.USAGE;
    }
    String text;
    try {
      text = starter(Manifests.bundled());
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    try {
      if (target.toAbsolutePath().getParent() != null) {
        Files.createDirectories(target.toAbsolutePath().getParent());
      }
      Files.writeString(target, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      context.err().println("georesolver: cannot write " + target + ": " + e.getMessage());
      return Exit.USAGE;
    }
    context.out().println("wrote " + target + ": the default ladder, every optional block commented out below it;"
        + " check it with: georesolver validate " + target);
    return Exit.OK;
  }

  /**
   * The bundled manifest, then the blocks it leaves to their defaults, commented out, from the
   * effective configuration the loader reads (so what is shown is what the defaults are).
   */
  static String starter(String bundled) throws CliException {
    Manifest m;
    try {
      m = ManifestLoader.parse(bundled, Map.of());
    } catch (ManifestException e) {
      throw new CliException(Exit.USAGE, "the bundled default manifest is invalid: " + e.getMessage());
    }
    Set<String> written = new Yaml().<Map<String, Object>>load(bundled).keySet();
    JsonObject effective = m.describe().getJsonObject("manifest");
    Map<String, Object> rest = new LinkedHashMap<>();
    effective.getMap().forEach((k, v) -> {
      if (!written.contains(k)) {
        rest.put(k, v instanceof JsonObject j ? j.getMap() : v);
      }
    });
    DumperOptions o = new DumperOptions();
    o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    o.setIndent(2);
    StringBuilder sb = new StringBuilder(bundled.endsWith("\n") ? bundled : bundled + "\n");
    sb.append("\n# ---- Optional blocks, shown with their defaults. Uncomment what you change;\n")
        .append("# docs/configuration.md describes every key.\n");
    for (Map.Entry<String, Object> e : rest.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      Map<String, Object> one = new LinkedHashMap<>();
      one.put(e.getKey(), plain(e.getValue()));
      String block = new Yaml(o).dump(one);
      sb.append('\n');
      for (String line : block.split("\n")) {
        sb.append("# ").append(line).append('\n');
      }
    }
    return sb.toString();
  }

  /** Vert.x JSON values as plain maps and lists, for the YAML dumper. */
  private static Object plain(Object v) {
    if (v instanceof JsonObject j) {
      Map<String, Object> m = new LinkedHashMap<>();
      j.getMap().forEach((k, x) -> m.put(k, plain(x)));
      return m;
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> m = new LinkedHashMap<>();
      map.forEach((k, x) -> m.put(String.valueOf(k), plain(x)));
      return m;
    }
    if (v instanceof io.vertx.core.json.JsonArray a) {
      return plainList(a.getList());
    }
    if (v instanceof java.util.List<?> l) {
      return plainList(l);
    }
    return v;
  }

  private static java.util.List<Object> plainList(java.util.List<?> l) {
    java.util.List<Object> out = new java.util.ArrayList<>(l.size());
    for (Object x : l) {
      out.add(plain(x));
    }
    return out;
  }
}
