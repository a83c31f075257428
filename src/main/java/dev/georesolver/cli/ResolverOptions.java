package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.logging.Logs;
import picocli.CommandLine.Option;

/**
 * Where {@code geocode}, {@code reverse} and {@code batch} send their requests: an in-process
 * resolver on {@code --manifest} (the default), or the one running at {@code --server}.
 */
final class ResolverOptions {

  @Option(names = "--manifest", paramLabel = "FILE", defaultValue = "conf/manifest.yaml",
      description = "the manifest of the in-process resolver (GEO_MANIFEST; default ${DEFAULT-VALUE})")
  String manifest;

  @Option(names = "--redis", paramLabel = "URL", description = "the in-process resolver's shared store (GEO_REDIS_URL)")
  String redis;

  @Option(names = "--server", paramLabel = "URL",
      description = "ask the resolver running at URL over HTTP instead of one in this process (GEO_SERVER)")
  String server;

  @Option(names = "--key", paramLabel = "KEY",
      description = "API key for --server, sent as Authorization: Bearer (GEO_API_KEY, which, unlike a flag, other users "
          + "cannot read in the process list)")
  String key;

  @Option(names = "--log-format", paramLabel = "text|json",
      description = "log lines (warnings and errors, on standard error) as text or JSON (GEO_LOG_FORMAT)")
  String logFormat;

  /**
   * Opens the resolver these options name. Blocks while an in-process resolver starts.
   *
   * @param connections connections to keep to a server (a batch's concurrency)
   * @param retries times a request whose answer may come later (no answer in time; from a server:
   *     unreachable, 429, 502–504) is asked again
   */
  Resolver open(Cli.Context context, int connections, int retries) throws CliException {
    // Standard output is the answer (or nothing, for a batch): the log keeps to standard error.
    Logs.toStandardError(context.env());
    if (server != null && !server.isBlank()) {
      HttpResolver r = HttpResolver.open(server, key, connections, retries);
      if (r.keyInClearText()) {
        context.err().println("georesolver: warning: the key goes to " + r.describe() + " unencrypted (http:, not https:)");
      }
      return r;
    }
    Manifests.Loaded m = Manifests.load(manifest, context.env(), "", context.err());
    return EmbeddedResolver.start(m.manifest(), m.where(), redis, context.env(), retries);
  }
}
