package dev.georesolver.reload;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The log record of a reload attempt: an event of logger {@code dev.georesolver.reload}, INFO when
 * applied, WARN when refused, DEBUG when the file was the revision serving. Structured fields:
 * {@code event} ({@code "manifest_reload"}), {@code outcome} ({@code applied} | {@code refused} |
 * {@code unchanged}), {@code trigger} ({@code file} | {@code http} | {@code signal}),
 * {@code manifest_revision} (serving after it), {@code candidate_revision}, and when there are
 * any {@code problems} and {@code needs_restart} (joined by {@code "; "}), and when applied
 * {@code applied_settings} and the tiers {@code kept}, {@code changed}, {@code added},
 * {@code removed} (joined by {@code ","}). The
 * problems are the loader's, which name paths and variables, never a value. Thread-safe.
 */
public final class ReloadLog {

  /** The logger the records are written to. */
  public static final String LOGGER = "dev.georesolver.reload";

  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  private ReloadLog() {}

  /** Writes the record of {@code s}. */
  public static void record(ReloadStatus s) {
    Level level = switch (s.outcome()) {
      case APPLIED -> Level.INFO;
      case REFUSED -> Level.WARN;
      default -> Level.DEBUG;
    };
    if (!log.isEnabledForLevel(level)) {
      return;
    }
    LoggingEventBuilder e = log.atLevel(level).setMessage(message(s));
    for (Map.Entry<String, Object> f : fields(s)) {
      e = e.addKeyValue(f.getKey(), f.getValue());
    }
    e.log();
  }

  /** The record's structured fields, in order; absent ones left out. */
  static List<Map.Entry<String, Object>> fields(ReloadStatus s) {
    List<Map.Entry<String, Object>> f = new ArrayList<>();
    f.add(Map.entry("event", "manifest_reload"));
    f.add(Map.entry("outcome", s.outcome().wire()));
    f.add(Map.entry("trigger", s.trigger()));
    f.add(Map.entry("manifest_revision", s.serving()));
    if (s.candidate() != null) {
      f.add(Map.entry("candidate_revision", s.candidate()));
    }
    if (!s.problems().isEmpty()) {
      f.add(Map.entry("problems", String.join("; ", s.problems())));
    }
    if (!s.needsRestart().isEmpty()) {
      f.add(Map.entry("needs_restart", String.join("; ", s.needsRestart())));
    }
    if (s.diff() != null) {
      f.add(Map.entry("applied_settings", String.join(",", s.diff().applied())));
      f.add(Map.entry("kept", String.join(",", s.diff().kept())));
      f.add(Map.entry("changed", String.join(",", s.diff().changed())));
      f.add(Map.entry("added", String.join(",", s.diff().added())));
      f.add(Map.entry("removed", String.join(",", s.diff().removed())));
    }
    return f;
  }

  private static String message(ReloadStatus s) {
    switch (s.outcome()) {
      case APPLIED:
        return "manifest reloaded (" + s.trigger() + "): revision " + s.serving() + " serving; settings applied: "
            + (s.diff().applied().isEmpty() ? "none" : String.join(", ", s.diff().applied())) + "; tiers " + s.diff().tiersJson().encode();
      case REFUSED:
        List<String> why = new ArrayList<>(s.problems());
        why.addAll(s.needsRestart().stream().map(n -> "needs a restart: " + n).toList());
        return "manifest reload refused (" + s.trigger() + "): revision " + s.serving() + " keeps serving: "
            + String.join("; ", why);
      default:
        return "manifest reload (" + s.trigger() + "): revision " + s.serving() + " unchanged";
    }
  }
}
