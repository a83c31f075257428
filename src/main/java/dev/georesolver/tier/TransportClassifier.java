package dev.georesolver.tier;

import dev.georesolver.geo.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Classifies an attempt that produced no HTTP response into a {@link dev.georesolver.geo.FailureClass}.
 * Pure and thread-safe.
 *
 * <p>Timeouts, refused and reset connections are transient. A DNS failure is degradable and not
 * retried: a name that does not resolve now will not resolve 50 ms later, and with no network it
 * must fail fast rather than be waited out. TLS failures are configuration, so degradable too and so
 * is a body refused as it was read (over the cap, undecodable): retrying would read it again; both
 * count against the breaker. A handshake the provider refused — no client certificate, one it
 * does not trust — or a provider certificate that is not trusted or not for the expected name says
 * {@code TLS handshake failed: <why>}.
 */
public final class TransportClassifier {

  private TransportClassifier() {}

  /**
   * The failure for a transport-level exception: the innermost exception of its cause chain that a
   * rule recognises decides, so a wrapper (Netty's {@code DecoderException}, a
   * {@code CompletionException}) and a cause that is not itself transport-level (the
   * {@code CertificateException} under a TLS handshake failure) do not hide it.
   */
  public static ProviderAnswer.Failed classify(Throwable t) {
    List<Throwable> chain = chainOf(t);
    for (int i = chain.size() - 1; i >= 0; i--) {
      ProviderAnswer.Failed f = recognise(chain.get(i));
      if (f != null) {
        return f;
      }
    }
    Throwable c = chain.get(chain.size() - 1);
    return fail(FailureClass.UNCLASSIFIED, c.getClass().getSimpleName() + ": " + shortMessage(c));
  }

  /** The failure this one exception stands for, or null when no rule recognises it. */
  private static ProviderAnswer.Failed recognise(Throwable c) {
    if (c instanceof BodyRefusedException) {
      return fail(FailureClass.DEGRADABLE, c.getMessage());
    }
    if (c instanceof AttemptTimeoutException) {
      return fail(FailureClass.TRANSIENT, c.getMessage());
    }
    // Netty's resolver puts its own cause (NXDOMAIN, a query timeout) under the UnknownHostException.
    if (c instanceof UnknownHostException || c.getClass().getName().startsWith("io.netty.resolver.dns.")) {
      return fail(FailureClass.DEGRADABLE, "DNS lookup failed: " + shortMessage(c));
    }
    if (c instanceof NoRouteToHostException) {
      return fail(FailureClass.DEGRADABLE, "no route to host");
    }
    if (c instanceof ConnectException || c.getClass().getSimpleName().equals("ConnectTimeoutException")) {
      return fail(FailureClass.TRANSIENT, "connect failed: " + shortMessage(c));
    }
    if (c instanceof TimeoutException) {
      return fail(FailureClass.TRANSIENT, "timed out");
    }
    if (c instanceof ConnectionPoolTooBusyException) {
      return fail(FailureClass.TRANSIENT, "connection pool saturated");
    }
    if (c instanceof SSLHandshakeException) {
      return fail(FailureClass.DEGRADABLE, "TLS handshake failed: " + shortMessage(c));
    }
    if (c instanceof SSLException) {
      return fail(FailureClass.DEGRADABLE, "TLS failure: " + shortMessage(c));
    }
    if (c instanceof HttpClosedException || c instanceof StreamResetException || c instanceof ClosedChannelException
        || c instanceof IOException) {
      return fail(FailureClass.TRANSIENT, "connection reset or closed");
    }
    return null;
  }

  private static ProviderAnswer.Failed fail(FailureClass c, String detail) {
    return new ProviderAnswer.Failed(c, detail, null);
  }

  /** {@code t} and its causes, outermost first, each once (a cause chain may loop). */
  private static List<Throwable> chainOf(Throwable t) {
    List<Throwable> chain = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
      chain.add(c);
    }
    return chain;
  }

  private static String shortMessage(Throwable t) {
    String m = t.getMessage();
    if (m == null) {
      return t.getClass().getSimpleName();
    }
    // Netty puts "host/ip:port" in connect messages; keep them, they carry no secret.
    return m.length() > 160 ? m.substring(0, 160) : m;
  }
}
