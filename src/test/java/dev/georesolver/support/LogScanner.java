package dev.georesolver.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads every log event of a run (a fuzz run, a scenario) as it is written, keeping only counts
 * and the first few offending lines, so a long run holds no growing list. The resolver's own loggers are opened to
 * every level for the run (and kept off the console), so a credential logged at DEBUG is caught
 * as surely as one at ERROR; everything else is read at the levels the test configuration lets
 * through.
 */
public final class LogScanner extends AppenderBase<ILoggingEvent> implements AutoCloseable {

  private static final int KEPT = 10;

  private final List<String> secrets;
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final Logger ours = (Logger) LoggerFactory.getLogger("dev.georesolver");
  private final Level oursLevel;
  private final boolean oursAdditive;
  private final AtomicLong events = new AtomicLong();
  private final List<String> leaks = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private final List<String> breaks = new ArrayList<>();
  private long errorCount;
  private long leakCount;
  private long breakCount;

  private LogScanner(String... secrets) {
    this.secrets = List.of(secrets);
    this.oursLevel = ours.getLevel();
    this.oursAdditive = ours.isAdditive();
  }

  /** Starts reading every log event, looking for any of {@code secrets}. */
  public static LogScanner start(String... secrets) {
    LogScanner s = new LogScanner(secrets);
    s.setContext(s.root.getLoggerContext());
    s.start();
    s.root.addAppender(s);
    s.ours.addAppender(s);
    s.ours.setAdditive(false);
    s.ours.setLevel(Level.ALL);
    return s;
  }

  @Override
  protected void append(ILoggingEvent e) {
    events.incrementAndGet();
    String line = LogCapture.line(e);
    if (secrets.stream().anyMatch(line::contains)) {
      leakCount++;
      if (leaks.size() < KEPT) {
        leaks.add(line);
      }
    }
    String msg = e.getFormattedMessage();
    if (e.getLoggerName().startsWith("dev.georesolver") && msg != null && msg.chars().anyMatch(LogScanner::isBreak)) {
      breakCount++;
      if (breaks.size() < KEPT) {
        breaks.add(line);
      }
    }
    if (e.getLevel().isGreaterOrEqual(Level.ERROR)) {
      errorCount++;
      if (errors.size() < KEPT) {
        errors.add(line);
      }
    }
  }

  /** Events read. */
  public long events() {
    return events.get();
  }

  /** The lines that held a secret (the first few), with how many there were. */
  public synchronized String leaks() {
    return leakCount == 0 ? "" : leakCount + " line(s), first: " + leaks;
  }

  private static boolean isBreak(int c) {
    return c == '\r' || c == '\n' || c == 0x2028 || c == 0x2029;
  }

  /**
   * The resolver's log messages that hold a line break (the first few), with how many there were:
   * text from outside (a provider's) must reach a log escaped, never able to write a line of its own.
   */
  public synchronized String lineBreaks() {
    return breakCount == 0 ? "" : breakCount + " message(s), first: " + breaks;
  }

  /** The lines at ERROR (the first few), with how many there were. */
  public synchronized String errors() {
    return errorCount == 0 ? "" : errorCount + " line(s), first: " + errors;
  }

  @Override
  public void close() {
    ours.setLevel(oursLevel);
    ours.setAdditive(oursAdditive);
    ours.detachAppender(this);
    root.detachAppender(this);
    stop();
  }
}
