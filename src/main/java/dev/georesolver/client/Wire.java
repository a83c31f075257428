package dev.georesolver.client;

/**
 * The names of the event-bus contract the client speaks, copied here so that the client depends on
 * nothing else of georesolver; {@code WireContractTest} holds each to the resolver's own
 * ({@code dev.georesolver.bus.Addresses}, {@code FailureCode}).
 */
final class Wire {

  private Wire() {}

  /** Forward resolution, request/reply. */
  static final String RESOLVE = "geocode.resolve";
  /** Reverse resolution, request/reply. */
  static final String REVERSE = "geocode.reverse";

  /** Milliseconds left, measured at sending. */
  static final String DEADLINE_HEADER = "x-deadline-ms";
  /** The tenant the request is made for. */
  static final String TENANT_HEADER = "x-tenant";
  /** The W3C trace context of the caller's span. */
  static final String TRACEPARENT_HEADER = "traceparent";
  /** The W3C trace state that goes with it. */
  static final String TRACESTATE_HEADER = "tracestate";

  /** {@code Message.fail} codes of the resolver. */
  static final int BAD_REQUEST = 400;
  static final int FORBIDDEN = 403;
  static final int DEADLINE_EXCEEDED = 408;
  static final int ROUTER_ERROR = 500;
  static final int MISCONFIGURED = 503;
  static final int REFUSED = 429;
  static final int STORE_UNAVAILABLE = 507;
}
