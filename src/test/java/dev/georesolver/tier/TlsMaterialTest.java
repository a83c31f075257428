package dev.georesolver.tier;

import dev.georesolver.config.TlsConfig;
import dev.georesolver.support.TestPki;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A tier's TLS files are taken only when they can be used: PEM that parses, and a key that is the certificate's. */
class TlsMaterialTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  private static TlsConfig tls(Path cert, Path key, Path ca) {
    return TlsConfig.SECTION.parse("cert_file: \"" + cert + "\"\nkey_file: \"" + key + "\"\nca_file: \"" + ca + "\"\n");
  }

  @Test
  @DisplayName("a matching pair and an authority: described by the certificate's subject, never its key")
  void shouldTakeAMatchingPair(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued a = pki.client("tier-a");

    TlsMaterial m = TlsMaterial.read(vertx, tls(a.cert(), a.key(), pki.caFile()));

    assertThat(m.toString()).contains("CN=tier-a").contains("valid until").doesNotContain(Files.readString(a.key()).substring(30, 60));
    assertThat(m.sslOptions().getKeyCertOptions()).isNotNull();
    assertThat(m.sslOptions().getHostnameVerificationAlgorithm()).isEqualTo("HTTPS");
  }

  @Test
  @DisplayName("another certificate's key, a file that is not PEM, an unreadable file: refused, naming the file")
  void shouldRefuseWhatCannotBeUsed(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued a = pki.client("tier-a");
    TestPki.Issued b = pki.client("tier-b");
    Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate\n");

    assertThatThrownBy(() -> TlsMaterial.read(vertx, tls(a.cert(), b.key(), pki.caFile())))
        .hasMessage("key_file " + b.key() + " is not the key of the certificate in cert_file " + a.cert());
    assertThatThrownBy(() -> TlsMaterial.read(vertx, tls(junk, a.key(), pki.caFile())))
        .hasMessageStartingWith("cert_file " + junk + " / key_file " + a.key() + " do not parse as PEM");
    assertThatThrownBy(() -> TlsMaterial.read(vertx, tls(a.cert(), a.key(), junk)))
        .hasMessageStartingWith("ca_file " + junk + " holds no usable PEM certificate");
    assertThatThrownBy(() -> TlsMaterial.read(vertx, tls(a.cert(), dir.resolve("absent.key"), pki.caFile())))
        .hasMessage("key_file " + dir.resolve("absent.key") + " is not readable");
  }
}
