package dev.georesolver.cli;

import picocli.CommandLine;

import java.util.Map;

/**
 * Defaults from the environment: an option whose variable is set (and not blank) defaults to its
 * value, so a flag always wins over the environment, and the environment over the built-in
 * default. The environment is given, not read, so tests can pass their own.
 *
 * <table>
 *   <caption>variables</caption>
 *   <tr><td>{@code --manifest}</td><td>{@code GEO_MANIFEST}</td></tr>
 *   <tr><td>{@code --port}</td><td>{@code GEO_PORT}</td></tr>
 *   <tr><td>{@code --host}</td><td>{@code GEO_HOST}</td></tr>
 *   <tr><td>{@code --redis}</td><td>{@code GEO_REDIS_URL}</td></tr>
 *   <tr><td>{@code --event-loops}</td><td>{@code GEO_EVENT_LOOPS}</td></tr>
 *   <tr><td>{@code --server}</td><td>{@code GEO_SERVER}</td></tr>
 *   <tr><td>{@code --key}</td><td>{@code GEO_API_KEY} (better than the flag, which other users may see in a process list)</td></tr>
 *   <tr><td>{@code --roles}</td><td>{@code GEO_ROLES}</td></tr>
 *   <tr><td>{@code --cluster}</td><td>{@code GEO_CLUSTER} ({@code true})</td></tr>
 *   <tr><td>{@code --cluster-members}, {@code --cluster-host}, {@code --cluster-port}, {@code --cluster-name},
 *       {@code --bus-port}</td><td>{@code GEO_CLUSTER_MEMBERS}, {@code GEO_CLUSTER_HOST}, {@code GEO_CLUSTER_PORT},
 *       {@code GEO_CLUSTER_NAME}, {@code GEO_BUS_PORT}</td></tr>
 *   <tr><td>{@code --cluster-cert}, {@code --cluster-key}, {@code --cluster-ca}, {@code --cluster-insecure}</td>
 *       <td>{@code GEO_CLUSTER_CERT}, {@code GEO_CLUSTER_KEY}, {@code GEO_CLUSTER_CA}, {@code GEO_CLUSTER_INSECURE} ({@code true})</td></tr>
 * </table>
 */
final class EnvDefaults implements CommandLine.IDefaultValueProvider {

  /** Option name → environment variable. */
  static final Map<String, String> VARIABLES = Map.ofEntries(
      Map.entry("--manifest", "GEO_MANIFEST"),
      Map.entry("--port", "GEO_PORT"),
      Map.entry("--host", "GEO_HOST"),
      Map.entry("--redis", "GEO_REDIS_URL"),
      Map.entry("--event-loops", "GEO_EVENT_LOOPS"),
      Map.entry("--server", "GEO_SERVER"),
      Map.entry("--key", "GEO_API_KEY"),
      Map.entry("--roles", "GEO_ROLES"),
      Map.entry("--cluster", "GEO_CLUSTER"),
      Map.entry("--cluster-members", "GEO_CLUSTER_MEMBERS"),
      Map.entry("--cluster-host", "GEO_CLUSTER_HOST"),
      Map.entry("--cluster-port", "GEO_CLUSTER_PORT"),
      Map.entry("--cluster-name", "GEO_CLUSTER_NAME"),
      Map.entry("--cluster-cert", "GEO_CLUSTER_CERT"),
      Map.entry("--cluster-key", "GEO_CLUSTER_KEY"),
      Map.entry("--cluster-ca", "GEO_CLUSTER_CA"),
      Map.entry("--cluster-insecure", "GEO_CLUSTER_INSECURE"),
      Map.entry("--bus-port", "GEO_BUS_PORT"));

  private final Map<String, String> env;

  EnvDefaults(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public String defaultValue(CommandLine.Model.ArgSpec arg) {
    if (!(arg instanceof CommandLine.Model.OptionSpec o)) {
      return null;
    }
    String var = VARIABLES.get(o.longestName());
    String v = var == null ? null : env.get(var);
    return v == null || v.isBlank() ? null : v.strip();
  }
}
