package dev.georesolver.compat;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.Redelivery;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.trace.TraceHandler;
import dev.georesolver.trace.Hop;
import dev.georesolver.geo.Direction;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * One compatible endpoint: gate (the tenant's key, its rate limit) → translation → the gate again
 * for the intent → the same request {@code /v1} would send, on {@link Addresses#RESOLVE} /
 * {@link Addresses#REVERSE} with the budget in {@link Addresses#DEADLINE_HEADER}, the trace id and
 * the admitted tenant in {@link Addresses#TENANT_HEADER} → the dialect's answer. Knows nothing of tiers.
 *
 * <p>Every answer, whatever its status, carries its dialect's {@code Content-Type}
 * ({@code application/json; charset=utf-8}, or {@code text/xml; charset=utf-8} for Nominatim's
 * {@code format=xml}), {@code Access-Control-Allow-Origin: *} (browser widgets call these endpoints
 * from any page), the exposed {@code X-Georesolver-Claim}, {@code -Source}, {@code -Degraded} and
 * {@code -Notice} headers ({@code none} / {@code false} when nothing answered; the notice made
 * header-safe by {@link HeaderText}) and {@code X-Trace-Id}.
 *
 * @param <O> the dialect's rendering options
 */
public final class CompatHandler<O> implements Handler<RoutingContext> {

  /** The headers a browser may read from a compatible answer. */
  static final String EXPOSED = "X-Georesolver-Claim, X-Georesolver-Source, X-Georesolver-Degraded, "
      + "X-Georesolver-Notice, X-Trace-Id, Retry-After";

  private static final Logger log = LoggerFactory.getLogger(CompatHandler.class);

  /** How one dialect reads a request and writes an answer. */
  interface Dialect<O> {
    Credentials credentials(HttpServerRequest req, Params params);

    Translation<O> translate(Params params, HttpServerRequest req);

    Outcome invalid(List<FieldProblem> problems);

    /** The outcome the client is to see (the body and the headers follow it); by default the outcome itself. */
    default Outcome present(Outcome outcome, Direction direction, O options) {
      return outcome;
    }

    Rendered render(Outcome outcome, Direction direction, O options);
  }

  private final EventBus bus;
  private final RequestValidator validator;
  private final Gate gate;
  private final Dialect<O> dialect;
  private final ReplayRenderings<O> replays = new ReplayRenderings<>();
  /** Extra time waited past the budget for the chain's reply, milliseconds: the same grace as {@code /v1}. */
  private final long graceMs;

  private CompatHandler(EventBus bus, RequestValidator validator, Gate gate, Dialect<O> dialect, long graceMs) {
    this.graceMs = graceMs;
    this.bus = bus;
    this.validator = validator;
    this.gate = gate;
    this.dialect = dialect;
  }

  /** Nominatim {@code /search}. */
  public static CompatHandler<NominatimRequests.Options> nominatimSearch(EventBus bus, RequestValidator v, Gate gate, long graceMs) {
    return new CompatHandler<>(bus, v, gate, nominatim(true, Clock.systemUTC()), graceMs);
  }

  /** Nominatim {@code /reverse}. */
  public static CompatHandler<NominatimRequests.Options> nominatimReverse(EventBus bus, RequestValidator v, Gate gate, long graceMs) {
    return new CompatHandler<>(bus, v, gate, nominatim(false, Clock.systemUTC()), graceMs);
  }

  /** Google {@code /maps/api/geocode/json}. */
  public static CompatHandler<GoogleRequests.Options> google(EventBus bus, RequestValidator v, Gate gate, long graceMs) {
    return new CompatHandler<>(bus, v, gate, new Dialect<>() {
      @Override
      public Credentials credentials(HttpServerRequest req, Params params) {
        return Credentials.google(params.get("key"), req.getHeader("Authorization"), req.getHeader("X-Api-Key"));
      }

      @Override
      public Translation<GoogleRequests.Options> translate(Params params, HttpServerRequest req) {
        return GoogleRequests.translate(params);
      }

      @Override
      public Outcome invalid(List<FieldProblem> problems) {
        return GoogleRequests.invalid(problems);
      }

      @Override
      public Rendered render(Outcome outcome, Direction direction, GoogleRequests.Options options) {
        return GoogleShapes.render(outcome, options);
      }
    }, graceMs);
  }

  /** Nominatim's dialect; {@code clock} times an XML answer that carries no resolved answer. */
  private static Dialect<NominatimRequests.Options> nominatim(boolean search, Clock clock) {
    return new Dialect<>() {
      @Override
      public Credentials credentials(HttpServerRequest req, Params params) {
        return Credentials.fromHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"));
      }

      @Override
      public Translation<NominatimRequests.Options> translate(Params params, HttpServerRequest req) {
        String header = req.getHeader("Accept-Language");
        if (!search) {
          return NominatimRequests.reverse(params, header);
        }
        HostAndPort authority = req.authority();
        String base = authority == null ? "" : NominatimRequests.baseUrl(req.scheme(), authority.host(), authority.port());
        return NominatimRequests.search(params, header, base);
      }

      @Override
      public Outcome invalid(List<FieldProblem> problems) {
        return NominatimRequests.invalid(problems);
      }

      @Override
      public Outcome present(Outcome outcome, Direction direction, NominatimRequests.Options options) {
        return NominatimShapes.present(outcome, direction, options);
      }

      @Override
      public Rendered render(Outcome outcome, Direction direction, NominatimRequests.Options options) {
        return NominatimShapes.render(outcome, direction, options, clock);
      }
    };
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    Hop hop = TraceHandler.hop(ctx);
    String traceId = hop.traceId();
    MultiMap query = ctx.queryParams();
    Params params = query::get;
    Translation<O> t = dialect.translate(params, req);
    gate.admit(dialect.credentials(req, params))
        .compose(verdict -> verdict instanceof GateVerdict.Admitted admitted
            ? ask(t, req, hop, admitted)
            : Future.succeededFuture(reply(Outcome.of(verdict), t)))
        .otherwise(e -> {
          if (!(e instanceof ReplyException)) {
            log.error("compatible endpoint failed (trace {})", traceId, e);
          }
          return reply(Outcome.ofFailure(e), t);
        })
        .onSuccess(r -> send(ctx.response(), r.rendered(), r.outcome(), traceId));
  }

  private ReplayRenderings.Reply reply(Outcome o, Translation<O> t) {
    Outcome shown = dialect.present(o, t.direction(), t.options());
    return new ReplayRenderings.Reply(shown, dialect.render(shown, t.direction(), t.options()));
  }

  /** A fresh answer is rendered; a stored one (a replay, a coalesced delivery) is rendered once. */
  private ReplayRenderings.Reply reply(ResolveReply r, Translation<O> t) {
    if (r instanceof Redelivery again) {
      return replays.get(again.answer(), t.direction(), t.options(), () -> reply(Outcome.of(Answer.of(again.answer())), t));
    }
    return reply(Outcome.of(Answer.of((ResolveResult) r)), t);
  }

  private Future<ReplayRenderings.Reply> ask(Translation<O> t, HttpServerRequest req, Hop hop, GateVerdict.Admitted admitted) {
    String traceId = hop.traceId();
    if (!t.asks()) {
      return Future.succeededFuture(reply(t.early(), t));
    }
    RequestValidator.Validated v = validator.validate(t.fields(), t.direction(), req.getHeader("Request-Timeout"), traceId);
    if (!v.valid()) {
      return Future.succeededFuture(reply(dialect.invalid(v.problems()), t));
    }
    GateVerdict allowed = gate.authorize(admitted, v.request().intent());
    if (!(allowed instanceof GateVerdict.Admitted)) {
      return Future.succeededFuture(reply(Outcome.of(allowed), t));
    }
    String address = t.direction() == Direction.FORWARD ? Addresses.RESOLVE : Addresses.REVERSE;
    DeliveryOptions o = Node.current().to(address)
        .setSendTimeout(v.budgetMs() + graceMs)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(v.budgetMs()))
        .addHeader(Addresses.TRACE_HEADER, traceId)
        .addHeader(Addresses.TENANT_HEADER, admitted.tenant());
    hop.onto(o);
    return bus.<ResolveReply>request(address, v.request(), o)
        .map(Message::body)
        .map(r -> reply(r, t));
  }

  /** Writes a rendered answer with the headers every compatible answer carries. */
  static void send(HttpServerResponse resp, Rendered r, Outcome outcome, String traceId) {
    Answer a = answerOf(outcome);
    write(resp, r, a, notice(outcome, a), traceId);
  }

  /** Writes a rendered answer: {@code a} (or null) sets the claim headers, {@code notice} the notice. */
  static void write(HttpServerResponse resp, Rendered r, Answer a, String notice, String traceId) {
    if (resp.ended()) {
      return;
    }
    resp.setStatusCode(r.status())
        .putHeader("Content-Type", r.contentType())
        .putHeader("Access-Control-Allow-Origin", "*")
        .putHeader("Access-Control-Expose-Headers", EXPOSED)
        .putHeader("X-Georesolver-Claim", a != null && a.claim() != null ? a.claim().wire() : "none")
        .putHeader("X-Georesolver-Source", a != null && a.source() != null ? HeaderText.of(a.source()) : "none")
        .putHeader("X-Georesolver-Degraded", Boolean.toString(a != null && a.degraded()))
        .putHeader("X-Georesolver-Notice", HeaderText.of(notice));
    if (traceId != null) {
      resp.putHeader("X-Trace-Id", traceId);
    }
    r.headers().forEach(resp::putHeader);
    resp.end(r.body());
  }

  private static Answer answerOf(Outcome o) {
    if (o instanceof Outcome.Found f) {
      return f.answer();
    }
    if (o instanceof Outcome.NotFound n) {
      return n.answer();
    }
    return o instanceof Outcome.Unavailable u ? u.answer() : null;
  }

  private static String notice(Outcome o, Answer a) {
    if (a != null && a.notice() != null) {
      return a.notice();
    }
    if (o instanceof Outcome.Invalid i) {
      return i.message();
    }
    if (o instanceof Outcome.Denied d) {
      return d.message();
    }
    if (o instanceof Outcome.RateLimited r) {
      return r.message();
    }
    if (o instanceof Outcome.Unavailable u) {
      return u.message();
    }
    if (o instanceof Outcome.Failed f) {
      return f.message();
    }
    return o instanceof Outcome.NotFound ? "Nothing to look for." : "";
  }
}
