package dev.georesolver.tier;

import dev.georesolver.provider.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;

import javax.net.ssl.SSLException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;

/**
 * Classifies an attempt that produced no HTTP response (DESIGN §3). Pure and thread-safe.
 *
 * <p>Timeouts, refused and reset connections are transient. A DNS failure is degradable and not
 * retried: a name that does not resolve now will not resolve 50 ms later, and with no network it
 * must fail fast rather than be waited out. TLS failures are configuration, so degradable too.
 */
public final class TransportClassifier {

  private TransportClassifier() {}

  /** The failure for a transport-level exception. */
  public static ProviderAnswer.Failed classify(Throwable t) {
    Throwable c = rootOf(t);
    if (t instanceof AttemptTimeoutException || c instanceof AttemptTimeoutException) {
      return fail(FailureClass.TRANSIENT, t.getMessage());
    }
    // Netty wraps the resolver's own cause (e.g. NXDOMAIN) inside the UnknownHostException.
    if (inChain(t, UnknownHostException.class) || c.getClass().getName().startsWith("io.netty.resolver.dns.")) {
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
    if (c instanceof SSLException) {
      return fail(FailureClass.DEGRADABLE, "TLS failure: " + shortMessage(c));
    }
    if (c instanceof HttpClosedException || c instanceof StreamResetException || c instanceof ClosedChannelException
        || c instanceof IOException) {
      return fail(FailureClass.TRANSIENT, "connection reset or closed");
    }
    return fail(FailureClass.UNCLASSIFIED, c.getClass().getSimpleName() + ": " + shortMessage(c));
  }

  private static ProviderAnswer.Failed fail(FailureClass c, String detail) {
    return new ProviderAnswer.Failed(c, detail, null);
  }

  private static boolean inChain(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static Throwable rootOf(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c;
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
