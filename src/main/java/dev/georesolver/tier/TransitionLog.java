package dev.georesolver.tier;

import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * The log record of a breaker transition: WARN when the breaker opens (by itself or forced), INFO
 * otherwise, with the structured fields {@code event} ({@code "breaker_transition"}), {@code tier},
 * {@code from}, {@code to} ({@code closed} | {@code open} | {@code half_open} | {@code forced_open} |
 * {@code forced_closed}) and {@code reason}.
 */
final class TransitionLog {

  private TransitionLog() {}

  static void record(Logger log, TierBreaker.Transition t) {
    log.atLevel(t.to().refusesCalls() ? Level.WARN : Level.INFO)
        .setMessage("breaker of tier {} {} -> {} ({})")
        .addArgument(t.tier())
        .addArgument(t.from().wire())
        .addArgument(t.to().wire())
        .addArgument(t.reason())
        .addKeyValue("event", "breaker_transition")
        .addKeyValue("tier", t.tier())
        .addKeyValue("from", t.from().wire())
        .addKeyValue("to", t.to().wire())
        .addKeyValue("reason", t.reason())
        .log();
  }
}
