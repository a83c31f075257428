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
 *   <li>{@link #holdOpenFor} keeps it open at least as long as a provider's {@code Retry-After};
 *   <li>an operator may {@link #force} it open (no call goes through) or closed (every call goes
 *       through, failures are not counted), for a drill or to pin a rung in or out; the forced state
 *       holds, whatever the calls do, until {@link #releaseForce}, which closes it with a clean window.
 * </ul>
 *
 * <p>The forced state lives here, in the breaker, and nowhere else: it lasts as long as this
 * instance, so whatever keeps a tier's breaker (its verticle, across a reload that leaves the tier
 * unchanged) keeps its forced state with it.
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
    HALF_OPEN("half_open"),
    /** Held open by an operator until released: no call goes through. */
    FORCED_OPEN("forced_open"),
    /** Held closed by an operator until released: every call goes through, none is counted. */
    FORCED_CLOSED("forced_closed");

    private final String wire;

    State(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    /** Whether the breaker lets no call through in this state (open, or forced open). */
    public boolean refusesCalls() {
      return this == OPEN || this == FORCED_OPEN;
    }

    /** Whether an operator holds the breaker in this state. */
    public boolean forced() {
      return this == FORCED_OPEN || this == FORCED_CLOSED;
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

  /**
   * One state change. {@code reason}: {@code threshold}, {@code failure_in_half_open},
   * {@code retry_after}, {@code half_open_timeout_elapsed}, {@code success_threshold_reached}, or the
   * operator's {@code force_open}, {@code force_closed}, {@code release}.
   */
  public record Transition(String tier, State from, State to, Instant at, String reason) {}

  /** What an operator can do to a breaker. */
  public enum Force {
    /** Hold it open: no call goes through. */
    OPEN("force_open", State.FORCED_OPEN),
    /** Hold it closed: every call goes through and none is counted. */
    CLOSED("force_closed", State.FORCED_CLOSED);

    private final String wire;
    private final State state;

    Force(String wire, State state) {
      this.wire = wire;
      this.state = state;
    }

    /** The action's name on the wire (and the reason of its transition). */
    public String wire() {
      return wire;
    }

    /** The state it holds the breaker in. */
    public State state() {
      return state;
    }
  }

  private final CircuitBreaker cb;
  private final Clock clock;
  private final Consumer<Transition> listener;
  private final Duration openWait;
  private long generation;
  /** The reason of the transition about to happen, when it is not the default one for its target. */
  private String pendingReason;
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
      String reason = pendingReason != null ? pendingReason : switch (to) {
        case HALF_OPEN -> "half_open_timeout_elapsed";
        case CLOSED -> "success_threshold_reached";
        default -> "threshold";
      };
      pendingReason = null;
      if (to == State.OPEN && !"retry_after".equals(reason)) {
        openUntil = clock.instant().plus(openWait);
      }
      listener.accept(new Transition(tier, from, to, clock.instant(), reason));
    });
  }

  private static State map(CircuitBreaker.State s) {
    return switch (s) {
      case CLOSED, METRICS_ONLY -> State.CLOSED;
      case HALF_OPEN -> State.HALF_OPEN;
      case OPEN -> State.OPEN;
      case FORCED_OPEN -> State.FORCED_OPEN;
      case DISABLED -> State.FORCED_CLOSED;
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
   * breaker already open until later is left as it is, and so is a forced one (the operator's word
   * holds until released).
   */
  public void holdOpenFor(Duration d) {
    if (state().forced()) {
      return;
    }
    Instant until = clock.instant().plus(d);
    if (cb.getState() == CircuitBreaker.State.OPEN && !openUntil.isBefore(until)) {
      return;
    }
    pendingReason = "retry_after";
    openUntil = until;
    cb.transitionToOpenStateUntil(until);
  }

  /**
   * Holds the breaker open or closed until {@link #releaseForce}, whatever the calls do. Calls started
   * before are ignored when they end, as after any transition. Forcing it into the state it is
   * already held in changes nothing.
   *
   * @return the state now
   */
  public State force(Force f) {
    if (state() != f.state()) {
      pendingReason = f.wire();
      if (f == Force.OPEN) {
        cb.transitionToForcedOpenState();
      } else {
        cb.transitionToDisabledState();
      }
    }
    return state();
  }

  /**
   * Ends a forced state: the breaker closes with a clean window, as if newly made. A breaker that is
   * not forced is left as it is.
   *
   * @return the state now
   */
  public State releaseForce() {
    if (state().forced()) {
      pendingReason = "release";
      cb.transitionToClosedState();
    }
    return state();
  }
}
