package dev.georesolver.tier;

import dev.georesolver.geo.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import io.vertx.core.VertxException;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.impl.NoStackTraceTimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static dev.georesolver.geo.FailureClass.DEGRADABLE;
import static dev.georesolver.geo.FailureClass.TRANSIENT;
import static dev.georesolver.geo.FailureClass.UNCLASSIFIED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Attempts that produced no HTTP response, classified by DESIGN §3. */
class TransportClassifierTest {

  private static <T extends Throwable> T causedBy(T t, Throwable cause) {
    t.initCause(cause);
    return t;
  }

  private static SSLHandshakeException untrustedCertificate() {
    return causedBy(new SSLHandshakeException("PKIX path building failed"),
        causedBy(new CertificateException("unable to find valid certification path"),
            new CertPathValidatorException("no trust anchor")));
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        arguments(new AttemptTimeoutException(800), TRANSIENT, "attempt timed out after 800 ms"),
        arguments(new ConnectException("Connection refused: geo.example/10.0.0.1:443"), TRANSIENT,
            "connect failed: Connection refused: geo.example/10.0.0.1:443"),
        arguments(new ConnectTimeoutException("connection timed out after 500 ms"), TRANSIENT,
            "connect failed: connection timed out after 500 ms"),
        arguments(new UnknownHostException("geo.invalid"), DEGRADABLE, "DNS lookup failed: geo.invalid"),
        arguments(new NoRouteToHostException("No route to host"), DEGRADABLE, "no route to host"),
        arguments(new TimeoutException("idle"), TRANSIENT, "timed out"),
        arguments(new NoStackTraceTimeoutException("The timeout of 500 ms has been exceeded"), TRANSIENT, "timed out"),
        arguments(new ConnectionPoolTooBusyException("Connection pool reached max wait queue size of 10"), TRANSIENT,
            "connection pool saturated"),
        arguments(new SSLHandshakeException("Received fatal alert: handshake_failure"), DEGRADABLE,
            "TLS handshake failed: Received fatal alert: handshake_failure"),
        arguments(new SSLHandshakeException("Received fatal alert: bad_certificate"), DEGRADABLE,
            "TLS handshake failed: Received fatal alert: bad_certificate"),
        arguments(new SSLException("Unrecognized SSL message"), DEGRADABLE, "TLS failure: Unrecognized SSL message"),
        arguments(new HttpClosedException("Connection was closed"), TRANSIENT, "connection reset or closed"),
        arguments(new StreamResetException(8), TRANSIENT, "connection reset or closed"),
        arguments(new ClosedChannelException(), TRANSIENT, "connection reset or closed"),
        arguments(new IOException("Connection reset by peer"), TRANSIENT, "connection reset or closed"),
        arguments(new SocketException("Connection reset"), TRANSIENT, "connection reset or closed"),
        arguments(new EOFException(), TRANSIENT, "connection reset or closed"),
        arguments(new IllegalStateException("boom"), UNCLASSIFIED, "IllegalStateException: boom"),
        arguments(new NullPointerException(), UNCLASSIFIED, "NullPointerException: NullPointerException"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("failures")
  void shouldClassifyATransportFailure(Throwable t, FailureClass expected, String detail) {
    ProviderAnswer.Failed f = TransportClassifier.classify(t);

    assertThat(f.failureClass()).isEqualTo(expected);
    assertThat(f.detail()).isEqualTo(detail);
    assertThat(f.retryAfterMs()).isNull();
  }

  static Stream<Arguments> wrapped() {
    return Stream.of(
        arguments("a refused connection in a VertxException", new VertxException(new ConnectException("refused")), TRANSIENT),
        arguments("a DNS failure two levels down",
            new CompletionException(new RuntimeException(new UnknownHostException("geo.invalid"))), DEGRADABLE),
        arguments("an attempt timeout in a CompletionException",
            new CompletionException(new AttemptTimeoutException(300)), TRANSIENT),
        arguments("a reset in a Netty DecoderException", new DecoderException(new IOException("Connection reset")), TRANSIENT),
        arguments("an untrusted certificate (TLS failure caused by certificate exceptions)", untrustedCertificate(), DEGRADABLE),
        arguments("an untrusted certificate in a Netty DecoderException", new DecoderException(untrustedCertificate()), DEGRADABLE),
        arguments("something unknown wrapped", new RuntimeException(new ArithmeticException("/ by zero")), UNCLASSIFIED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrapped")
  void shouldClassifyByTheWrappedCause(String what, Throwable t, FailureClass expected) {
    assertThat(TransportClassifier.classify(t).failureClass()).isEqualTo(expected);
  }

  @Test
  @DisplayName("a certificate failure reads as a failed TLS handshake, not as an unclassified CertPathValidatorException")
  void shouldNameATlsFailureCausedByACertificateProblem() {
    assertThat(TransportClassifier.classify(untrustedCertificate()).detail()).isEqualTo("TLS handshake failed: PKIX path building failed");
  }

  @Test
  void shouldReportTheRootCauseOfAnUnclassifiedFailure() {
    assertThat(TransportClassifier.classify(new RuntimeException("outer", new ArithmeticException("/ by zero"))).detail())
        .isEqualTo("ArithmeticException: / by zero");
  }

  @Test
  void shouldCutALongMessageTo160Characters() {
    ProviderAnswer.Failed f = TransportClassifier.classify(new ConnectException("x".repeat(500)));

    assertThat(f.detail()).isEqualTo("connect failed: " + "x".repeat(160));
  }

  @Test
  @DisplayName("a cause chain that loops back on itself is classified, not walked for ever")
  void shouldStopOnACyclicCauseChain() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);

    ProviderAnswer.Failed f = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> TransportClassifier.classify(a));

    assertThat(f.failureClass()).isEqualTo(UNCLASSIFIED);
  }

  @Test
  void shouldMakeTransientFailuresRetryableAndDegradableOnesNot() {
    assertThat(TransportClassifier.classify(new ConnectException()).failureClass().retryable()).isTrue();
    assertThat(TransportClassifier.classify(new UnknownHostException()).failureClass().retryable()).isFalse();
    assertThat(TransportClassifier.classify(new IllegalStateException()).failureClass().countsAgainstBreaker()).isTrue();
  }
}
