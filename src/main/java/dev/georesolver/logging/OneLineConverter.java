package dev.georesolver.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.CompositeConverter;

/**
 * {@code %oneline(…)} in a Logback pattern: what it wraps, with its line breaks escaped, so text
 * from outside (a provider's error message, a client's address) cannot start a forged log line.
 */
public final class OneLineConverter extends CompositeConverter<ILoggingEvent> {

  @Override
  protected String transform(ILoggingEvent event, String in) {
    return OneLine.escape(in);
  }
}
