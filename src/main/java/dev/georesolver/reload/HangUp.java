package dev.georesolver.reload;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGHUP as a reload trigger, where the JVM lets an application handle it: through
 * {@code sun.misc.Signal} (module {@code jdk.unsupported}, present in every OpenJDK build and read
 * by the class path). Where the platform has no SIGHUP (Windows), the signal is already the JVM's
 * (started with {@code -Xrs}), or the class is missing, {@link #install} says so and the file
 * watch and {@code POST /admin/reload} remain. The handler runs on the JVM's signal thread: it
 * must only hand the work on (an event-bus send).
 */
public final class HangUp {

  private static final Logger log = LoggerFactory.getLogger(HangUp.class);

  private HangUp() {}

  /**
   * Runs {@code onHangUp} on each SIGHUP; false (with why, logged) when it cannot be handled here,
   * including when the process was started with hang-ups ignored (as {@code nohup} starts it): the
   * JVM then keeps the signal ignored and takes no handler, without an error of its own.
   */
  public static boolean install(Runnable onHangUp) {
    try {
      sun.misc.SignalHandler before = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), s -> onHangUp.run());
      if (before == sun.misc.SignalHandler.SIG_IGN) {
        log.warn("SIGHUP is ignored in this process (it was started with hang-ups ignored, as nohup does): a hang-up "
            + "does not reload the manifest; use the file watch or POST /admin/reload, or start it without nohup");
        return false;
      }
      return true;
    } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
      log.info("SIGHUP cannot trigger a reload here ({}): use the file watch or POST /admin/reload", e.toString());
      return false;
    }
  }
}
