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
 *   <tr><td>{@code --redis}</td><td>{@code GEO_REDIS_URL}</td></tr>
 *   <tr><td>{@code --event-loops}</td><td>{@code GEO_EVENT_LOOPS}</td></tr>
 *   <tr><td>{@code --server}</td><td>{@code GEO_SERVER}</td></tr>
 *   <tr><td>{@code --key}</td><td>{@code GEO_API_KEY} (better than the flag, which other users may see in a process list)</td></tr>
 * </table>
 */
final class EnvDefaults implements CommandLine.IDefaultValueProvider {

  /** Option name → environment variable. */
  static final Map<String, String> VARIABLES = Map.of(
      "--manifest", "GEO_MANIFEST",
      "--port", "GEO_PORT",
      "--redis", "GEO_REDIS_URL",
      "--event-loops", "GEO_EVENT_LOOPS",
      "--server", "GEO_SERVER",
      "--key", "GEO_API_KEY");

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
