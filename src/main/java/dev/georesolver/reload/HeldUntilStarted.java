package dev.georesolver.reload;

/**
 * A trigger that may fire before the resolver has started: until {@link #started} it only
 * remembers that it fired (once, however often), and {@link #started} then runs the action for it.
 * After that every {@link #fire} runs the action at once. So a SIGHUP sent while the verticles are
 * still deploying reloads once they are up, instead of reaching nothing (or the JVM's own handler,
 * which would stop the process). Thread-safe: {@code fire} comes from the JVM's signal thread.
 */
public final class HeldUntilStarted {

  private final Runnable action;
  private boolean started;
  private boolean held;

  /** @param action what a firing does once started; must only hand the work on */
  public HeldUntilStarted(Runnable action) {
    this.action = action;
  }

  /** The trigger fired: runs the action, or holds it until {@link #started}. */
  public void fire() {
    synchronized (this) {
      if (!started) {
        held = true;
        return;
      }
    }
    action.run();
  }

  /** The resolver is up: a held firing runs now, later ones at once. Idempotent. */
  public void started() {
    boolean run;
    synchronized (this) {
      if (started) {
        return;
      }
      started = true;
      run = held;
      held = false;
    }
    if (run) {
      action.run();
    }
  }
}
