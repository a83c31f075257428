package dev.georesolver.tier;

import dev.georesolver.config.BreakerConfig;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A tier's circuit breaker on Resilience4j's state machine, with these semantics:
 *
 * <ul>
 *   <li>{@code failure_threshold} <em>consecutive</em> counted failures open it (a count-based
 *       window of that size that must be all failures);
 *   <li>after {@code half_open_timeout_ms} the next call moves it to half-open, which lets
 *       {@code success_threshold} trial calls through;
 *   <li>{@code success_threshold} successes in half-open close it; the <em>first</em> failure in
 *       half-open reopens it at once;
 *   <li>a result of a call started before the last transition is ignored, so a slow call from the
 *       closed era cannot close or reopen a breaker that has moved on;
 *   <li>{@link #holdOpenFor} keeps it open at least as long as a provider's {@code Retry-After}.
 * </ul>
 *
 * <p>Time comes from the injected {@link Clock}, so transitions are tested without sleeping. Not
 * thread-safe as a whole (the generation check is not atomic with the call): confine each instance
 * to its tier verticle's context.
 */
public final class TierBreaker {

  /** Breaker states as published and reported. */
  public enum State {
    CLOSED("closed"),
    OPEN("open"),
    HALF_OPEN("half_open");

    private final String wire;

    State(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    /** The state of that wire name, if it is one. */
    public static Optional<State> fromWire(String wire) {
      for (State s : values()) {
        if (s.wire.equals(wire)) {
          return Optional.of(s);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * A permission to make one call. Hand every permit back exactly once — {@link #release},
   * {@link #onSuccess} or {@link #onFailure}: in half-open a permit never handed back is a trial
   * call that never ends, and the breaker lets nothing through until a restart.
   */
  public record Permit(long generation) {}

  /** One state change. */
  public record Transition(String tier, State from, State to, Instant at, String reason) {}

  private final CircuitBreaker cb;
  private final Clock clock;
  private final Consumer<Transition> listener;
  private final Duration openWait;
  private long generation;
  private String pendingReason = "threshold";
  private Instant openUntil = Instant.MIN;

  /**
   * @param tier the tier's name, for transitions and logs
   * @param cfg the manifest's breaker settings
   * @param clock the clock the open-state wait runs on
   * @param listener told of every transition, on the calling thread
   */
  public TierBreaker(String tier, BreakerConfig cfg, Clock clock, Consumer<Transition> listener) {
    this.clock = clock;
    this.listener = listener;
    this.openWait = Duration.ofMillis(cfg.halfOpenTimeoutMs());
    CircuitBreakerConfig config = CircuitBreakerConfig.custom()
        .slidingWindow(cfg.failureThreshold(), cfg.failureThreshold(), CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .failureRateThreshold(100f)
        .slowCallRateThreshold(100f)
        .slowCallDurationThreshold(Duration.ofDays(1))
        .permittedNumberOfCallsInHalfOpenState(cfg.successThreshold())
        .maxWaitDurationInHalfOpenState(Duration.ZERO)
        .waitDurationInOpenState(Duration.ofMillis(cfg.halfOpenTimeoutMs()))
        .automaticTransitionFromOpenToHalfOpenEnabled(false)
        .writableStackTraceEnabled(false)
        .clock(clock)
        .build();
    this.cb = CircuitBreaker.of(tier, config);
    cb.getEventPublisher().onStateTransition(e -> {
      generation++;
      State from = map(e.getStateTransition().getFromState());
      State to = map(e.getStateTransition().getToState());
      String reason = to == State.HALF_OPEN ? "half_open_timeout_elapsed"
          : to == State.CLOSED ? "success_threshold_reached" : pendingReason;
      pendingReason = "threshold";
      if (to == State.OPEN && !"retry_after".equals(reason)) {
        openUntil = clock.instant().plus(openWait);
      }
      listener.accept(new Transition(tier, from, to, clock.instant(), reason));
    });
  }

  private static State map(CircuitBreaker.State s) {
    return switch (s) {
      case CLOSED, DISABLED, METRICS_ONLY -> State.CLOSED;
      case HALF_OPEN -> State.HALF_OPEN;
      case OPEN, FORCED_OPEN -> State.OPEN;
    };
  }

  /** The current state (an open breaker whose wait has passed still reads open until a call asks). */
  public State state() {
    return map(cb.getState());
  }

  /**
   * Asks to make a call.
   *
   * @return a permit, or null when the breaker refuses (open, or half-open with every trial taken)
   */
  public Permit tryAcquire() {
    boolean ok;
    try {
      ok = cb.tryAcquirePermission();
    } catch (CallNotPermittedException e) {
      ok = false;
    }
    return ok ? new Permit(generation) : null;
  }

  /** Returns a permit whose call was not made (for example, the rate limiter refused it). */
  public void release(Permit p) {
    if (p.generation() == generation) {
      cb.releasePermission();
    }
  }

  /** Records a call that proved the provider healthy (including "no match"). */
  public void onSuccess(Permit p, long durationMs) {
    if (p.generation() == generation) {
      cb.onSuccess(durationMs, TimeUnit.MILLISECONDS);
    }
  }

  /** Records a counted failure; in half-open it reopens the breaker at once. */
  public void onFailure(Permit p, long durationMs, Throwable cause) {
    if (p.generation() != generation) {
      return;
    }
    if (cb.getState() == CircuitBreaker.State.HALF_OPEN) {
      pendingReason = "failure_in_half_open";
      cb.transitionToOpenState();
      return;
    }
    cb.onError(durationMs, TimeUnit.MILLISECONDS, cause);
  }

  /**
   * Keeps the breaker open for at least {@code d} from now (a provider's {@code Retry-After}). A
   * breaker already open until later is left as it is.
   */
  public void holdOpenFor(Duration d) {
    Instant until = clock.instant().plus(d);
    if (cb.getState() == CircuitBreaker.State.OPEN && !openUntil.isBefore(until)) {
      return;
    }
    pendingReason = "retry_after";
    openUntil = until;
    cb.transitionToOpenStateUntil(until);
  }
}
