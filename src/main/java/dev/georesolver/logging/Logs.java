package dev.georesolver.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

import java.net.URL;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Chooses the log format before anything is logged: {@code --log-format json|text} on the command
 * line, else {@code GEO_LOG_FORMAT}, else {@code text}.
 *
 * <p>{@code text} is one line per event for a console ({@code logback.xml}); {@code json} is one
 * JSON object per line for a log pipeline ({@code logback-json.xml}). The JSON schema is stable:
 * <ul>
 *   <li>{@code ts} — UTC time, {@code yyyy-MM-ddTHH:mm:ss.SSSZ};
 *   <li>{@code level} — {@code ERROR}, {@code WARN}, {@code INFO}, {@code DEBUG}, {@code TRACE};
 *   <li>{@code logger}, {@code thread}, {@code msg};
 *   <li>the event's structured fields (SLF4J key/values) at the top level, e.g. {@code event},
 *       {@code trace_id}, {@code tier}; absent when null;
 *   <li>{@code stack_trace} when the event carries an exception.
 * </ul>
 * Both formats keep one event on one line whatever the logged text holds: JSON escapes control
 * characters, and the text format escapes CR and LF in messages, fields and exception messages.
 *
 * <p>A {@code -Dlogback.configurationFile=…} given by the operator wins: the format is then left
 * to that file. Call once, first thing in {@code main}; not thread-safe.
 */
public final class Logs {

  /** The command-line flag. */
  public static final String FLAG = "--log-format";
  /** The environment variable, read when the flag is absent. */
  public static final String ENV = "GEO_LOG_FORMAT";

  /** The log formats. */
  public enum Format {
    /** One human-readable line per event (the default). */
    TEXT("logback.xml"),
    /** One JSON object per line. */
    JSON("logback-json.xml");

    private final String resource;

    Format(String resource) {
      this.resource = resource;
    }

    /** The Logback configuration on the classpath that gives this format. */
    public String resource() {
      return resource;
    }

    static Format parse(String s) {
      return switch (s.toLowerCase(Locale.ROOT)) {
        case "json" -> JSON;
        case "text" -> TEXT;
        default -> throw new IllegalArgumentException(FLAG + " must be json or text, got " + s);
      };
    }
  }

  /**
   * The format asked for, and the arguments that remain once {@code --log-format} is taken out.
   *
   * @param format the chosen format
   * @param rest the other arguments, in order
   */
  public record Choice(Format format, String[] rest) {}

  private Logs() {}

  /**
   * Reads the format from {@code args} and {@code env}, configures Logback for it, and returns the
   * remaining arguments.
   *
   * @throws IllegalArgumentException when the format is neither {@code json} nor {@code text}, or
   *     the flag has no value
   */
  public static String[] configure(String[] args, Map<String, String> env) {
    Choice c = choose(args, env);
    if (System.getProperty("logback.configurationFile") == null) {
      apply(c.format());
    }
    return c.rest();
  }

  /** The format chosen by {@code args} (flag, {@code --log-format=json} also accepted) or {@code env}. */
  public static Choice choose(String[] args, Map<String, String> env) {
    String value = env.get(ENV);
    List<String> rest = new ArrayList<>(args.length);
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals(FLAG)) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(FLAG + " needs a value (json or text)");
        }
        value = args[++i];
      } else if (a.startsWith(FLAG + "=")) {
        value = a.substring(FLAG.length() + 1);
      } else {
        rest.add(a);
      }
    }
    Format f = value == null || value.isBlank() ? Format.TEXT : Format.parse(value.trim());
    return new Choice(f, rest.toArray(String[]::new));
  }

  /**
   * For a command whose standard output is its answer ({@code geocode}, {@code batch}, …): the log
   * goes to standard error, and, unless {@code GEO_LOG_LEVEL} says otherwise, only warnings and
   * errors (a batch of a million rows must not print a line per fallback). The format stays as
   * chosen. Does nothing under the operator's own {@code -Dlogback.configurationFile} or another
   * SLF4J backend. Call from the command's thread before it starts anything that logs.
   */
  public static void toStandardError(Map<String, String> env) {
    if (System.getProperty("logback.configurationFile") != null
        || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
      return;
    }
    String level = env.get("GEO_LOG_LEVEL");
    boolean quiet = level == null || level.isBlank();
    for (Logger logger : ctx.getLoggerList()) {
      for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
        if (it.next() instanceof ConsoleAppender<ILoggingEvent> console && !"System.err".equals(console.getTarget())) {
          console.stop();
          console.setTarget("System.err");
          console.start();
        }
      }
      if (quiet && logger.getLevel() != null && !logger.getLevel().isGreaterOrEqual(Level.WARN)) {
        logger.setLevel(Level.WARN);
      }
    }
  }

  /**
   * Replaces the running Logback configuration with the format's. Does nothing when SLF4J is bound
   * to another backend.
   *
   * @throws IllegalStateException when the configuration cannot be read (a packaging error)
   */
  public static void apply(Format format) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext ctx)) {
      return;
    }
    URL config = Logs.class.getClassLoader().getResource(format.resource());
    if (config == null) {
      throw new IllegalStateException(format.resource() + " is missing from the classpath");
    }
    ctx.reset();
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(ctx);
    long since = System.currentTimeMillis();
    try {
      joran.doConfigure(config);
    } catch (JoranException e) {
      throw new IllegalStateException("cannot configure logging from " + config + ": " + e.getMessage(), e);
    }
    List<Status> errors = ctx.getStatusManager().getCopyOfStatusList().stream()
        .filter(s -> s.getLevel() == Status.ERROR && s.getTimestamp() >= since)
        .toList();
    if (!errors.isEmpty()) {
      throw new IllegalStateException("logging configuration " + config + " has errors: " + errors);
    }
  }
}
