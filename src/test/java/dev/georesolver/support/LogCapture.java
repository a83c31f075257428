package dev.georesolver.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Records every log event of the process (at the levels the test configuration lets through: WARN
 * and above; or every level of the resolver's own loggers, {@link #everyLevel()}) while open,
 * through a Logback {@link ListAppender} on the root logger.
 */
public final class LogCapture implements AutoCloseable {

  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final Logger ours = (Logger) LoggerFactory.getLogger("dev.georesolver");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final boolean everyLevel;
  private final Level oursLevel;
  private final boolean oursAdditive;

  private LogCapture(boolean everyLevel) {
    this.everyLevel = everyLevel;
    this.oursLevel = ours.getLevel();
    this.oursAdditive = ours.isAdditive();
    appender.setContext(root.getLoggerContext());
    appender.start();
    root.addAppender(appender);
    if (everyLevel) {
      ours.addAppender(appender);
      ours.setAdditive(false);
      ours.setLevel(Level.ALL);
    }
  }

  /** Starts recording. */
  public static LogCapture start() {
    return new LogCapture(false);
  }

  /**
   * Starts recording, with the resolver's own loggers opened to every level (and kept off the
   * console) until closed: for tests that a text reaches no log line at any level.
   */
  public static LogCapture everyLevel() {
    return new LogCapture(true);
  }

  /** Every event so far. */
  public List<ILoggingEvent> events() {
    // The appender adds under its own lock (AppenderBase.doAppend is synchronized).
    synchronized (appender) {
      return new ArrayList<>(appender.list);
    }
  }

  /** Events at {@code level} or above. */
  public List<ILoggingEvent> atLeast(Level level) {
    return events().stream().filter(e -> e.getLevel().isGreaterOrEqual(level)).toList();
  }

  /** Each event as one line: level, logger, message, and its throwable's class and message. */
  public List<String> lines() {
    return events().stream().map(LogCapture::line).toList();
  }

  /** One event as a line, with its throwable chain's messages (where a credential could hide too). */
  public static String line(ILoggingEvent e) {
    StringBuilder sb = new StringBuilder().append(e.getLevel()).append(' ').append(e.getLoggerName()).append(" - ")
        .append(e.getFormattedMessage());
    for (var t = e.getThrowableProxy(); t != null; t = t.getCause()) {
      sb.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
    }
    return sb.toString();
  }

  @Override
  public void close() {
    if (everyLevel) {
      ours.setLevel(oursLevel);
      ours.setAdditive(oursAdditive);
      ours.detachAppender(appender);
    }
    root.detachAppender(appender);
    appender.stop();
  }
}
